import { z } from 'zod';

/**
 * The statistics files: every statistics GET a screen shows (GET /api/stats/{campaigns|banners|sites|
 * widgets}/:id, /stats/users/:id, /stats/platform, the rtb-stats of campaigns and creatives, and the second
 * tree /api/stats2/{subject}/{breakdown}) has an `/export` sibling that takes the same query and `format`
 * and answers the same rows as a file (`Content-Disposition: attachment; filename="…"`): one header row of
 * column keys (statsFileColumns), a row per answer row in the answer's order, and a last row `total`.
 * The same permissions as the JSON call (an unknown or invisible id is the same 404); the 24-hour rule
 * gives a file with the header and a zero total. The second tree's file has every row (no paging).
 * @example GET /api/stats/campaigns/5/export?from=2026-03-01&to=2026-03-07&group=country&tz=Europe/Berlin&format=csv
 */
export const statsFileFormats = ['csv', 'xlsx'] as const;
export type StatsFileFormat = (typeof statsFileFormats)[number];
export const statsFileQuery = z.object({ format: z.enum(statsFileFormats) });

/** Whose money a file shows: an advertiser's spend, a publisher's earnings, or both and revenue (admins). */
export type StatsFileSide = 'spent' | 'earned' | 'platform';

/**
 * The columns of a statistics file after the key column (named after the breakdown: `day`, `country`…),
 * in the order of the dashboard's table. Money is in currency units (as the JSON answer); `vcpm` is the
 * money per 1000 viewable impressions (0 without any).
 */
export function statsFileColumns(side: StatsFileSide): string[] {
  const money = side === 'platform' ? ['spent', 'earned', 'revenue'] : [side];
  return [
    'impressions',
    'viewable',
    'clicks',
    'invalid_clicks',
    'ctr',
    ...money,
    'ecpm',
    'vcpm',
    'conversions',
  ];
}

/** The name of a statistics file: `stats-campaign-5-country-2026-03-01-2026-03-07.csv`. */
export function statsFileName(
  what: string,
  group: string,
  range: { from: string; to: string },
  format: StatsFileFormat,
): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-');
  return `stats-${safe(what)}-${safe(group)}-${range.from}-${range.to}.${format}`;
}
