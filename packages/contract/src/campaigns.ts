import { z } from 'zod';
import { httpUrl, id, pageQuery, patchOf, status } from './common.ts';
import { isIabCategory } from './iab-categories.ts';
import { money, moneyTotal } from './money.ts';
import { ledgerTypes } from './payments.ts';
import { moderation } from './widgets.ts';

export const adsTypes = [
  'default',
  'social',
  'video',
  'adsense',
  'news',
  'external',
  'cpcfeed',
  'marketplace',
  'criteo',
  'postback',
] as const;
export const adsType = z.enum(adsTypes);
/**
 * The ads types whose items come from an external CPC feed (`cpc_feed_processor`, settings in `src_code`):
 * `cpcfeed` campaigns serve in cpcfeedapi and externalapi widgets, `external` ones in externalapi widgets.
 */
export const feedAdsTypes: ReadonlySet<string> = new Set(['cpcfeed', 'external']);
/**
 * The ads types shown as native cards (title, picture, text) by the native processors, and the only ones
 * that bid on the exchange: social, news, marketplace and postback campaigns are native campaigns by their
 * purpose (a social page, news, product offers, conversions reported by postback), served alike.
 */
export const nativeAdsTypes: ReadonlySet<string> = new Set([
  'default',
  'social',
  'news',
  'marketplace',
  'postback',
]);
export const clickFilters = ['dummy', 'onetoone', 'lock'] as const;
export const cpcFeedProcessors = ['mgid', 'mgidv2', 'revcontent', 'contentad'] as const;
/**
 * What a `cpcfeed` campaign's `src_code` holds for each feed: a JSON object of the partner's ids
 * (delivery's feed parser reads it; the campaign form shows these as the expected shape).
 */
export const cpcFeedConfigExamples = {
  mgid: { widget_id: '123456', token: 'your-api-token' },
  mgidv2: { account_id: '123', placement_id: '456', bidfloor: 0.5 },
  revcontent: { api_key: 'your-api-key', pub_id: '123', widget_id: '456', domain: 'example.com' },
  contentad: { widget_id: 'your-widget-id', domain_id: 'your-domain-id' },
} as const satisfies Record<(typeof cpcFeedProcessors)[number], Record<string, unknown>>;
export const targetCtrStatus = z.enum(['unchecked', 'checked', 'not_passed']);

/**
 * Whether a campaign with a target CTR may bid on the exchange: its owner's check passed, or, on auto (the
 * platform checks it every hour), the last check did not fail (too few impressions to decide still bids).
 */
export function targetCtrAllows(auto: boolean, status: string | undefined): boolean {
  return auto ? status !== 'not_passed' : status === 'checked';
}
/** How a campaign with daily clicks or a daily budget spends it: evenly over the UTC day, or as fast as it can. */
export const pacings = ['even', 'asap'] as const;
/** Impressions of the last 7 days a target CTR check needs before it can pass or fail. */
export const TARGET_CTR_MIN_IMPRESSIONS = 1000;

const ids = z.array(id).max(1000);
const sources = z.array(z.string().trim().min(1).max(255)).max(5000);

/** The OpenRTB block of a campaign (SPEC.md section 3). */
export const campaignOpenRtb = z.strictObject({
  enabled: z.boolean().default(false),
  daily_budget_limit: money
    .refine((v) => v > 0, { message: 'positive' })
    .nullable()
    .default(null),
  /** Target CTR in percent; a campaign with one must pass the check (or be on auto) to run. */
  target_ctr: z.number().min(0).max(100).nullable().default(null),
  target_ctr_auto: z.boolean().default(false),
  dsp_whitelist: ids.default([]),
  dsp_blacklist: ids.default([]),
  source_whitelist: sources.default([]),
  source_blacklist: sources.default([]),
  ecpm_bid: money
    .refine((v) => v > 0, { message: 'positive' })
    .nullable()
    .default(null),
  only_openrtb: z.boolean().default(false),
});
export type CampaignOpenRtb = z.infer<typeof campaignOpenRtb>;

/**
 * Macros the tracking and UTM templates understand; delivery replaces them at click time.
 * The campaign form lists them so advertisers know what they can use.
 */
export const trackingMacros = [
  '{campaign_id}',
  '{banner_id}',
  '{site_id}',
  '{widget_id}',
  '{click_id}',
  '{country}',
  '{device}',
  '{os}',
  '{timestamp}',
] as const;
/** A macro's name (`{click_id}` → `click_id`): the values a click's redirect fills (delivery/engine.ts). */
export type TrackingMacroName = (typeof trackingMacros)[number] extends `{${infer N}}` ? N : never;
export const trackingMacroNames = trackingMacros.map((m) => m.slice(1, -1) as TrackingMacroName);

export const campaignInput = z.strictObject({
  title: z.string().trim().min(1).max(255),
  adstype: adsType.default('default'),
  clickprice: money.refine((v) => v > 0, { message: 'positive' }),
  /** Clicks per day at most; 0 = no limit. */
  dailyclicks: z.int().min(0).max(10_000_000).default(0),
  /** Money per UTC day at most; null = no limit. */
  daily_budget: money
    .refine((v) => v > 0, { message: 'positive' })
    .nullable()
    .default(null),
  pacing: z.enum(pacings).default('even'),
  weight: z.int().min(0).max(1000).default(100),
  click_filter: z.enum(clickFilters).default('onetoone'),
  utm: z.string().trim().max(1000).default(''),
  track_urls: z.array(httpUrl).max(10).default([]),
  src_code: z.string().max(20_000).default(''),
  site_id: id.nullable().default(null),
  widgets: ids.default([]),
  brand_name: z.string().trim().max(100).default(''),
  sub_category: z.string().trim().max(100).default(''),
  /**
   * IAB content categories of the campaign's ads (IAB 1.0 codes, `IAB7`, `IAB7-39`): a bid request whose
   * `bcat` names one of them (or its tier-1 parent) gets no bid from it, and its bids carry them as `cat`.
   */
  iab_categories: z
    .array(z.string().trim().toUpperCase().refine(isIabCategory, { message: 'iab_category' }))
    .max(50)
    .default([]),
  cpc_feed_processor: z.enum(cpcFeedProcessors).nullable().default(null),
  hide_clicks_sites: z.boolean().default(false),
  on_image_load: z.boolean().default(false),
  status: status.default('inactive'),
  openrtb: campaignOpenRtb.default(() => campaignOpenRtb.parse({})),
  /** Admins may create a campaign for a user; others create their own. */
  user_id: id.optional(),
});
export type CampaignInput = z.infer<typeof campaignInput>;
export const campaignUpdate = patchOf(campaignInput.omit({ user_id: true }), {
  openrtb: patchOf(campaignOpenRtb),
});

export const campaign = campaignInput.omit({ user_id: true }).extend({
  _id: id,
  user_id: id,
  balance: moneyTotal,
  moderation,
  moderation_reason: z.string().nullable(),
  target_ctr_status: targetCtrStatus,
  target_ctr_check_date: z.string().nullable(),
  ip_ranges: z.number().int(),
  banners_count: z.number().int(),
  created_at: z.string(),
});
export type Campaign = z.infer<typeof campaign>;

export const campaignsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(20),
  status: status.optional(),
  moderation: moderation.optional(),
  adstype: adsType.optional(),
  account: id.optional(),
  search: z.string().trim().max(200).optional(),
});

/** POST /api/campaigns/<id>/payments `{payment}`: move money between the owner's balance and the campaign. */
export const campaignPaymentInput = z.strictObject({
  /** Positive funds the campaign from the owner's balance; negative returns money to it. */
  sum: money.refine((v) => v !== 0, { message: 'invalid' }),
});
/**
 * The kinds of a campaign's own ledger rows: the user ledger's kinds (funding, a refund to the owner, a
 * click charge) and `rtb_impression`, an exchange impression billed through its burl at the clearing price.
 */
export const campaignLedgerType = z.enum([...ledgerTypes, 'rtb_impression']);
/** The money moved between the owner and the campaign (the rest are charges: clicks, exchange impressions). */
export const campaignPaymentKinds = ['campaign_funding', 'refund'] as const;
/**
 * GET /api/campaigns/<id>/payments: a page of the campaign's ledger; `kind` keeps the money moved between
 * owner and campaign (`payments`) or what the campaign was charged (`charges`), `all` by default.
 */
export const campaignPaymentsKind = z.enum(['all', 'payments', 'charges']);
export type CampaignPaymentsKind = z.infer<typeof campaignPaymentsKind>;
export const campaignPaymentsQuery = pageQuery.extend({ kind: campaignPaymentsKind.optional() });
export const campaignPayment = z.object({
  _id: id,
  campaign_id: id,
  type: campaignLedgerType,
  sum: moneyTotal,
  balance_after: moneyTotal,
  actor_id: id.nullable(),
  date: z.string(),
});

/**
 * GET /api/campaigns/{id}/ip-ranges: the campaign's IP list (addresses and CIDR ranges: when not empty, the
 * campaign serves only visitors from them), in import order. DELETE on the same path clears it (204).
 */
export const campaignIpRanges = z.object({ items: z.array(z.string()), total: z.number().int() });
export type CampaignIpRanges = z.infer<typeof campaignIpRanges>;

/** Result of an IP list import: good rows are kept, bad rows reported by line. */
export const ipImportResult = z.object({
  imported: z.number().int(),
  total: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), value: z.string() })),
});
