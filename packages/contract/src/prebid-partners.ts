import { z } from 'zod';
import { id, pageQuery, patchOf, status } from './common.ts';
import { checkStatsRange, isTimeZone, statsDay } from './stats.ts';

/**
 * A Prebid partner (SPEC.md section 5): a Prebid Server that calls us as a bidder, at
 * `POST /rtb/prebid/{key}` (an OpenRTB 2.5/2.6 request, as Prebid Server sends to its bidders).
 * `key` is made by the server and names the partner; creatives may target partners (prebidPartnerId).
 */
export const prebidPartnerInput = z.strictObject({
  name: z.string().trim().min(1).max(255),
  /** The bidder code the Prebid Server calls us by (informative, e.g. "adp"). */
  bidder_code: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/, { message: 'invalid' })
    .default(''),
  status: status.default('active'),
});
export const prebidPartnerUpdate = patchOf(prebidPartnerInput);
export const prebidPartner = prebidPartnerInput.extend({
  _id: id,
  key: z.string(),
  /** The bidder endpoint to configure in the Prebid Server. */
  endpoint: z.string(),
  created_at: z.string(),
});
export type PrebidPartner = z.infer<typeof prebidPartner>;
export type PrebidPartnerInput = z.input<typeof prebidPartnerInput>;

export const prebidPartnersQuery = pageQuery.extend({
  q: z.string().trim().max(255).optional(),
  status: status.optional(),
});
export type PrebidPartnersQuery = z.output<typeof prebidPartnersQuery>;

/**
 * GET /api/prebidpartners/:id/stats?from&to&tz (by date, zero-filled) and /v2/stats?group=…: the bidder
 * endpoint's bid requests, bids, wins, billed impressions, money spent by our campaigns and its eCPM.
 */
export const prebidStatsGroups = ['day', 'campaign', 'country', 'device'] as const;
export const prebidStatsQuery = z
  .object({
    from: statsDay.optional(),
    to: statsDay.optional(),
    tz: z.string().refine(isTimeZone, { message: 'invalid' }).default('UTC'),
    group: z.enum(prebidStatsGroups).default('day'),
  })
  .superRefine(checkStatsRange);
export type PrebidStatsQuery = z.output<typeof prebidStatsQuery>;
export const prebidStatsValues = z.object({
  requests: z.number(),
  bids: z.number(),
  wins: z.number(),
  impressions: z.number(),
  spent: z.number(),
  ecpm: z.number(),
});
/** The value columns of a Prebid partner's statistics file (GET /api/prebidpartners/{id}[/v2]/stats/export). */
export const prebidStatsColumns = ['requests', 'bids', 'wins', 'impressions', 'spent', 'ecpm'] as const;
export const prebidStatsRow = prebidStatsValues.extend({ key: z.string(), name: z.string().optional() });
export type PrebidStatsRow = z.infer<typeof prebidStatsRow>;
export const prebidStatsAnswer = z.object({ rows: z.array(prebidStatsRow), total: prebidStatsValues });
export type PrebidStatsAnswer = z.infer<typeof prebidStatsAnswer>;
