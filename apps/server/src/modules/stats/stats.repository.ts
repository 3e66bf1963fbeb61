import { and, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { campaigns, platformLedger, rollups, sites, users } from '../../db/schema/index.ts';
import { createStatsReportRepository, type StatsReportStore } from './stats-report.repository.ts';

/** The entity a statistics query is about: the rollups' id column it filters on. */
export type StatsSubject = 'campaign' | 'banner' | 'site' | 'widget';

/**
 * What the store groups by: the UTC `hour` (the service turns hours into the days and hours of the
 * user's timezone, so the store never needs timezone rules) or one dimension of the rollups.
 */
export type StatsDimension =
  | 'hour'
  | 'country'
  | 'city'
  | 'device'
  | 'os'
  | 'browser'
  | 'site'
  | 'widget'
  | 'creative'
  | 'campaign'
  /** Country and city: `<ISO code>|<city>` ('' for an unknown one). */
  | 'geo';

/** One group of a statistics query: the sums of its rollups (money in micro-units). */
export interface StatsSums {
  /**
   * The group's key: for `hour` the hour's start in seconds since the epoch; for `country`, `city`,
   * `device`, `os`, `browser` the rollups' value ('' when unknown); for `site`, `widget`, `creative`, `campaign` the
   * id ('0' for none).
   */
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
  /** The hours from `from` (included) to `to` (excluded). */
  from: Date;
  to: Date;
  group: StatsDimension;
}

/**
 * Which rollups a `sum` reads: for each id column named, only the rows whose id is in the list (an empty
 * list matches nothing); the columns named are all required (AND). No column named: every rollup.
 */
export type StatsFilter = Partial<Record<StatsSubject, readonly number[]>>;

/**
 * Every entity of one user on one side: its campaigns (`advertiser`) or its sites (`publisher`). The store
 * resolves it itself (no id list through the caller), so a user with thousands of campaigns is one query.
 */
export interface StatsOwner {
  userId: number;
  side: 'advertiser' | 'publisher';
}

export interface StatsSumSpec {
  filter: StatsFilter;
  /** Also only the rollups of this user's campaigns or sites. */
  owner?: StatsOwner | undefined;
  /** The hours from `from` (included) to `to` (excluded). */
  from: Date;
  to: Date;
  group: StatsDimension;
}

/**
 * The statistics store: the one narrow interface statistics read through (umami's `runQuery` idea), so a
 * ClickHouse implementation can replace this PostgreSQL one without touching the service or the routes.
 * `query` answers only the groups that have rollups, in no particular order; the caller fills the gaps
 * and sorts. Its report side (`report`, `reportCount`: paged rows per site, widget or campaign and day, for
 * the admin reports) is in stats-report.repository.ts.
 */
export interface StatsStore extends StatsReportStore {
  query(spec: StatsQuerySpec): Promise<StatsSums[]>;
  /** `query` over any set of campaigns, creatives, sites and widgets (the second stats tree, dbd, …). */
  sum(spec: StatsSumSpec): Promise<StatsSums[]>;
  /**
   * The platform's own income (micro-units) per UTC hour from `from` (included) to `to` (excluded), keyed
   * like `hour` groups; hours without income are left out.
   */
  income(spec: { from: Date; to: Date }): Promise<{ key: string; sum: bigint }[]>;
}

const idColumn = {
  campaign: rollups.campaignId,
  banner: rollups.bannerId,
  site: rollups.siteId,
  widget: rollups.widgetId,
} as const;

const groupKey = {
  hour: sql<string>`extract(epoch from ${rollups.hour})::bigint::text`,
  country: sql<string>`${rollups.country}`,
  city: sql<string>`${rollups.city}`,
  device: sql<string>`${rollups.device}`,
  os: sql<string>`${rollups.os}`,
  browser: sql<string>`${rollups.browser}`,
  site: sql<string>`${rollups.siteId}::text`,
  widget: sql<string>`${rollups.widgetId}::text`,
  creative: sql<string>`${rollups.bannerId}::text`,
  campaign: sql<string>`${rollups.campaignId}::text`,
  geo: sql<string>`${rollups.country} || '|' || ${rollups.city}`,
} as const satisfies Record<StatsDimension, unknown>;

/** Sums as text: bigint sums of bigint columns are numeric in PostgreSQL, and drivers differ on int8. */
const total = (column: AnyPgColumn) => sql<string>`coalesce(sum(${column}), 0)::text`;

/** An instant as a timestamptz, through epoch seconds: JS prints years after 9999 in a form SQL won't read. */
const instant = (date: Date) => sql`to_timestamp(${date.getTime() / 1000}::double precision)`;

/** An id list as one array parameter: no limit on its length (a bind parameter per id would have one). */
const anyOf = (column: AnyPgColumn, ids: readonly number[]) =>
  sql`${column} = any(${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::bigint[])`;

/** The hourly rollups table of PostgreSQL (or PGlite) as the statistics store. */
export function createStatsRepository(db: Db): StatsStore {
  async function sums(where: SQL[], from: Date, to: Date, group: StatsDimension): Promise<StatsSums[]> {
    const key = groupKey[group];
    const rows = await db
      .select({
        key,
        impressions: total(rollups.impressions),
        viewable: total(rollups.viewable),
        clicks: total(rollups.clicks),
        invalidClicks: total(rollups.invalidClicks),
        conversions: total(rollups.conversions),
        spent: total(rollups.spent),
        earned: total(rollups.earned),
      })
      .from(rollups)
      .where(and(...where, sql`${rollups.hour} >= ${instant(from)}`, sql`${rollups.hour} < ${instant(to)}`))
      .groupBy(key);
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
  }

  return {
    ...createStatsReportRepository(db),
    query: ({ subject, id, from, to, group }) => sums([sql`${idColumn[subject]} = ${id}`], from, to, group),
    async sum({ filter, owner, from, to, group }) {
      const where: SQL[] = [];
      if (owner) {
        // the owner's entities as a subquery: the planner reads them through the campaign or site index
        where.push(
          owner.side === 'advertiser'
            ? sql`${rollups.campaignId} in (select ${campaigns.id} from ${campaigns} where ${campaigns.userId} = ${owner.userId})`
            : sql`${rollups.siteId} in (select ${sites.id} from ${sites} where ${sites.userId} = ${owner.userId})`,
        );
      }
      for (const [subject, ids] of Object.entries(filter) as [StatsSubject, readonly number[]][]) {
        if (ids.length === 0) return [];
        where.push(ids.length === 1 ? sql`${idColumn[subject]} = ${ids[0]}` : anyOf(idColumn[subject], ids));
      }
      return sums(where, from, to, group);
    },
    async income({ from, to }) {
      // whole UTC hours by arithmetic: date_trunc would truncate in the session's timezone
      const hour = sql<string>`(floor(extract(epoch from ${platformLedger.createdAt}) / 3600) * 3600)::bigint::text`;
      const rows = await db
        .select({ key: hour, sum: total(platformLedger.sum) })
        .from(platformLedger)
        .where(
          and(
            sql`${platformLedger.createdAt} >= ${instant(from)}`,
            sql`${platformLedger.createdAt} < ${instant(to)}`,
          ),
        )
        .groupBy(hour);
      return rows.map((r) => ({ key: r.key, sum: BigInt(r.sum) }));
    },
  };
}

/**
 * What the statistics service asks about users besides the rollups (users stay in PostgreSQL whatever
 * store the rollups move to): when a user's statistics start to show (the 24-hour rule).
 */
export function createStatsOwnersRepository(db: Db) {
  return {
    /** `users.stats_available_at` of the user (null: no delay, or no such user). */
    async availableAt(userId: number): Promise<Date | null> {
      const [row] = await db
        .select({ at: users.statsAvailableAt })
        .from(users)
        .where(sql`${users.id} = ${userId}`);
      return row?.at ?? null;
    },
  };
}
export type StatsOwners = ReturnType<typeof createStatsOwnersRepository>;
