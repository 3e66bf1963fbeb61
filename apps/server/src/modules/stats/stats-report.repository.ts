import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { rollups, rollupsCampaignHours, rollupsSiteHours } from '../../db/schema/index.ts';

/** What one row of a statistics report is about: a site, a widget or a campaign (an id of the rollups). */
export type StatsReportBy = 'site' | 'widget' | 'campaign';

export interface StatsReportSpec {
  by: StatsReportBy;
  /** A row per day of `tz` and id (ordered by day, then id), or one per id for the whole range (by id). */
  perDay: boolean;
  /** An IANA timezone (already validated): the days rows are grouped by. */
  tz: string;
  /** The hours from `from` (included) to `to` (excluded). */
  from: Date;
  to: Date;
  /** Only the rollups of these sites / campaigns (an empty list matches nothing); undefined: any. */
  siteIds?: readonly number[] | undefined;
  campaignIds?: readonly number[] | undefined;
  /** Keyset paging: only ids above this one (exports read a day, or the range, in id order this way). */
  afterId?: number | undefined;
  offset?: number | undefined;
  limit: number;
}

/** One report row: its day (null for the whole range), its id and the sums (money in micro-units). */
export interface StatsReportRow {
  day: string | null;
  id: number;
  impressions: number;
  viewable: number;
  clicks: number;
  invalidClicks: number;
  conversions: number;
  spent: bigint;
  earned: bigint;
}

/**
 * The statistics store's report side: rows per site, widget or campaign (and per day of a timezone),
 * paged, over any of them at once. Like StatsStore it is the only reader of the rollups for these
 * answers, so a ClickHouse store can implement both (`toDate(hour, tz)` for the days). Ids 0 ("none")
 * are left out.
 */
export interface StatsReportStore {
  report(spec: StatsReportSpec): Promise<StatsReportRow[]>;
  /** How many rows `report` has for the spec without paging. */
  reportCount(spec: Omit<StatsReportSpec, 'limit' | 'offset' | 'afterId'>): Promise<number>;
}

/** The columns a report reads of one rollup table (every table has the same sums). */
interface ReportSource {
  table: typeof rollups | typeof rollupsCampaignHours | typeof rollupsSiteHours;
  hour: AnyPgColumn;
  ids: Partial<Record<StatsReportBy, AnyPgColumn>>;
}

/**
 * The tables a report can read, smallest first (as the statistics store chooses, stats.repository.ts):
 * the hourly campaign totals answer rows per campaign filtered by campaigns, the hourly site totals rows
 * per site or widget filtered by sites; `rollups` answers everything (a campaign report filtered by
 * sites, a site report filtered by campaigns).
 */
const sources: readonly ReportSource[] = [
  {
    table: rollupsCampaignHours,
    hour: rollupsCampaignHours.hour,
    ids: { campaign: rollupsCampaignHours.campaignId },
  },
  {
    table: rollupsSiteHours,
    hour: rollupsSiteHours.hour,
    ids: { site: rollupsSiteHours.siteId, widget: rollupsSiteHours.widgetId },
  },
  {
    table: rollups,
    hour: rollups.hour,
    ids: { site: rollups.siteId, widget: rollups.widgetId, campaign: rollups.campaignId },
  },
];

/** The smallest table with the report's column and the columns of its filters. */
export function reportSourceOf(
  spec: Pick<StatsReportSpec, 'by' | 'siteIds' | 'campaignIds'>,
): ReportSource & { column: AnyPgColumn } {
  for (const source of sources) {
    const column = source.ids[spec.by];
    if (!column) continue;
    if (spec.siteIds && !source.ids.site) continue;
    if (spec.campaignIds && !source.ids.campaign) continue;
    return { ...source, column };
  }
  throw new Error(`no rollup table answers a report by ${spec.by}`);
}

const total = (column: AnyPgColumn) => sql<string>`coalesce(sum(${column}), 0)::text`;
const instant = (date: Date) => sql`to_timestamp(${date.getTime() / 1000}::double precision)`;
const anyOf = (column: AnyPgColumn, ids: readonly number[]) =>
  sql`${column} = any(${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::bigint[])`;

function whereOf(
  source: ReturnType<typeof reportSourceOf>,
  spec: Omit<StatsReportSpec, 'limit' | 'offset'>,
): SQL {
  const { column, ids } = source;
  const parts: SQL[] = [
    sql`${source.hour} >= ${instant(spec.from)}`,
    sql`${source.hour} < ${instant(spec.to)}`,
    sql`${column} <> 0`,
  ];
  if (spec.siteIds && ids.site) parts.push(anyOf(ids.site, spec.siteIds));
  if (spec.campaignIds && ids.campaign) parts.push(anyOf(ids.campaign, spec.campaignIds));
  if (spec.afterId !== undefined) parts.push(sql`${column} > ${spec.afterId}`);
  return sql.join(parts, sql` and `);
}

/** The day of `tz` an hour of the rollups starts in, as 'YYYY-MM-DD'. */
const dayOf = (hour: AnyPgColumn, tz: string) => sql`to_char(${hour} at time zone ${tz}, 'YYYY-MM-DD')`;

/** The rollups of PostgreSQL (or PGlite) as the report store. */
export function createStatsReportRepository(db: Db): StatsReportStore {
  return {
    async report(spec) {
      const source = reportSourceOf(spec);
      const { table, column } = source;
      const day = spec.perDay ? dayOf(source.hour, spec.tz) : sql`null::text`;
      // ids in numeric order (as text '10' would come before '9'), the order the keyset paging reads on
      const groupBy = spec.perDay ? sql`1, ${column}` : sql`${column}`;
      const orderBy = groupBy;
      const result = await db.execute(sql`
        select ${day} as day, ${column}::text as id,
          ${total(table.impressions)} as impressions, ${total(table.viewable)} as viewable,
          ${total(table.clicks)} as clicks, ${total(table.invalidClicks)} as invalid_clicks,
          ${total(table.conversions)} as conversions, ${total(table.spent)} as spent,
          ${total(table.earned)} as earned
        from ${table}
        where ${whereOf(source, spec)}
        group by ${groupBy}
        order by ${orderBy}
        limit ${spec.limit} offset ${spec.offset ?? 0}`);
      return rowsOf<{
        day: string | null;
        id: string;
        impressions: string;
        viewable: string;
        clicks: string;
        invalid_clicks: string;
        conversions: string;
        spent: string;
        earned: string;
      }>(result).map((r) => ({
        day: r.day,
        id: Number(r.id),
        impressions: Number(r.impressions),
        viewable: Number(r.viewable),
        clicks: Number(r.clicks),
        invalidClicks: Number(r.invalid_clicks),
        conversions: Number(r.conversions),
        spent: BigInt(r.spent),
        earned: BigInt(r.earned),
      }));
    },
    async reportCount(spec) {
      const source = reportSourceOf(spec);
      const { table, column } = source;
      const key = spec.perDay ? sql`${dayOf(source.hour, spec.tz)}, ${column}` : sql`${column}`;
      const result = await db.execute(
        sql`select count(*)::text as n from (select 1 from ${table} where ${whereOf(source, spec)} group by ${key}) g`,
      );
      return Number(rowsOf<{ n: string }>(result)[0]?.n ?? 0);
    },
  };
}
