import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { campaigns, clicks, ledger, sites, users, widgets } from '../../db/schema/index.ts';

const instant = (date: Date) => sql`to_timestamp(${date.getTime() / 1000}::double precision)`;
const anyOf = (column: AnyPgColumn, ids: readonly number[]) =>
  sql`${column} = any(${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::bigint[])`;

/** The names a report row shows next to its ids. */
export interface SiteName {
  id: number;
  title: string;
  domain: string;
  userId: number;
  email: string;
}
export interface CampaignName {
  id: number;
  title: string;
  userId: number;
  email: string;
}
export interface WidgetName {
  id: number;
  title: string;
  siteId: number;
  siteTitle: string;
}

/** The filter of the raw-clicks reports (clicks, postback): a range of instants and optional ids. */
export interface ClicksFilter {
  from: Date;
  to: Date;
  userId?: number | undefined;
  siteId?: number | undefined;
  campaignId?: number | undefined;
  status?: 'charged' | 'invalid' | undefined;
  /** Conversions only, their range on `converted_at` (the postback report); else on `created_at`. */
  converted: boolean;
}

/** A raw click as the reports read it (money in micro-units, instants as Dates). */
export interface ClickReportRow {
  id: number;
  /** The time the rows are ordered by (created_at, or converted_at for conversions) as exact text. */
  at: string;
  clickId: string;
  status: string;
  reason: string | null;
  campaignId: number;
  bannerId: number;
  siteId: number;
  widgetId: number;
  country: string;
  device: string;
  os: string;
  browser: string;
  ip: string;
  price: bigint;
  publisherEarned: bigint;
  convertedAt: Date | null;
  conversionSum: bigint | null;
  conversionStatus: string | null;
  createdAt: Date;
}

export interface AffiliateReportRow {
  id: number;
  email: string;
  name: string;
  earnPercent: string;
  referred: number;
  earned: bigint;
}

/** Where a keyset chunk of clicks goes on from: the last row's time (exact text) and id. */
export interface ClicksCursor {
  at: string;
  id: number;
}

const clicksAt = (f: ClicksFilter) => (f.converted ? clicks.convertedAt : clicks.createdAt);

function clicksWhere(f: ClicksFilter, before?: ClicksCursor): SQL {
  const at = clicksAt(f);
  const parts: SQL[] = [sql`${at} >= ${instant(f.from)}`, sql`${at} < ${instant(f.to)}`];
  if (f.userId !== undefined)
    parts.push(
      sql`(${clicks.campaignId} in (select id from ${campaigns} where ${campaigns.userId} = ${f.userId})
        or ${clicks.siteId} in (select id from ${sites} where ${sites.userId} = ${f.userId}))`,
    );
  if (f.siteId !== undefined) parts.push(sql`${clicks.siteId} = ${f.siteId}`);
  if (f.campaignId !== undefined) parts.push(sql`${clicks.campaignId} = ${f.campaignId}`);
  if (f.status !== undefined) parts.push(sql`${clicks.status} = ${f.status}`);
  if (before !== undefined)
    parts.push(sql`(${at}, ${clicks.id}) < (${before.at}::timestamptz, ${before.id})`);
  return sql.join(parts, sql` and `);
}

/** The affiliates: users who referred someone (who signed up in the range) or earned referral money in it. */
function affiliatesWhere(from: Date, to: Date, userId?: number, afterId?: number): SQL {
  const parts: SQL[] = [
    sql`(exists (select 1 from ${users} r where r.referrer_id = u.id
        and r.created_at >= ${instant(from)} and r.created_at < ${instant(to)})
      or exists (select 1 from ${ledger} l where l.user_id = u.id and l.type = 'referral_earning'
        and l.created_at >= ${instant(from)} and l.created_at < ${instant(to)}))`,
  ];
  if (userId !== undefined) parts.push(sql`u.id = ${userId}`);
  if (afterId !== undefined) parts.push(sql`u.id > ${afterId}`);
  return sql.join(parts, sql` and `);
}

/** SQL of the admin reports that do not read statistics: names, raw clicks, referral earnings. */
export function createReportsRepository(db: Db) {
  return {
    async userExists(id: number) {
      return rowsOf(await db.execute(sql`select 1 from ${users} where ${users.id} = ${id}`)).length > 0;
    },
    async siteExists(id: number) {
      return rowsOf(await db.execute(sql`select 1 from ${sites} where ${sites.id} = ${id}`)).length > 0;
    },
    async campaignExists(id: number) {
      return (
        rowsOf(await db.execute(sql`select 1 from ${campaigns} where ${campaigns.id} = ${id}`)).length > 0
      );
    },
    /** The ids of a user's sites. */
    async siteIdsOf(userId: number): Promise<number[]> {
      const rows = await db.select({ id: sites.id }).from(sites).where(sql`${sites.userId} = ${userId}`);
      return rows.map((r) => r.id);
    },
    /** The ids of a user's campaigns (all, or only those of one ads type, e.g. criteo). */
    async campaignIdsOf(userId: number | undefined, adstype?: string): Promise<number[]> {
      const parts: SQL[] = [sql`true`];
      if (userId !== undefined) parts.push(sql`${campaigns.userId} = ${userId}`);
      if (adstype !== undefined) parts.push(sql`${campaigns.adstype} = ${adstype}`);
      const rows = await db.select({ id: campaigns.id }).from(campaigns).where(sql.join(parts, sql` and `));
      return rows.map((r) => r.id);
    },
    async siteNames(ids: readonly number[]): Promise<SiteName[]> {
      if (ids.length === 0) return [];
      return db
        .select({
          id: sites.id,
          title: sites.title,
          domain: sites.domain,
          userId: sites.userId,
          email: users.email,
        })
        .from(sites)
        .innerJoin(users, sql`${users.id} = ${sites.userId}`)
        .where(anyOf(sites.id, ids));
    },
    async campaignNames(ids: readonly number[]): Promise<CampaignName[]> {
      if (ids.length === 0) return [];
      return db
        .select({ id: campaigns.id, title: campaigns.title, userId: campaigns.userId, email: users.email })
        .from(campaigns)
        .innerJoin(users, sql`${users.id} = ${campaigns.userId}`)
        .where(anyOf(campaigns.id, ids));
    },
    async widgetNames(ids: readonly number[]): Promise<WidgetName[]> {
      if (ids.length === 0) return [];
      return db
        .select({ id: widgets.id, title: widgets.title, siteId: widgets.siteId, siteTitle: sites.title })
        .from(widgets)
        .innerJoin(sites, sql`${sites.id} = ${widgets.siteId}`)
        .where(anyOf(widgets.id, ids));
    },

    async clicksCount(f: ClicksFilter): Promise<number> {
      const [row] = await db.select({ n: sql<string>`count(*)::text` }).from(clicks).where(clicksWhere(f));
      return Number(row?.n ?? 0);
    },
    /**
     * Clicks newest first (by their time, then id): a page by offset, or the keyset chunk after `before`
     * (exports; the time index of a campaign or site serves it without sorting the whole range).
     */
    async clicks(
      f: ClicksFilter,
      window: { limit: number; offset?: number; before?: ClicksCursor | undefined },
    ): Promise<ClickReportRow[]> {
      const at = clicksAt(f);
      return db
        .select({
          id: clicks.id,
          // text keeps the microseconds a JS Date would drop (the keyset must compare exactly)
          at: sql<string>`${at}::text`,
          clickId: clicks.clickId,
          status: clicks.status,
          reason: clicks.reason,
          campaignId: clicks.campaignId,
          bannerId: clicks.bannerId,
          siteId: clicks.siteId,
          widgetId: clicks.widgetId,
          country: clicks.country,
          device: clicks.device,
          os: clicks.os,
          browser: clicks.browser,
          ip: clicks.ip,
          price: clicks.price,
          publisherEarned: clicks.publisherEarned,
          convertedAt: clicks.convertedAt,
          conversionSum: clicks.conversionSum,
          conversionStatus: clicks.conversionStatus,
          createdAt: clicks.createdAt,
        })
        .from(clicks)
        .where(clicksWhere(f, window.before))
        .orderBy(sql`${at} desc, ${clicks.id} desc`)
        .limit(window.limit)
        .offset(window.offset ?? 0);
    },

    async affiliatesCount(from: Date, to: Date, userId?: number): Promise<number> {
      const result = await db.execute(
        sql`select count(*)::text as n from ${users} u where ${affiliatesWhere(from, to, userId)}`,
      );
      return Number(rowsOf<{ n: string }>(result)[0]?.n ?? 0);
    },
    /** Affiliates by id: the users they referred who signed up in the range, and its referral earnings. */
    async affiliates(
      from: Date,
      to: Date,
      window: { limit: number; offset?: number; afterId?: number; userId?: number },
    ): Promise<AffiliateReportRow[]> {
      const result = await db.execute(sql`
        select u.id::text as id, u.email, u.name, u.earn_percent::text as earn_percent,
          (select count(*) from ${users} r where r.referrer_id = u.id
            and r.created_at >= ${instant(from)} and r.created_at < ${instant(to)})::text as referred,
          (select coalesce(sum(l.sum), 0) from ${ledger} l where l.user_id = u.id
            and l.type = 'referral_earning' and l.created_at >= ${instant(from)}
            and l.created_at < ${instant(to)})::text as earned
        from ${users} u
        where ${affiliatesWhere(from, to, window.userId, window.afterId)}
        order by u.id
        limit ${window.limit} offset ${window.offset ?? 0}`);
      return rowsOf<{
        id: string;
        email: string;
        name: string;
        earn_percent: string;
        referred: string;
        earned: string;
      }>(result).map((r) => ({
        id: Number(r.id),
        email: r.email,
        name: r.name,
        earnPercent: r.earn_percent,
        referred: Number(r.referred),
        earned: BigInt(r.earned),
      }));
    },
  };
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>;
