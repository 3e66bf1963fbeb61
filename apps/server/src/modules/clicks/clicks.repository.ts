import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  banners,
  clickSources,
  clicks,
  jobs,
  pixels,
  pixelVisitors,
  sites,
  widgets,
} from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';
import { createSiteTrafficRepository } from './site-traffic.repository.ts';

/** Whose clicks a list shows: the clicks column it filters on. */
export type ClicksOwner = 'campaign' | 'site' | 'widget';

const ownerColumn = { campaign: clicks.campaignId, site: clicks.siteId, widget: clicks.widgetId } as const;

/** An instant as a timestamptz, through epoch seconds (as the statistics store does). */
const instant = (date: Date) => sql`to_timestamp(${date.getTime() / 1000}::double precision)`;

export interface ClicksFilter {
  owner: ClicksOwner;
  id: number;
  /** From (included) to (excluded): the click's time, or for `converted` its conversion's time. */
  from: Date;
  to: Date;
  status?: 'charged' | 'invalid' | undefined;
  /** Only converted clicks (postback), by the time of the conversion. */
  converted?: boolean;
  page: number;
  limit: number;
}

const clickColumns = {
  c: clicks,
  bannerTitle: banners.title,
  siteTitle: sites.title,
  widgetTitle: widgets.title,
};
/** Where a list's file goes on: the last click read (its time as exact text, its id). */
export interface ClicksKeyset {
  at: string;
  id: number;
}

export type ClickListRow = {
  c: typeof clicks.$inferSelect;
  bannerTitle: string | null;
  siteTitle: string | null;
  widgetTitle: string | null;
};

/** A click-sources row: the group's key (domain, page or widget id) and its sums. */
export interface ClickSourceSums {
  key: string;
  widgetTitle: string | null;
  clicks: number;
  invalidClicks: number;
  earned: bigint;
}

/** The raw clicks table as click lists read it, and the click-sources table the job fills. */
export function createClicksRepository(db: Db) {
  function where(f: Omit<ClicksFilter, 'page' | 'limit'>): SQL | undefined {
    const time = f.converted ? clicks.convertedAt : clicks.createdAt;
    const conds: SQL[] = [
      eq(ownerColumn[f.owner], f.id),
      sql`${time} >= ${instant(f.from)}`,
      sql`${time} < ${instant(f.to)}`,
    ];
    if (f.status) conds.push(eq(clicks.status, f.status));
    return and(...conds);
  }
  const joined = () =>
    db
      .select(clickColumns)
      .from(clicks)
      .leftJoin(banners, eq(banners.id, clicks.bannerId))
      .leftJoin(sites, eq(sites.id, clicks.siteId))
      .leftJoin(widgets, eq(widgets.id, clicks.widgetId));

  return {
    ...createSiteTrafficRepository(db),
    /** A page of clicks, newest first (postback: newest conversion first). */
    list(f: ClicksFilter) {
      const w = where(f);
      const order = f.converted ? desc(clicks.convertedAt) : desc(clicks.createdAt);
      return pageOf(
        f,
        db.select({ n: count() }).from(clicks).where(w),
        (win) => joined().where(w).orderBy(order, desc(clicks.id)).limit(win.limit).offset(win.offset),
        (r): ClickListRow => r,
      );
    },

    /**
     * The clicks of a list for its file: newest first (postback: newest conversion first), `limit` after
     * the keyset `before` (never an offset: a file of a busy campaign reads every click once), each with
     * its time as exact text (a JS Date drops microseconds, and the keyset must compare exactly).
     */
    chunk(f: Omit<ClicksFilter, 'page' | 'limit'>, limit: number, before?: ClicksKeyset) {
      const time = f.converted ? clicks.convertedAt : clicks.createdAt;
      const after = before && sql`(${time}, ${clicks.id}) < (${before.at}::timestamptz, ${before.id})`;
      return db
        .select({ ...clickColumns, at: sql<string>`${time}::text` })
        .from(clicks)
        .leftJoin(banners, eq(banners.id, clicks.bannerId))
        .leftJoin(sites, eq(sites.id, clicks.siteId))
        .leftJoin(widgets, eq(widgets.id, clicks.widgetId))
        .where(and(where(f), after))
        .orderBy(desc(time), desc(clicks.id))
        .limit(limit);
    },

    /** The count and sum of the conversions of the range (postback). */
    async conversions(f: Omit<ClicksFilter, 'page' | 'limit'>) {
      const [row] = await db
        .select({ n: count(), sum: sql<string>`coalesce(sum(${clicks.conversionSum}), 0)::text` })
        .from(clicks)
        .where(where({ ...f, converted: true }));
      return { n: Number(row?.n ?? 0), sum: BigInt(row?.sum ?? '0') };
    },

    /**
     * A page of the campaign's clicks whose visitor later reached a page with one of `ownerId`'s pixels
     * (the pixel's last sighting of that visitor is at or after the click), newest click first.
     */
    pixelClicks(f: Omit<ClicksFilter, 'owner' | 'converted'> & { ownerId: number }) {
      const w = and(
        where({ ...f, owner: 'campaign' }),
        sql`${clicks.visitorId} <> ''`,
        eq(pixels.userId, f.ownerId),
        sql`${pixelVisitors.lastSeen} >= ${clicks.createdAt}`,
      );
      const base = () =>
        db
          .select({
            ...clickColumns,
            pixelId: pixels.id,
            pixelTitle: pixels.title,
            pixelUrl: pixelVisitors.lastUrl,
            pixelSeenAt: pixelVisitors.lastSeen,
            pixelVisits: pixelVisitors.visits,
          })
          .from(clicks)
          .innerJoin(pixelVisitors, eq(pixelVisitors.visitorId, clicks.visitorId))
          .innerJoin(pixels, eq(pixels.id, pixelVisitors.pixelId))
          .leftJoin(banners, eq(banners.id, clicks.bannerId))
          .leftJoin(sites, eq(sites.id, clicks.siteId))
          .leftJoin(widgets, eq(widgets.id, clicks.widgetId));
      return pageOf(
        f,
        db
          .select({ n: count() })
          .from(clicks)
          .innerJoin(pixelVisitors, eq(pixelVisitors.visitorId, clicks.visitorId))
          .innerJoin(pixels, eq(pixels.id, pixelVisitors.pixelId))
          .where(w),
        (win) =>
          base()
            .where(w)
            .orderBy(desc(clicks.createdAt), desc(clicks.id), pixels.id)
            .limit(win.limit)
            .offset(win.offset),
        (r) => r,
      );
    },

    /** Titles of widgets and their sites, by widget id. */
    async widgetsWithSites(ids: number[]) {
      if (!ids.length) return new Map<number, { siteId: number; siteTitle: string; title: string }>();
      const rows = await db
        .select({ id: widgets.id, title: widgets.title, siteId: widgets.siteId, siteTitle: sites.title })
        .from(widgets)
        .innerJoin(sites, eq(sites.id, widgets.siteId))
        .where(sql`${widgets.id} in (${sql.join(ids, sql`, `)})`);
      return new Map(rows.map((r) => [r.id, r]));
    },

    /** The site's widgets, by id, a page of them and their count. */
    siteWidgets(siteId: number, q: { page: number; limit: number }) {
      return pageOf(
        q,
        db.select({ n: count() }).from(widgets).where(eq(widgets.siteId, siteId)),
        (win) =>
          db
            .select({ id: widgets.id, title: widgets.title })
            .from(widgets)
            .where(eq(widgets.siteId, siteId))
            .orderBy(widgets.id)
            .limit(win.limit)
            .offset(win.offset),
        (r) => r,
      );
    },

    /**
     * Recomputes the click sources from the clicks: every hour from the hour before the newest one already in
     * the table on (clicks arrive at the time they happen), in one transaction, and notes the time in the
     * job's row.
     */
    async refreshSources(now: Date): Promise<number> {
      return db.transaction(async (tx) => {
        const [last] = await tx
          .select({ hour: sql<string | null>`max(${clickSources.hour})::text` })
          .from(clickSources);
        // clicks are written at the time they happen, but a group commit may land a little after its hour
        const since = last?.hour
          ? sql`${last.hour}::timestamptz - interval '1 hour'`
          : sql`'-infinity'::timestamptz`;
        await tx.delete(clickSources).where(sql`${clickSources.hour} >= ${since}`);
        const inserted = await tx.execute(sql`
          insert into click_sources (hour, site_id, widget_id, page, clicks, invalid_clicks, earned)
          select date_trunc('hour', created_at), site_id, widget_id, referrer,
                 count(*) filter (where status = 'charged'), count(*) filter (where status <> 'charged'),
                 coalesce(sum(publisher_earned), 0)
            from clicks
           where created_at >= ${since} and created_at < ${instant(now)}
           group by 1, 2, 3, 4
          returning 1`);
        await tx
          .insert(jobs)
          .values({ name: 'click-sources', lastRunAt: now })
          .onConflictDoUpdate({ target: jobs.name, set: { lastRunAt: now } });
        return ((inserted as unknown as { rows?: unknown[] }).rows ?? []).length;
      });
    },

    /** When the click sources were last computed; null before the first time. */
    async sourcesRefreshedAt(): Promise<Date | null> {
      const [row] = await db.select({ at: jobs.lastRunAt }).from(jobs).where(eq(jobs.name, 'click-sources'));
      return row?.at ?? null;
    },

    /** The site's click sources of the hours from `from` to `to` by domain, page or widget, most clicks first. */
    sources(q: {
      siteId: number;
      from: Date;
      to: Date;
      group: 'domain' | 'page' | 'widget';
      page: number;
      limit: number;
    }) {
      const key =
        q.group === 'widget'
          ? sql<string>`${clickSources.widgetId}::text`
          : q.group === 'page'
            ? sql<string>`${clickSources.page}`
            : sql<string>`coalesce(lower(substring(${clickSources.page} from '^[A-Za-z]+://([^/:?#]+)')), '')`;
      const w = and(
        eq(clickSources.siteId, q.siteId),
        sql`${clickSources.hour} >= ${instant(q.from)}`,
        sql`${clickSources.hour} < ${instant(q.to)}`,
      );
      const grouped = db
        .select({
          key: key.as('key'),
          clicks: sql<string>`sum(${clickSources.clicks})::text`.as('clicks'),
          invalidClicks: sql<string>`sum(${clickSources.invalidClicks})::text`.as('invalid_clicks'),
          earned: sql<string>`sum(${clickSources.earned})::text`.as('earned'),
        })
        .from(clickSources)
        .where(w)
        .groupBy(key)
        .as('g');
      return pageOf(
        q,
        db.select({ n: count() }).from(grouped),
        (win) =>
          db
            .select({
              key: grouped.key,
              widgetTitle: q.group === 'widget' ? widgets.title : sql<string | null>`null`,
              clicks: grouped.clicks,
              invalidClicks: grouped.invalidClicks,
              earned: grouped.earned,
            })
            .from(grouped)
            .leftJoin(widgets, sql`${q.group === 'widget'} and ${widgets.id}::text = ${grouped.key}`)
            .orderBy(
              sql`${grouped.clicks}::bigint desc`,
              sql`${grouped.invalidClicks}::bigint desc`,
              grouped.key,
            )
            .limit(win.limit)
            .offset(win.offset),
        (r): ClickSourceSums => ({
          key: r.key,
          widgetTitle: r.widgetTitle,
          clicks: Number(r.clicks),
          invalidClicks: Number(r.invalidClicks),
          earned: BigInt(r.earned),
        }),
      );
    },
  };
}
export type ClicksRepository = ReturnType<typeof createClicksRepository>;
