import { z } from 'zod';
import { pageQuery } from './common.ts';
import { moneyTotal } from './money.ts';
import { statsQuery } from './stats.ts';
import { statsFileQuery } from './stats-export.ts';

/**
 * The range part of every click list: `from`, `to` (days 'YYYY-MM-DD' of `tz`), `tz`, checked exactly as
 * statsQuery checks them (its issues are passed on, on the same fields).
 */
const rangeShape = {
  from: z.string().optional(),
  to: z.string().optional(),
  tz: z.string().default('UTC'),
};

function checkRange(
  q: { from?: string | undefined; to?: string | undefined; tz: string },
  ctx: z.RefinementCtx,
) {
  const checked = statsQuery.safeParse({ from: q.from, to: q.to, tz: q.tz });
  if (checked.success) return;
  for (const issue of checked.error.issues) ctx.addIssue({ ...issue, input: undefined } as never);
}

/** What a click list shows of a click's status: charged ('valid') or not ('invalid', with its reason). */
export const clickStatuses = ['valid', 'invalid'] as const;
export type ClickStatus = (typeof clickStatuses)[number];

/**
 * GET /api/{campaigns|sites|widgets}/:id/clicks, …/pixelclicks, …/postback: a page (`page`, `limit` ≤ 500)
 * of the clicks of the range, newest first; `status` keeps only valid or invalid clicks. For postback the
 * range is the day of the conversion, for the others the day of the click.
 * @example clicksQuery.parse({ from: '2026-03-01', to: '2026-03-07', status: 'invalid' })
 */
export const clicksQuery = z
  .object({ ...rangeShape, ...pageQuery.shape, status: z.enum(clickStatuses).optional() })
  .superRefine(checkRange);
export type ClicksQuery = z.output<typeof clicksQuery>;

/**
 * GET /api/{campaigns|sites|widgets}/{id}/clicks/export and /api/campaigns/{id}/postback/export: the
 * list's range and status filter, every click of them in a CSV or XLSX file (no paging), in the columns its
 * screen shows the caller.
 */
export const clicksFileQuery = z
  .object({ ...rangeShape, status: z.enum(clickStatuses).optional(), ...statsFileQuery.shape })
  .superRefine(checkRange);
export type ClicksFileQuery = z.output<typeof clicksFileQuery>;

/**
 * One click as a list shows it. `site_id`/`widget_id` and their titles are null when the campaign hides
 * its clicks' sites (`hide_clicks_sites`) from a viewer who is not an admin. `price` (what the campaign
 * paid) is in the advertiser's lists, `earned` (the publisher's share) in the publisher's; admins see both.
 * `ip` is for admins only. `reason` says why an invalid click was not charged (replayed, expired, bot,
 * too_fast, not_serving, capping, filter_onetoone, filter_lock, daily limits, …).
 */
export const clickRow = z.object({
  _id: z.string(),
  created_at: z.string(),
  campaign_id: z.string(),
  banner_id: z.string(),
  banner_title: z.string().nullable(),
  site_id: z.string().nullable(),
  site_title: z.string().nullable(),
  widget_id: z.string().nullable(),
  widget_title: z.string().nullable(),
  country: z.string(),
  city: z.string(),
  device: z.string(),
  os: z.string(),
  browser: z.string(),
  ip: z.string().optional(),
  price: moneyTotal.optional(),
  earned: moneyTotal.optional(),
  status: z.enum(clickStatuses),
  reason: z.string().nullable(),
  converted_at: z.string().nullable(),
  conversion_sum: moneyTotal.nullable(),
  conversion_status: z.string().nullable(),
});
export type ClickRow = z.infer<typeof clickRow>;

/**
 * The 24-hour rule (statsAnswer): while the owner's statistics are held back from this viewer, a list has
 * no rows and names when they appear (`available_at`, an ISO instant).
 */
const availableAt = { available_at: z.string().optional() };

/** A page of clicks; `sites_hidden` is true when the campaign hides its clicks' sites from this viewer. */
export const clicksPage = z.object({
  items: z.array(clickRow),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  sites_hidden: z.boolean(),
  ...availableAt,
});
export type ClicksPage = z.infer<typeof clicksPage>;

/**
 * A click whose visitor later reached a page carrying one of the campaign owner's remarketing pixels: the
 * pixel, the visitor's last page there, when, and how many visits the pixel counted for that visitor.
 */
export const pixelClickRow = clickRow.extend({
  pixel_id: z.string(),
  pixel_title: z.string(),
  pixel_url: z.string(),
  pixel_seen_at: z.string(),
  pixel_visits: z.number().int(),
});
export type PixelClickRow = z.infer<typeof pixelClickRow>;
export const pixelClicksPage = clicksPage.extend({ items: z.array(pixelClickRow) });
export type PixelClicksPage = z.infer<typeof pixelClicksPage>;

/** Postback conversions: the page, and the count and sum of every conversion of the range. */
export const postbackPage = clicksPage.extend({ conversions: z.number().int(), sum: moneyTotal });
export type PostbackPage = z.infer<typeof postbackPage>;

/** GET /api/campaigns/:id/impressions and /api/sites/:id/geoclicks and the other aggregate lists. */
export const rangePageQuery = z.object({ ...rangeShape, ...pageQuery.shape }).superRefine(checkRange);
export type RangePageQuery = z.output<typeof rangePageQuery>;

/** Counters of one row of an aggregate list; `ctr` in percent (0 without impressions). */
const counters = {
  impressions: z.number().int(),
  viewable: z.number().int(),
  clicks: z.number().int(),
  invalid_clicks: z.number().int(),
  ctr: z.number(),
};

/**
 * GET /api/campaigns/:id/impressions: the campaign's impressions by widget (and its site) over the range,
 * from the rollups, most impressions first. With `sites_hidden` there are no rows, only the total.
 */
export const impressionRow = z.object({
  /** The impressions bought through the exchange (RTB partners' billing notices): no site or widget. */
  exchange: z.boolean(),
  site_id: z.string().nullable(),
  site_title: z.string().nullable(),
  widget_id: z.string().nullable(),
  widget_title: z.string().nullable(),
  ...counters,
  spent: moneyTotal,
});
export const impressionsPage = clicksPage.extend({
  items: z.array(impressionRow),
  totals: z.object({ ...counters, spent: moneyTotal }),
});
export type ImpressionsPage = z.infer<typeof impressionsPage>;

/**
 * GET /api/{campaigns|sites}/:id/geoclicks: clicks by country (ISO code, 'unknown') and, where known, city,
 * most clicks first. `money` is what the campaign spent (campaigns) or the site earned (sites).
 */
export const geoClickRow = z.object({
  country: z.string(),
  city: z.string(),
  clicks: z.number().int(),
  invalid_clicks: z.number().int(),
  money: moneyTotal,
});
export const geoClicksPage = z.object({
  items: z.array(geoClickRow),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  ...availableAt,
});
export type GeoClicksPage = z.infer<typeof geoClicksPage>;

/** How click sources are grouped: the referring domain, the referring page, or the widget clicked. */
export const clickSourceGroups = ['domain', 'page', 'widget'] as const;
export type ClickSourceGroup = (typeof clickSourceGroups)[number];

/**
 * GET /api/sites/:id/click-sources?group=domain|page|widget: where the site's clicks came from, from the
 * table a job refreshes every 20 minutes (`refreshed_at`, null before its first run). The referring page
 * is what the visitor's browser sent with the click ('' when it sent none: the row says unknown).
 */
export const clickSourcesQuery = z
  .object({ ...rangeShape, ...pageQuery.shape, group: z.enum(clickSourceGroups).default('domain') })
  .superRefine(checkRange);
export type ClickSourcesQuery = z.output<typeof clickSourcesQuery>;
export const clickSourceRow = z.object({
  key: z.string(),
  widget_title: z.string().nullable(),
  clicks: z.number().int(),
  invalid_clicks: z.number().int(),
  earned: moneyTotal,
});
export const clickSourcesPage = geoClicksPage.extend({
  items: z.array(clickSourceRow),
  refreshed_at: z.string().nullable(),
});
export type ClickSourcesPage = z.infer<typeof clickSourcesPage>;

/**
 * GET /api/sites/:id/impression-rate: per widget, by day of the range and over it, the impression rate
 * (`impression_rate`: answers drawn, `rendered`, per widget request, `requests`, in percent; an answer is
 * drawn when the embed script reports it with its impression beacon) and the viewable rate (`rate`:
 * viewable per counted ad impression, in percent). Rates are 0 without a denominator.
 */
const rateValues = {
  requests: z.number().int(),
  rendered: z.number().int(),
  impression_rate: z.number(),
  impressions: z.number().int(),
  viewable: z.number().int(),
  rate: z.number(),
};
export const impressionRateRow = z.object({
  widget_id: z.string(),
  widget_title: z.string(),
  ...rateValues,
  days: z.array(z.object({ day: z.string(), ...rateValues })),
});
export const impressionRatePage = geoClicksPage.extend({ items: z.array(impressionRateRow) });
export type ImpressionRatePage = z.infer<typeof impressionRatePage>;

/** How top articles can be sorted. */
export const topArticleSorts = ['impressions', 'clicks', 'ctr', 'title'] as const;
export type TopArticleSort = (typeof topArticleSorts)[number];

/**
 * GET /api/sites/:id/toparticles: the site's own articles (parsed materials) shown in its widgets over the
 * range, with their impressions (answers drawn with them), clicks (the embed script reports a click on the
 * article's link) and CTR in percent; a page of them sorted by `sort` (default impressions) and `order`.
 */
export const topArticlesQuery = z
  .object({
    ...rangeShape,
    ...pageQuery.shape,
    sort: z.enum(topArticleSorts).default('impressions'),
    order: z.enum(['asc', 'desc']).default('desc'),
  })
  .superRefine(checkRange);
export type TopArticlesQuery = z.output<typeof topArticlesQuery>;

/**
 * The files of the aggregate lists (`…/export` beside GET /api/{campaigns|sites}/:id/geoclicks,
 * /api/sites/:id/click-sources and /api/sites/:id/toparticles): the list's query without paging, and the
 * format; every row of the range.
 */
export const geoClicksFileQuery = z
  .object({ ...rangeShape, ...statsFileQuery.shape })
  .superRefine(checkRange);
export const clickSourcesFileQuery = z
  .object({ ...rangeShape, group: z.enum(clickSourceGroups).default('domain'), ...statsFileQuery.shape })
  .superRefine(checkRange);
export const topArticlesFileQuery = z
  .object({
    ...rangeShape,
    sort: z.enum(topArticleSorts).default('impressions'),
    order: z.enum(['asc', 'desc']).default('desc'),
    ...statsFileQuery.shape,
  })
  .superRefine(checkRange);
export const topArticleRow = z.object({
  material_id: z.string(),
  /** null when the article is no longer kept (expired and removed). */
  title: z.string().nullable(),
  url: z.string().nullable(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  ctr: z.number(),
});
export const topArticlesPage = geoClicksPage.extend({
  items: z.array(topArticleRow),
  totals: z.object({ impressions: z.number().int(), clicks: z.number().int(), ctr: z.number() }),
});
export type TopArticlesPage = z.infer<typeof topArticlesPage>;
