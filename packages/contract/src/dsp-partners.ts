import { z } from 'zod';
import { httpUrl, id, pageQuery, patchOf, status } from './common.ts';
import { money } from './money.ts';
import { checkStatsRange, isTimeZone, statsDay } from './stats.ts';

/** OpenRTB versions a DSP partner's endpoint speaks (the request carries `x-openrtb-version`). */
export const openRtbVersions = ['2.5', '2.6'] as const;
/** OpenRTB 2.x AdPosition (list 5.4): 0 unknown, 1 above the fold, 3 below, 4 header, 5 footer, 6 sidebar, 7 full screen. */
export const adPositions = [0, 1, 3, 4, 5, 6, 7] as const;

/**
 * A traffic source as the DSP lists name it: a site's domain ("news.example", no scheme, lower case) or a
 * site id ("12"). A domain entry also covers its subdomains.
 */
export const dspSource = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(255)
  .regex(/^([0-9]{1,18}|([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})$/, { message: 'source' });
const sources = z.array(dspSource).max(5000);

/**
 * A DSP partner (SPEC.md section 5): a demand platform we sell our widgets' traffic to over OpenRTB.
 * - `daily_money_limit`: the most the partner may buy from us per UTC day (the sum of its clearing
 *   prices); when reached it is not asked again until the next day. null = no limit.
 * - `daily_budget_limit`: the most bid requests sent to it per UTC day (its request budget). null = no limit.
 * - `max_request_time`: milliseconds we wait for its answer (10–5000); it is the request's `tmax`.
 * - `whitelist`: when not empty, only these sources are offered; `blacklist`: never these (with the
 *   partner's blacklist items, GET /api/dsppartnerblacklist).
 * - `ad_position`: the OpenRTB `pos` sent for our widget slots.
 */
export const dspPartnerInput = z.strictObject({
  name: z.string().trim().min(1).max(255),
  endpoint: httpUrl,
  openrtb_version: z.enum(openRtbVersions).default('2.5'),
  daily_money_limit: money
    .refine((v) => v > 0, { message: 'positive' })
    .nullable()
    .default(null),
  daily_budget_limit: z.number().int().min(1).max(1_000_000_000).nullable().default(null),
  max_request_time: z.number().int().min(10).max(5000).default(300),
  whitelist: sources.default([]),
  blacklist: sources.default([]),
  ad_position: z
    .number()
    .int()
    .refine((v) => (adPositions as readonly number[]).includes(v), { message: 'invalid' })
    .default(0),
  status: status.default('active'),
});
export const dspPartnerUpdate = patchOf(dspPartnerInput);
export const dspPartner = dspPartnerInput.extend({ _id: id, created_at: z.string() });
export type DspPartner = z.infer<typeof dspPartner>;
export type DspPartnerInput = z.input<typeof dspPartnerInput>;

export const dspPartnersQuery = pageQuery.extend({
  q: z.string().trim().max(255).optional(),
  status: status.optional(),
});

/** A source one DSP partner is never offered (SPEC.md "DSP partner blacklist item"). */
export const dspPartnerBlacklistInput = z.strictObject({
  dsp_partner_id: id,
  source: dspSource,
  comment: z.string().trim().max(500).default(''),
});
export const dspPartnerBlacklistUpdate = patchOf(dspPartnerBlacklistInput.omit({ dsp_partner_id: true }));
export const dspPartnerBlacklistItem = dspPartnerBlacklistInput.extend({ _id: id, created_at: z.string() });
export type DspPartnerBlacklistItem = z.infer<typeof dspPartnerBlacklistItem>;
export const dspPartnerBlacklistQuery = pageQuery.extend({
  dsp_partner_id: id.optional(),
  q: z.string().trim().max(255).optional(),
});

/**
 * The statistics of a DSP partner: GET /api/dsppartners/:id/stats?group&from&to&tz and the drill-down
 * filters. `group`: day (zero-filled), source (site; key the site id), campaign (our best campaign that
 * lost the slot to the partner; key its id, 'unknown' when none competed), rtb_partner (the RTB partner a
 * re-sold request came from; 'unknown' for our own widgets' traffic), country, city, device, os.
 */
export const dspStatsGroups = [
  'day',
  'source',
  'campaign',
  'rtb_partner',
  'country',
  'city',
  'device',
  'os',
] as const;
export const dspStatsQuery = z
  .object({
    from: statsDay.optional(),
    to: statsDay.optional(),
    tz: z.string().refine(isTimeZone, { message: 'invalid' }).default('UTC'),
    group: z.enum(dspStatsGroups).default('day'),
    source_id: id.optional(),
    campaign_id: id.optional(),
    rtb_partner_id: id.optional(),
    country: z.string().trim().max(2).optional(),
    city: z.string().trim().max(255).optional(),
    device: z.string().trim().max(64).optional(),
    os: z.string().trim().max(64).optional(),
  })
  .superRefine(checkStatsRange);
export type DspStatsQuery = z.output<typeof dspStatsQuery>;

/** Requests sent, bids received, auctions won, money the partner paid (its clearing prices), eCPM paid. */
export const dspStatsValues = z.object({
  requests: z.number(),
  bids: z.number(),
  wins: z.number(),
  timeouts: z.number(),
  errors: z.number(),
  revenue: z.number(),
  ecpm: z.number(),
});
/** The value columns of a DSP partner's statistics file (GET /api/dsppartners/{id}/stats/export), as its table. */
export const dspStatsColumns = ['requests', 'bids', 'wins', 'timeouts', 'errors', 'revenue', 'ecpm'] as const;
export const dspStatsRow = dspStatsValues.extend({ key: z.string(), name: z.string().optional() });
export type DspStatsRow = z.infer<typeof dspStatsRow>;
export const dspStatsAnswer = z.object({ rows: z.array(dspStatsRow), total: dspStatsValues });
export type DspStatsAnswer = z.infer<typeof dspStatsAnswer>;
