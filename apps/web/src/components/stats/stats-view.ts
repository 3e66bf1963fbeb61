import { addDays, STATS_MAX_DAYS, type StatsGroup, statsSortColumns } from '@adp/contract';
import { type DayRange, isPeriod, type Period, periodRange } from './stats-ranges.ts';

/** The columns of a statistics table: the API's sort columns and vCPM, computed by the dashboard. */
export const tableSortColumns = [...statsSortColumns, 'vcpm'] as const;
export type TableSortColumn = (typeof tableSortColumns)[number];
export type SortOrder = 'asc' | 'desc';
export const chartMetrics = ['impressions', 'clicks', 'money'] as const;
export type ChartMetric = (typeof chartMetrics)[number];

/** What a statistics screen shows; kept in the URL query so a reload or a shared link shows the same. */
export interface StatsView {
  period: Period;
  /** Only for `custom`: the chosen days ('YYYY-MM-DD'). */
  from?: string;
  to?: string;
  group: StatsGroup;
  sort?: TableSortColumn;
  order?: SortOrder;
  chart: ChartMetric;
}

export const DEFAULT_PERIOD = 'last_7_days' satisfies Period;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day 'YYYY-MM-DD' from 1970 on (2026-02-30 is not one). */
function isDay(v: string | null): v is string {
  if (v === null || !dayPattern.test(v) || v < '1970-01-01') return false;
  const date = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
}
const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  (allowed as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

/**
 * The view a URL query names; anything missing, unknown or out of bounds falls back to the defaults:
 * the last 7 days, the first of `groups`, the server's order, the impressions chart. A custom range
 * needs both days, `from` not after `to` and at most STATS_MAX_DAYS days.
 * @example parseView(new URLSearchParams('period=yesterday&group=country'), ['day', 'country'])
 */
export function parseView(params: URLSearchParams, groups: readonly StatsGroup[]): StatsView {
  const from = params.get('from');
  const to = params.get('to');
  const named = params.get('period');
  const customOk = isDay(from) && isDay(to) && from <= to && from >= addDays(to, -(STATS_MAX_DAYS - 1));
  let period: Period = isPeriod(named) ? named : DEFAULT_PERIOD;
  if (period === 'custom' || (!named && (from || to))) period = customOk ? 'custom' : DEFAULT_PERIOD;
  const view: StatsView = {
    period,
    group: pick(params.get('group'), groups) ?? groups[0] ?? 'day',
    chart: pick(params.get('chart'), chartMetrics) ?? 'impressions',
  };
  if (period === 'custom' && customOk) {
    view.from = from;
    view.to = to;
  }
  const sort = pick(params.get('sort'), tableSortColumns);
  if (sort) {
    view.sort = sort;
    view.order = pick(params.get('order'), ['asc', 'desc'] as const) ?? defaultOrder(sort);
  }
  return view;
}

/**
 * `params` with the view written into it (other keys kept; defaults left out, so a plain link stays
 * short).
 */
export function writeView(params: URLSearchParams, view: StatsView, groups: readonly StatsGroup[]) {
  const next = new URLSearchParams(params);
  for (const key of ['period', 'from', 'to', 'group', 'sort', 'order', 'chart']) next.delete(key);
  if (view.period === 'custom' && view.from && view.to) {
    next.set('from', view.from);
    next.set('to', view.to);
  } else if (view.period !== DEFAULT_PERIOD && view.period !== 'custom') next.set('period', view.period);
  if (view.group !== groups[0]) next.set('group', view.group);
  if (view.sort) {
    next.set('sort', view.sort);
    next.set('order', view.order ?? defaultOrder(view.sort));
  }
  if (view.chart !== 'impressions') next.set('chart', view.chart);
  return next;
}

/** Names sort A to Z first, numbers largest first. */
export const defaultOrder = (column: TableSortColumn): SortOrder => (column === 'key' ? 'asc' : 'desc');

/** A click on a column header: the other direction of the same column, or the new column's first. */
export function nextSort(view: StatsView, column: TableSortColumn): Pick<StatsView, 'sort' | 'order'> {
  if (view.sort === column) return { sort: column, order: view.order === 'asc' ? 'desc' : 'asc' };
  return { sort: column, order: defaultOrder(column) };
}

/** The days the view asks for at `now` in `tz`. */
export function viewRange(view: StatsView, now: Date, tz: string): DayRange {
  if (view.period === 'custom' && view.from && view.to) return { from: view.from, to: view.to };
  return periodRange(view.period === 'custom' ? DEFAULT_PERIOD : view.period, now, tz);
}

/** Over time, an hourly chart for ranges of up to two days, else a daily one. */
export const timeGroup = (range: DayRange): 'day' | 'hour' =>
  addDays(range.from, 1) >= range.to ? 'hour' : 'day';
