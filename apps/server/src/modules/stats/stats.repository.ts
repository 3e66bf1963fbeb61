import { and, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { rollups } from '../../db/schema/index.ts';

/** The entity a statistics query is about: the rollups' id column it filters on. */
export type StatsSubject = 'campaign' | 'banner' | 'site' | 'widget';

/** One group of a statistics query: the sums of its rollups (money in micro-units). */
export interface StatsSums {
  /** The group's key: for `group: 'day'` the UTC day 'YYYY-MM-DD'. */
  key: string;
  impressions: number;
  viewable: number;
  clicks: number;
  invalidClicks: number;
  conversions: number;
  spent: bigint;
  earned: bigint;
}

export interface StatsQuerySpec {
  subject: StatsSubject;
  id: number;
  /** UTC days, both included. */
  from: string;
  to: string;
  group: 'day';
}

/**
 * The statistics store: the one narrow interface statistics read through (umami's `runQuery` idea), so a
 * ClickHouse implementation can replace this PostgreSQL one without touching the service or the routes.
 * `query` answers only the groups that have rollups, in key order; the caller fills the gaps.
 */
export interface StatsStore {
  query(spec: StatsQuerySpec): Promise<StatsSums[]>;
}

const idColumn = {
  campaign: rollups.campaignId,
  banner: rollups.bannerId,
  site: rollups.siteId,
  widget: rollups.widgetId,
} as const;

/** Sums as text: bigint sums of bigint columns are numeric in PostgreSQL, and drivers differ on int8. */
const total = (column: AnyPgColumn) => sql<string>`coalesce(sum(${column}), 0)::text`;

/** The hourly rollups table of PostgreSQL (or PGlite) as the statistics store. */
export function createStatsRepository(db: Db): StatsStore {
  return {
    async query({ subject, id, from, to }) {
      const day = sql<string>`to_char(${rollups.hour} at time zone 'UTC', 'YYYY-MM-DD')`;
      const rows = await db
        .select({
          key: day,
          impressions: total(rollups.impressions),
          viewable: total(rollups.viewable),
          clicks: total(rollups.clicks),
          invalidClicks: total(rollups.invalidClicks),
          conversions: total(rollups.conversions),
          spent: total(rollups.spent),
          earned: total(rollups.earned),
        })
        .from(rollups)
        .where(
          and(
            sql`${idColumn[subject]} = ${id}`,
            // UTC day boundaries computed by the database, so any valid date is a valid bound
            sql`${rollups.hour} >= (${from}::date)::timestamp at time zone 'UTC'`,
            sql`${rollups.hour} < (${to}::date + 1)::timestamp at time zone 'UTC'`,
          ),
        )
        .groupBy(day)
        .orderBy(day);
      return rows.map((r) => ({
        key: r.key,
        impressions: Number(r.impressions),
        viewable: Number(r.viewable),
        clicks: Number(r.clicks),
        invalidClicks: Number(r.invalidClicks),
        conversions: Number(r.conversions),
        spent: BigInt(r.spent),
        earned: BigInt(r.earned),
      }));
    },
  };
}
