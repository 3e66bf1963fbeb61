import type { StatsAnswer, StatsValues } from '@adp/contract';
import type { SortOrder, TableSortColumn } from './stats-view.ts';

export type StatsRow = StatsAnswer['rows'][number];
/** Whose money a screen shows: an advertiser's spend, a publisher's earnings, or both (platform). */
export type MoneySide = 'spent' | 'earned' | 'both';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const moneyOf = (v: StatsValues, side: MoneySide) => (side === 'earned' ? v.earned : v.spent);

/**
 * vCPM: the money per 1000 viewable impressions (the API answers eCPM per 1000 impressions; this one is
 * the dashboard's), 0 without viewable impressions. The platform view counts the spend.
 * @example vcpm({ ...zero, viewable: 2000, spent: 3 }, 'spent') // 1.5
 */
export function vcpm(v: StatsValues, side: MoneySide): number {
  return v.viewable ? round((moneyOf(v, side) * 1000) / v.viewable, 6) : 0;
}

const sortValue = (row: StatsRow, column: TableSortColumn, side: MoneySide): number | string =>
  column === 'vcpm' ? vcpm(row, side) : row[column];

/**
 * Rows in the order of a column: numbers by value, keys as text (days and hours sort as text too);
 * ties go by key, as the API orders them. The API sorts every column but vCPM; sorting again here
 * keeps the table right for vCPM and for the rows the dashboard leaves out ("24 hours").
 */
export function sortRows(
  rows: readonly StatsRow[],
  column: TableSortColumn | undefined,
  order: SortOrder | undefined,
  side: MoneySide,
): StatsRow[] {
  if (!column) return [...rows];
  const sign = order === 'desc' ? -1 : 1;
  const byKey = (a: StatsRow, b: StatsRow) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return [...rows].sort((a, b) => {
    const x = sortValue(a, column, side);
    const y = sortValue(b, column, side);
    const cmp =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : x > y ? 1 : 0;
    return cmp ? sign * cmp : byKey(a, b);
  });
}

export const zeroValues: StatsValues = {
  impressions: 0,
  viewable: 0,
  clicks: 0,
  invalid_clicks: 0,
  conversions: 0,
  ctr: 0,
  ecpm: 0,
  spent: 0,
  earned: 0,
};

/** The total of some rows, with CTR and eCPM computed like the API's (2 decimals, money per 1000). */
export function sumRows(rows: readonly StatsValues[], side: MoneySide): StatsValues {
  const total = { ...zeroValues };
  for (const r of rows) {
    total.impressions += r.impressions;
    total.viewable += r.viewable;
    total.clicks += r.clicks;
    total.invalid_clicks += r.invalid_clicks;
    total.conversions += r.conversions;
    total.spent += r.spent;
    total.earned += r.earned;
  }
  // the platform's revenue (admins): summed where the rows carry it
  if (rows.some((r) => r.revenue !== undefined))
    total.revenue = round(
      rows.reduce((sum, r) => sum + (r.revenue ?? 0), 0),
      6,
    );
  total.spent = round(total.spent, 6);
  total.earned = round(total.earned, 6);
  total.ctr = total.impressions ? round((total.clicks / total.impressions) * 100, 2) : 0;
  total.ecpm = total.impressions ? round((moneyOf(total, side) * 1000) / total.impressions, 6) : 0;
  return total;
}

/** Whether nothing happened: no counts and no money. */
export const isEmptyValues = (v: StatsValues) =>
  !v.impressions && !v.viewable && !v.clicks && !v.invalid_clicks && !v.conversions && !v.spent && !v.earned;

/**
 * The rows and total a screen shows: an hourly answer of "24 hours" without the hours before `since`
 * (and its total summed again), sorted by the view's column.
 */
export function tableOf(
  answer: Pick<StatsAnswer, 'rows' | 'total'>,
  opts: {
    since?: Date | undefined;
    hourly: boolean;
    sort?: TableSortColumn;
    order?: SortOrder;
    side: MoneySide;
  },
): { rows: StatsRow[]; total: StatsValues } {
  let { rows, total } = answer;
  const since = opts.since;
  if (since && opts.hourly) {
    // an hour's key is its start with the offset (2026-03-01T13:00:00+01:00): kept when it ends after `since`
    rows = rows.filter((r) => Date.parse(r.key) + 3_600_000 > since.getTime());
    total = sumRows(rows, opts.side);
  }
  return { rows: sortRows(rows, opts.sort, opts.order, opts.side), total };
}
