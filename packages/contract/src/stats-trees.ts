import { z } from 'zod';
import { id, pageQuery } from './common.ts';
import { moneyTotal } from './money.ts';
import {
  checkStatsRange,
  isTimeZone,
  statsAnswer,
  statsDay,
  statsSortColumns,
  statsValues,
} from './stats.ts';

/**
 * Every call of this file takes a range like GET /api/stats: `from`, `to` (days 'YYYY-MM-DD' of `tz`, both
 * included; `to` defaults to today in `tz`, `from` to `to`), `tz` (IANA name, default UTC). An unknown
 * `tz` is a 422 on `tz`; `from` after `to`, or a range longer than STATS_MAX_DAYS, a 422 on `from`
 * (checkStatsRange). Money is in currency units; `ctr` and `ecpm` as in statsValues.
 */
const range = {
  from: statsDay.optional(),
  to: statsDay.optional(),
  tz: z.string().refine(isTimeZone, { message: 'invalid' }).default('UTC'),
};

const sorting = {
  sort: z.enum(statsSortColumns).optional(),
  order: z.enum(['asc', 'desc']).optional(),
};

/** A comma-separated list of ids ('3,7,12'), at most 200; answered as the distinct ids. */
export const idList = z
  .string()
  .regex(/^[0-9]{1,18}(,[0-9]{1,18}){0,199}$/, { message: 'invalid' })
  .transform((s) => [...new Set(s.split(','))]);

/**
 * What a tree is about (SPEC.md section 7, the second stats tree): `sites` (publisher view: eCPM from what
 * was earned), `campaigns` and `banners` (advertiser view: eCPM from what was spent), and the exchange's
 * `partners`, `dsp` and `phoenix-dsp`, readable by admins and readonly admins (a 403 for others). `dsp`
 * and `phoenix-dsp` are the outbound auction's traffic (our widgets' slots sold to DSP partners, from
 * dsp_rollups): a won slot counts as an impression, what the partner paid as `spent` and `earned`, no
 * views or clicks; their `id`, `ids` and `partner_id` name DSP partners. `partners` answers no rows yet.
 */
export const statsTreeSubjects = ['sites', 'campaigns', 'banners', 'partners', 'dsp', 'phoenix-dsp'] as const;
export type StatsTreeSubject = (typeof statsTreeSubjects)[number];

/**
 * The breakdowns of a tree and the row keys they answer:
 * - `revenue`: every day of the range, zero-filled, key 'YYYY-MM-DD' (sorted by day unless `sort`);
 * - `site`: by site, key the site id, `name` its title;
 * - `campaigns`: by campaign, key the campaign id, `name` its title;
 * - `domains`: by site domain, key the domain;
 * - `country` (ISO code), `device`, `os`, `city`: by that value of the rollups;
 * - `rtb`, `partner`: by RTB partner and by DSP partner (`name` the partner's): the `dsp` and
 *   `phoenix-dsp` trees only; the other trees answer no rows and a zero total.
 * Rows without a value (no site, an unknown country…) have the key 'unknown'; ids that no longer exist
 * keep their id as key and have no `name`.
 */
export const statsTreeBreakdowns = [
  'revenue',
  'site',
  'campaigns',
  'domains',
  'country',
  'city',
  'device',
  'os',
  'rtb',
  'partner',
] as const;
export type StatsTreeBreakdown = (typeof statsTreeBreakdowns)[number];

/**
 * GET /api/stats2/{subject}/{breakdown}?from&to&tz&id&ids&partner_id&sort&order&page&limit
 * and GET /api/stats2/{subject}/{breakdown}/total?from&to&tz&id&ids&partner_id (the total only).
 * - `id` (one id) and/or `ids` ('3,7,12', at most 200): the sites, campaigns or banners (by subject) the
 *   answer sums; without either, everything of that subject the caller may read (a default user its own,
 *   an agency its members' and its own, admins and readonly admins everything). An id that does not
 *   exist or that the caller may not read is a 404 (as GET /api/sites/:id answers). In the `partners` tree
 *   (admins only) they name agency groups (/api/partners) and the answer sums their owners' and members'
 *   sites as the publishers see them (without either: every group's); in the `dsp` trees, DSP partners.
 * - `partner_id`: only the traffic bought or sold through that exchange partner (the `dsp` trees: a DSP
 *   partner); the sites, campaigns, banners and partners trees answer no rows and a zero total for it.
 * - `sort` (a statsValues column or `key`) and `order`: default by day ascending for `revenue`, by
 *   impressions descending otherwise; ties by key. `page` (from 1) and `limit` (1–500, default 20) page the
 *   rows; `count` in the answer is the number of rows over all pages.
 * @example GET /api/stats2/sites/country?from=2026-03-01&to=2026-03-07&tz=Europe/Berlin&ids=3,7
 */
export const statsTreeQuery = z
  .object({
    ...range,
    id: id.optional(),
    ids: idList.optional(),
    partner_id: id.optional(),
    ...sorting,
    ...pageQuery.shape,
  })
  .superRefine(checkStatsRange);
export type StatsTreeQuery = z.output<typeof statsTreeQuery>;

/** The query of a tree's /total: the range and the filters, no sorting or paging. */
export const statsTreeTotalQuery = z
  .object({ ...range, id: id.optional(), ids: idList.optional(), partner_id: id.optional() })
  .superRefine(checkStatsRange);
export type StatsTreeTotalQuery = z.output<typeof statsTreeTotalQuery>;

/** A row of a tree: its key, a display `name` where the key is an id (site or campaign title), the values. */
export const statsTreeRow = statsValues.extend({ key: z.string(), name: z.string().optional() });
export type StatsTreeRow = z.infer<typeof statsTreeRow>;

/**
 * The 24-hour rule (statsAnswer): while the owner of what an answer is about (the named ids' owners; without
 * ids the caller itself) is in its first 24 hours, a viewer other than an admin gets `available_at` (the
 * ISO instant statistics appear), no rows and a zero total. This holds for every answer of this file
 * except the admins' /api/stats/revenue.
 */
const availableAt = z.iso.datetime({ offset: true }).optional();

/** One page of a breakdown, the whole range's total, and how many rows all pages hold (`count`). */
export const statsTreeAnswer = z.object({
  rows: z.array(statsTreeRow),
  total: statsValues,
  count: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  available_at: availableAt,
});
export type StatsTreeAnswer = z.infer<typeof statsTreeAnswer>;

/** The answer of a tree's /total. */
export const statsTreeTotal = z.object({ total: statsValues, available_at: availableAt });
export type StatsTreeTotal = z.infer<typeof statsTreeTotal>;

/**
 * GET /api/dbd?from&to&tz&campaign_id|site_id|widget_id|user_id[&side]: "day by day", one row per day of
 * the range (zero-filled, key 'YYYY-MM-DD', oldest first) and the total, in the statsAnswer shape.
 * Exactly one of `campaign_id`, `site_id`, `widget_id`, `user_id` (none is a 422 on `campaign_id`
 * 'required'; two or more a 422 on the second 'invalid'). `user_id` sums the user's sites (`side=publisher`,
 * the default: eCPM from earnings) or campaigns (`side=advertiser`: eCPM from spending). Who may read the
 * campaign, site, widget or user may ask; otherwise 404.
 */
export const dbdQuery = z
  .object({
    ...range,
    campaign_id: id.optional(),
    site_id: id.optional(),
    widget_id: id.optional(),
    user_id: id.optional(),
    side: z.enum(['publisher', 'advertiser']).default('publisher'),
  })
  .superRefine(checkStatsRange)
  .superRefine((q, ctx) => {
    const named = (['campaign_id', 'site_id', 'widget_id', 'user_id'] as const).filter((k) => q[k]);
    if (named.length === 0) ctx.addIssue({ code: 'custom', message: 'required', path: ['campaign_id'] });
    else if (named.length > 1) ctx.addIssue({ code: 'custom', message: 'invalid', path: [named[1] ?? ''] });
  });
export type DbdQuery = z.output<typeof dbdQuery>;
export const dbdAnswer = statsAnswer;

/**
 * GET /api/criteo/stats?from&to&tz&site_id|widget_id|campaign_id: the traffic of criteo campaigns
 * (adstype `criteo`, served by the `criteo` processor as markup, or as cards by a native criteo widget) per day of the range, zero-filled, in the
 * statsAnswer shape (impressions, clicks, …). At most one of the ids (two or more: 422 on the second);
 * `campaign_id` must be a criteo campaign's (another adstype answers no rows). Without an id: admins and
 * readonly admins get the whole platform, others the criteo traffic on the sites they may read (their
 * own; an agency's also its members'). eCPM is the publisher's (earned) except with `campaign_id`.
 * Unknown or invisible ids are a 404.
 */
export const criteoStatsQuery = z
  .object({ ...range, site_id: id.optional(), widget_id: id.optional(), campaign_id: id.optional() })
  .superRefine(checkStatsRange)
  .superRefine((q, ctx) => {
    const named = (['site_id', 'widget_id', 'campaign_id'] as const).filter((k) => q[k]);
    if (named.length > 1) ctx.addIssue({ code: 'custom', message: 'invalid', path: [named[1] ?? ''] });
  });
export type CriteoStatsQuery = z.output<typeof criteoStatsQuery>;
export const criteoStatsAnswer = statsAnswer;

/** The breakdowns of GET /api/stats/ecpm. */
export const ecpmGroups = ['day', 'site', 'widget', 'campaign'] as const;
export type EcpmGroup = (typeof ecpmGroups)[number];

/**
 * GET /api/stats/ecpm?from&to&tz&side&group&user_id&sort&order&page&limit: eCPM of a user's traffic.
 * `side=publisher` (default): the user's sites, eCPM from earnings, `group` day (default), site or widget;
 * `side=advertiser`: the user's campaigns, eCPM from spending, `group` day or campaign (a group of the other
 * side is a 422 on `group`). `user_id` defaults to the caller; another user's (an agency's member, anyone
 * for admins) needs the right to read that user, else 404. Rows as statsTreeAnswer (`name` = the site,
 * widget or campaign title; days zero-filled), paged.
 */
export const ecpmQuery = z
  .object({
    ...range,
    side: z.enum(['publisher', 'advertiser']).default('publisher'),
    group: z.enum(ecpmGroups).default('day'),
    user_id: id.optional(),
    ...sorting,
    ...pageQuery.shape,
  })
  .superRefine(checkStatsRange)
  .superRefine((q, ctx) => {
    const ok =
      q.group === 'day' || (q.side === 'publisher' ? q.group !== 'campaign' : q.group === 'campaign');
    if (!ok) ctx.addIssue({ code: 'custom', message: 'invalid', path: ['group'] });
  });
export type EcpmQuery = z.output<typeof ecpmQuery>;
export const ecpmAnswer = statsTreeAnswer;

/**
 * GET /api/stats/revenue?from&to&tz: the platform's own income (what charged clicks leave after the
 * publisher, the agency and the referrer: the platform ledger) per day of the range, zero-filled, oldest
 * first, and the total. Admins and readonly admins only (403 for others).
 */
export const platformRevenueQuery = z.object(range).superRefine(checkStatsRange);
export type PlatformRevenueQuery = z.output<typeof platformRevenueQuery>;
export const platformRevenueAnswer = z.object({
  rows: z.array(z.object({ key: z.string(), revenue: moneyTotal })),
  total: z.object({ revenue: moneyTotal }),
});
export type PlatformRevenueAnswer = z.infer<typeof platformRevenueAnswer>;

/**
 * The exchange (RTB) statistics of a campaign or a creative (SPEC.md section 2, rtb-stats):
 * GET /api/stats/{campaigns|banners}/:id/rtb                                  by day
 * GET /api/stats/{campaigns|banners}/:id/rtb/sources                          by source
 * GET /api/stats/{campaigns|banners}/:id/rtb/sources/:sourceId                one source, by day
 * GET /api/stats/{campaigns|banners}/:id/rtb/partners/:partnerId              one partner, by day
 * GET /api/stats/{campaigns|banners}/:id/rtb/partners/:partnerId/sources/:sourceId   one source, by day
 * with ?from&to&tz&sort&order&page&limit. The campaign or creative must be readable (404 otherwise). Rows
 * are what the exchange billed (burl notices: impressions and spent, eCPM; clicks are not counted there):
 * by day zero-filled, or by source (`key` the source id, `name` its domain or app bundle); nothing billed in
 * the range answers no rows and a zero total. Unknown partner or source ids sum nothing.
 */
export const rtbStatsQuery = z
  .object({ ...range, ...sorting, ...pageQuery.shape })
  .superRefine(checkStatsRange);
export type RtbStatsQuery = z.output<typeof rtbStatsQuery>;
export const rtbStatsAnswer = statsTreeAnswer;
