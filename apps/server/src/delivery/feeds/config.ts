import { cpcFeedProcessors } from '@adp/contract';
import { z } from 'zod';

export type CpcFeedProcessor = (typeof cpcFeedProcessors)[number];

/** Endpoints are part of the configuration so a test (or a partner's regional host) can replace them. */
const endpoint = (fallback: string) =>
  z
    .string()
    .trim()
    .max(2000)
    .pipe(z.url({ protocol: /^https?$/ }))
    .transform((s) => (s.endsWith('/') ? s : `${s}/`))
    .default(fallback);

const digits = z.union([
  z
    .string()
    .trim()
    .regex(/^[0-9]{1,18}$/),
  z.int().positive().transform(String),
]);
const token = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._~-]+$/);
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/);

/**
 * MGID's JSON widget API (`https://api.mgid.com/<widget id>?content_type=json&token=…`), as public
 * integrations call it server to server. `src_id` is the publisher's sub-source.
 */
export const mgidConfig = z.strictObject({
  widget_id: digits,
  token,
  src_id: z.string().trim().max(100).optional(),
  endpoint: endpoint('https://api.mgid.com/'),
});

/** MGID's OpenRTB native endpoint, the one its Prebid.js and Prebid Server adapters call. */
export const mgidv2Config = z.strictObject({
  account_id: digits,
  placement_id: digits.optional(),
  /** CPM floor in US dollars */
  bidfloor: z.number().nonnegative().max(1000).optional(),
  endpoint: endpoint('https://prebid.mgid.com/prebid/'),
});

/** Revcontent's content API (`/api/v1/`, or `/api/v2/` which wraps the list in `content`). */
export const revcontentConfig = z.strictObject({
  api_key: token,
  pub_id: digits,
  widget_id: digits,
  domain,
  endpoint: endpoint('https://trends.revcontent.com/api/v1/'),
});

/** Content.ad's Widget API: the `id` and `d` strings of the widget's installation code. */
export const contentadConfig = z.strictObject({
  widget_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/),
  domain_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/),
  /** sent as `url` when the page is unknown: Content.ad wants a URL on the widget's domain */
  site_url: z
    .string()
    .trim()
    .max(2000)
    .pipe(z.url({ protocol: /^https?$/ }))
    .optional(),
  endpoint: endpoint('https://api.content-ad.net/api.svc/GetWidget/'),
});

export type MgidConfig = z.infer<typeof mgidConfig>;
export type Mgidv2Config = z.infer<typeof mgidv2Config>;
export type RevcontentConfig = z.infer<typeof revcontentConfig>;
export type ContentadConfig = z.infer<typeof contentadConfig>;

export interface FeedConfigs {
  mgid: MgidConfig;
  mgidv2: Mgidv2Config;
  revcontent: RevcontentConfig;
  contentad: ContentadConfig;
}

const schemas = {
  mgid: mgidConfig,
  mgidv2: mgidv2Config,
  revcontent: revcontentConfig,
  contentad: contentadConfig,
} satisfies Record<CpcFeedProcessor, z.ZodType>;

export type FeedConfig = FeedConfigs[CpcFeedProcessor];

export type ParsedFeedConfig<P extends CpcFeedProcessor> =
  | { ok: true; config: FeedConfigs[P] }
  | { ok: false; error: string };

/**
 * Reads a `cpcfeed` campaign's `src_code`: a JSON object with the partner's ids, e.g.
 * `{"widget_id": "123456", "token": "…"}` for mgid. `error` names the first bad field
 * (`widget_id: …`), or says the text is not a JSON object, for the campaign form to show.
 */
export function parseFeedConfig<P extends CpcFeedProcessor>(
  processor: P,
  srcCode: string,
): ParsedFeedConfig<P> {
  if (!(cpcFeedProcessors as readonly string[]).includes(processor)) {
    return { ok: false, error: `unknown feed processor ${String(processor)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(srcCode);
  } catch {
    return { ok: false, error: 'src_code must be a JSON object with the feed settings' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, error: 'src_code must be a JSON object with the feed settings' };
  }
  const result = schemas[processor].safeParse(json);
  if (result.success) return { ok: true, config: result.data as FeedConfigs[P] };
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || 'src_code';
  return { ok: false, error: `${field}: ${issue?.message ?? 'invalid'}` };
}
