import { and, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  campaigns,
  platformLedger,
  rollupDims,
  rollups,
  rollupsCampaignDays,
  rollupsCampaignHours,
  rollupsSiteDays,
  rollupsSiteHours,
  sites,
  users,
} from '../../db/schema/index.ts';
import { createStatsReportRepository, type StatsReportStore } from './stats-report.repository.ts';

/** The entity a statistics query is about: the rollups' id column it filters on. */
export type StatsSubject = 'campaign' | 'banner' | 'site' | 'widget';

/**
 * What the store groups by: the UTC `hour` (the service turns hours into the days and hours of the
 * user's timezone, so the store never needs timezone rules), the UTC `day` (the days of a timezone whose
 * days are UTC's over the range: the daily tables answer it) or one dimension of the rollups.
 */
export type StatsDimension =
  | 'hour'
  | 'day'
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
   * The group's key: for `hour` the hour's start in seconds since the epoch, for `day` the UTC day's; for `country`, `city`,
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
  /** Only the publisher's sites whose statistics it may see (`stats_visible`: not hidden by an admin). */
  visibleOnly?: boolean | undefined;
  /** Only the publisher's sites with the advanced statistics (`advanced_stats`: what ran on them). */
  advancedOnly?: boolean | undefined;
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

/** The sums of one row of any rollup table, as the union of the store's reads names them. */
const sumColumns = ['impressions', 'viewable', 'clicks', 'invalid_clicks', 'conversions', 'spent', 'earned'];

/** Sums as text: bigint sums of bigint columns are numeric in PostgreSQL, and drivers differ on int8. */
const total = (column: AnyPgColumn) => sql<string>`coalesce(sum(${column}), 0)::text`;

/** An instant as a timestamptz, through epoch seconds: JS prints years after 9999 in a form SQL won't read. */
const instant = (date: Date) => sql`to_timestamp(${date.getTime() / 1000}::double precision)`;

/** An id list as one array parameter: no limit on its length (a bind parameter per id would have one). */
const anyOf = (column: AnyPgColumn, ids: readonly number[]) =>
  sql`${column} = any(${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::bigint[])`;

const epoch = (column: AnyPgColumn) => sql<string>`extract(epoch from ${column})::bigint::text`;

/** The start of the UTC day of an hour, in epoch seconds (by arithmetic: no session timezone involved). */
const utcDay = (column: AnyPgColumn) =>
  sql<string>`(floor(extract(epoch from ${column}) / 86400) * 86400)::bigint::text`;

/**
 * One table the store can read: its id columns (a filter or owner on any other id cannot be answered
 * from it) and the groups it can answer. `rollups` answers everything; the coarser ones (written with it,
 * schema/delivery.ts) answer less from far fewer rows.
 */
interface Source {
  ids: Partial<Record<StatsSubject, AnyPgColumn>>;
  groups: Partial<Record<StatsDimension, SQL>>;
}

const hourly: Source = {
  ids: {
    campaign: rollups.campaignId,
    banner: rollups.bannerId,
    site: rollups.siteId,
    widget: rollups.widgetId,
  },
  groups: {
    hour: epoch(rollups.hour),
    day: utcDay(rollups.hour),
    country: sql`${rollups.country}`,
    city: sql`${rollups.city}`,
    device: sql`${rollups.device}`,
    os: sql`${rollups.os}`,
    browser: sql`${rollups.browser}`,
    site: sql`${rollups.siteId}::text`,
    widget: sql`${rollups.widgetId}::text`,
    creative: sql`${rollups.bannerId}::text`,
    campaign: sql`${rollups.campaignId}::text`,
    geo: sql`${rollups.country} || '|' || ${rollups.city}`,
  },
};

const campaignHours: Source = {
  ids: { campaign: rollupsCampaignHours.campaignId, banner: rollupsCampaignHours.bannerId },
  groups: {
    hour: epoch(rollupsCampaignHours.hour),
    day: utcDay(rollupsCampaignHours.hour),
    creative: sql`${rollupsCampaignHours.bannerId}::text`,
    campaign: sql`${rollupsCampaignHours.campaignId}::text`,
  },
};

const siteHours: Source = {
  ids: { site: rollupsSiteHours.siteId, widget: rollupsSiteHours.widgetId },
  groups: {
    hour: epoch(rollupsSiteHours.hour),
    day: utcDay(rollupsSiteHours.hour),
    site: sql`${rollupsSiteHours.siteId}::text`,
    widget: sql`${rollupsSiteHours.widgetId}::text`,
  },
};

type DimGroup = keyof typeof rollupDims;
const isDim = (group: StatsDimension): group is DimGroup => group in rollupDims;

/** The daily tables: one value of a dimension a row (`dim`), so every dimension's group is `value`. */
const campaignDays = { ids: { campaign: rollupsCampaignDays.campaignId }, t: rollupsCampaignDays };
const siteDays = { ids: { site: rollupsSiteDays.siteId }, t: rollupsSiteDays };

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What a read filters on: id lists by subject (none empty) and maybe an owner. */
interface Read {
  filter: [StatsSubject, readonly number[]][];
  owner?: StatsOwner | undefined;
  group: StatsDimension;
}

/** The subjects a read filters on, the owner's included (an advertiser's campaigns, a publisher's sites). */
function subjectsOf(read: Read): Set<StatsSubject> {
  const subjects = new Set(read.filter.map(([subject]) => subject));
  if (read.owner) subjects.add(read.owner.side === 'advertiser' ? 'campaign' : 'site');
  return subjects;
}

const answers = (ids: Partial<Record<StatsSubject, unknown>>, read: Read) =>
  [...subjectsOf(read)].every((subject) => ids[subject] !== undefined);

/** The conditions of a read on a table with these id columns (all of the read's subjects among them). */
function whereOf(ids: Partial<Record<StatsSubject, AnyPgColumn>>, read: Read): SQL[] {
  const where: SQL[] = [];
  if (read.owner) {
    // the owner's entities as a subquery: the planner reads them through the campaign or site index
    const { userId, side, visibleOnly, advancedOnly } = read.owner;
    const column = side === 'advertiser' ? ids.campaign : ids.site;
    const visible = sql`${visibleOnly ? sql` and ${sites.statsVisible}` : sql``}${advancedOnly ? sql` and ${sites.advancedStats}` : sql``}`;
    where.push(
      side === 'advertiser'
        ? sql`${column} in (select ${campaigns.id} from ${campaigns} where ${campaigns.userId} = ${userId})`
        : sql`${column} in (select ${sites.id} from ${sites} where ${sites.userId} = ${userId}${visible})`,
    );
  }
  for (const [subject, list] of read.filter) {
    const column = ids[subject] as AnyPgColumn;
    where.push(list.length === 1 ? sql`${column} = ${list[0]}` : anyOf(column, list));
  }
  return where;
}

/** One branch of a read: the group key and the sums of the rows of one table that match. */
const branch = (key: SQL, table: SQL, where: SQL[]) =>
  sql`select ${key} as key, ${sql.raw(sumColumns.join(', '))} from ${table} where ${sql.join(where, sql` and `)}`;

/**
 * The branches that answer a read over the hours from `from` (included) to `to` (excluded) from the
 * hourly tables: the hourly campaign or site totals when they can (time series and id groups of a
 * campaign, creative, site or widget), else `rollups`.
 */
function hourlyBranches(read: Read, from: Date, to: Date): SQL[] {
  for (const [source, table] of [
    [campaignHours, rollupsCampaignHours],
    [siteHours, rollupsSiteHours],
    [hourly, rollups],
  ] as const) {
    const key = source.groups[read.group];
    if (key && answers(source.ids, read))
      return [
        branch(key, sql`${table}`, [
          ...whereOf(source.ids, read),
          sql`${table.hour} >= ${instant(from)}`,
          sql`${table.hour} < ${instant(to)}`,
        ]),
      ];
  }
  throw new Error(`no rollup table answers the group ${read.group}`);
}

/**
 * The branches that answer a read over the hours starting from `from` (included) to `to` (excluded),
 * from the smallest tables that can. A UTC `day` or a dimension of the daily tables (the country) of a
 * campaign or site: the daily table for the whole UTC days of the range (a day's total is the sum of its
 * rows of one dimension: every increment has a value of each) and the hourly tables for the hours before
 * and after them (a range of a timezone that is not UTC's starts and ends inside a UTC day). Anything
 * else: the hourly tables. Every table holds the same increments, so each answer is the one `rollups`
 * would give.
 */
function branchesOf(read: Read, from: Date, to: Date): SQL[] {
  const days = [campaignDays, siteDays].find((d) => answers(d.ids, read));
  if (days && (read.group === 'day' || isDim(read.group))) {
    // the hours a row of rollups covers: those starting in the range (a range may start at :30)
    const first = Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS;
    const end = Math.ceil(to.getTime() / HOUR_MS) * HOUR_MS;
    const dayFrom = Math.ceil(first / DAY_MS) * DAY_MS;
    const dayTo = Math.floor(end / DAY_MS) * DAY_MS;
    if (dayFrom < dayTo) {
      const { t } = days;
      const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const key =
        read.group === 'day' ? sql`((${t.day} - date '1970-01-01') * 86400)::bigint::text` : sql`${t.value}`;
      const dim = read.group === 'day' ? rollupDims.country : rollupDims[read.group as DimGroup];
      const branches = [
        branch(key, sql`${t}`, [
          ...whereOf(days.ids, read),
          sql`${t.dim} = ${dim}`,
          sql`${t.day} >= ${iso(dayFrom)}::date`,
          // the last day itself (the day after 9999-12-31 has no ISO date PostgreSQL reads)
          sql`${t.day} <= ${iso(dayTo - DAY_MS)}::date`,
        ]),
      ];
      if (first < dayFrom) branches.push(...hourlyBranches(read, new Date(first), new Date(dayFrom)));
      if (dayTo < end) branches.push(...hourlyBranches(read, new Date(dayTo), new Date(end)));
      return branches;
    }
  }
  return hourlyBranches(read, from, to);
}

/** The rollup tables of PostgreSQL (or PGlite) as the statistics store. */
export function createStatsRepository(db: Db): StatsStore {
  async function sums(read: Read, from: Date, to: Date): Promise<StatsSums[]> {
    const branches = branchesOf(read, from, to);
    const union = sql.join(branches, sql` union all `);
    const result = await db.execute(sql`
      select key, ${sql.raw(sumColumns.map((c) => `coalesce(sum(${c}), 0)::text as ${c}`).join(', '))}
      from (${union}) u
      group by key`);
    return (result as unknown as { rows: Record<string, string>[] }).rows.map((r) => ({
      key: String(r.key),
      impressions: Number(r.impressions),
      viewable: Number(r.viewable),
      clicks: Number(r.clicks),
      invalidClicks: Number(r.invalid_clicks),
      conversions: Number(r.conversions),
      spent: BigInt(r.spent ?? 0),
      earned: BigInt(r.earned ?? 0),
    }));
  }

  return {
    ...createStatsReportRepository(db),
    query: ({ subject, id, from, to, group }) => sums({ filter: [[subject, [id]]], group }, from, to),
    async sum({ filter, owner, from, to, group }) {
      const list = Object.entries(filter) as [StatsSubject, readonly number[]][];
      if (list.some(([, ids]) => ids.length === 0)) return [];
      return sums({ filter: list, owner, group }, from, to);
    },
    async income({ from, to }) {
      // whole UTC hours by arithmetic: date_trunc would truncate in the session's timezone
      const hour = sql<string>`(floor(extract(epoch from ${platformLedger.createdAt}) / 3600) * 3600)::bigint::text`;
      // the UTC hours that START in [from, to), as the rollups are read: in a half-hour zone (Kolkata) a day
      // begins at :30, and the hour that straddles its midnight is the day's it starts in, income included
      // (an exact cut kept its half hour out of every row but in the total)
      const ceilHour = (at: Date) => new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
      const rows = await db
        .select({ key: hour, sum: total(platformLedger.sum) })
        .from(platformLedger)
        .where(
          and(
            sql`${platformLedger.createdAt} >= ${instant(ceilHour(from))}`,
            sql`${platformLedger.createdAt} < ${instant(ceilHour(to))}`,
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
