import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  agencies,
  agencyMembers,
  banners,
  blockedSources,
  campaigns,
  clickRejections,
  clicks,
  eventKinds,
  rollups,
  sites,
  users,
  widgets,
} from '../db/schema/index.ts';
import type { DbOrTx } from '../db/tx.ts';
import { isRetryable } from '../lib/unique.ts';
import { chargeClicks } from './charge-clicks.ts';
import { upsertRollupTiers } from './rollup-tiers.ts';

/** One rollup increment: the key (hour and dimensions) and what to add. */
export interface RollupDelta {
  hour: Date;
  campaignId: number;
  bannerId: number;
  siteId: number;
  widgetId: number;
  country: string;
  /** The GeoIP city's name; '' (the default) when unknown. */
  city?: string;
  device: string;
  os: string;
  browser: string;
  impressions?: number;
  viewable?: number;
  clicks?: number;
  invalidClicks?: number;
  conversions?: number;
  spent?: bigint;
  earned?: bigint;
}

/** A click as it is written: its row, and for a charged one the money split. */
export interface ClickWrite {
  row: typeof clicks.$inferInsert;
  /** Set when the click is to be charged. */
  charge?: {
    campaignId: number;
    price: bigint;
    credits: {
      userId: number;
      type: 'publisher_earning' | 'agency_earning' | 'referral_earning';
      sum: bigint;
    }[];
    platform: bigint;
  };
  rollup: RollupDelta;
}

/**
 * One counted impression or view beacon: each of its sponsored items one impression (or view), written as
 * one raw `events` row and added to the items' hourly rollups by `writeBuffered`.
 */
export interface EventWrite {
  kind: 'impression' | 'view';
  at: Date;
  siteId: number;
  widgetId: number;
  country: string;
  /** The GeoIP city's name; '' (the default) when unknown. */
  city?: string;
  device: string;
  os: string;
  browser: string;
  visitorId: string;
  /** The sponsored items the beacon counts. */
  items: readonly { campaignId: number; bannerId: number }[];
}

/** What delivery buffers between flushes: raw events, and rollup increments without one (replayed clicks). */
export type Buffered = EventWrite | RollupDelta;

const isEvent = (b: Buffered): b is EventWrite => 'kind' in b;

/** Raw event rows (beacons) per INSERT statement of a flush (each column one array parameter this long). */
const EVENTS_PER_INSERT = 5000;

/** Raw events in multi-row INSERTs: a parameter per column (an array each), not one per value. */
async function insertEvents(tx: DbOrTx, events: EventWrite[]) {
  for (let i = 0; i < events.length; i += EVENTS_PER_INSERT)
    await insertEventRows(tx, events.slice(i, i + EVENTS_PER_INSERT));
}

/** A beacon's ids as an element of a text[] that the statement casts to bigint[]: `"{1,2}"`. */
const idArray = (items: EventWrite['items'], f: (it: EventWrite['items'][number]) => number) =>
  `"{${items.map(f).join(',')}}"`;

async function insertEventRows(tx: DbOrTx, batch: EventWrite[]) {
  if (batch.length === 0) return;
  // each column one array parameter (sql.param keeps drizzle from spreading it into a parameter a value)
  const col = <T>(f: (e: EventWrite) => T) => sql.param(batch.map(f));
  // numbers and ISO times need no quoting in an array's text: joined here, not escaped one by one by the
  // driver (the texts are, as they may hold anything)
  const plain = (f: (e: EventWrite) => number | string) => sql.param(`{${batch.map(f).join(',')}}`);
  await tx.execute(sql`
    insert into events (at, site_id, widget_id, kind, country, city, device, os, browser, visitor_id,
                        campaign_ids, banner_ids)
    select at, site_id, widget_id, kind, country, city, device, os, browser, visitor_id,
           campaign_ids::bigint[], banner_ids::bigint[]
    from unnest(${plain((e) => e.at.toISOString())}::timestamptz[], ${plain((e) => e.siteId)}::bigint[],
      ${plain((e) => e.widgetId)}::bigint[], ${plain((e) => eventKinds[e.kind])}::smallint[],
      ${col((e) => e.country)}::text[], ${col((e) => e.city ?? '')}::text[], ${col((e) => e.device)}::text[],
      ${col((e) => e.os)}::text[], ${col((e) => e.browser)}::text[], ${col((e) => e.visitorId)}::text[],
      ${plain((e) => idArray(e.items, (it) => it.campaignId))}::text[],
      ${plain((e) => idArray(e.items, (it) => it.bannerId))}::text[])
      as t(at, site_id, widget_id, kind, country, city, device, os, browser, visitor_id, campaign_ids,
           banner_ids)`);
}

export type ClickOutcome = { status: 'charged' } | { status: 'invalid'; reason: string };

/** Adds increments to their hourly rollups and the coarser tables, in the caller's transaction. */
export async function upsertRollups(tx: DbOrTx, deltas: RollupDelta[]) {
  if (deltas.length === 0) return;
  // every writer (the click charge, the impression flush) upserts its rows in one order, so two concurrent
  // upserts of the same rows wait for each other instead of deadlocking
  // each key made once (a comparator making both keys made them some 20 times per row)
  const rows = deltas
    .map((d) => ({ key: rollupKey(d), d }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ d }) => ({
      hour: d.hour.toISOString(),
      campaign_id: d.campaignId,
      banner_id: d.bannerId,
      site_id: d.siteId,
      widget_id: d.widgetId,
      country: d.country,
      city: d.city ?? '',
      device: d.device,
      os: d.os,
      browser: d.browser,
      impressions: d.impressions ?? 0,
      viewable: d.viewable ?? 0,
      clicks: d.clicks ?? 0,
      invalid_clicks: d.invalidClicks ?? 0,
      conversions: d.conversions ?? 0,
      spent: String(d.spent ?? 0n),
      earned: String(d.earned ?? 0n),
    }));
  // one JSON parameter rather than 16 per row: building a statement of thousands of parameters cost the
  // serving process more CPU than the database spent on it
  await tx.execute(sql`
    insert into rollups (hour, campaign_id, banner_id, site_id, widget_id, country, city, device, os, browser,
                         impressions, viewable, clicks, invalid_clicks, conversions, spent, earned)
    select hour, campaign_id, banner_id, site_id, widget_id, country, city, device, os, browser,
           impressions, viewable, clicks, invalid_clicks, conversions, spent, earned
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
      hour timestamptz, campaign_id bigint, banner_id bigint, site_id bigint, widget_id bigint, country text,
      city text, device text, os text, browser text, impressions bigint, viewable bigint, clicks bigint,
      invalid_clicks bigint, conversions bigint, spent bigint, earned bigint)
    on conflict (hour, campaign_id, banner_id, site_id, widget_id, country, city, device, os, browser)
    do update set
      impressions = rollups.impressions + excluded.impressions,
      viewable = rollups.viewable + excluded.viewable,
      clicks = rollups.clicks + excluded.clicks,
      invalid_clicks = rollups.invalid_clicks + excluded.invalid_clicks,
      conversions = rollups.conversions + excluded.conversions,
      spent = rollups.spent + excluded.spent,
      earned = rollups.earned + excluded.earned`);
  // the coarser tables the statistics store reads first, in the same transaction
  await upsertRollupTiers(tx, deltas);
}

/** The start of the UTC hour of a moment: the rollups' time key. */
export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
}

// the context first, then the item: a beacon's items share the prefix (mergeDeltas makes it once a beacon)
const contextKey = (hourMs: number, d: Omit<EventWrite, 'kind' | 'at' | 'visitorId' | 'items'>) =>
  `${hourMs}|${d.siteId}|${d.widgetId}|${d.country}|${d.city ?? ''}|${d.device}|${d.os}|${d.browser}|`;
const rollupKey = (d: RollupDelta) => `${contextKey(d.hour.getTime(), d)}${d.campaignId}|${d.bannerId}`;

/**
 * The rollup increments of what a flush writes, summed by key so one statement never touches a row twice:
 * increments as they are, and each item of a beacon one impression (or view).
 */
export function mergeDeltas(batch: readonly Buffered[]): RollupDelta[] {
  const merged = new Map<string, RollupDelta>();
  for (const d of batch) {
    if (isEvent(d)) {
      const hourMs = Math.floor(d.at.getTime() / 3_600_000) * 3_600_000;
      const ctx = contextKey(hourMs, d);
      const impression = d.kind === 'impression';
      for (const it of d.items) {
        const key = `${ctx}${it.campaignId}|${it.bannerId}`;
        const m = merged.get(key);
        if (m) {
          if (impression) m.impressions = (m.impressions ?? 0) + 1;
          else m.viewable = (m.viewable ?? 0) + 1;
          continue;
        }
        merged.set(key, {
          hour: new Date(hourMs),
          campaignId: it.campaignId,
          bannerId: it.bannerId,
          siteId: d.siteId,
          widgetId: d.widgetId,
          country: d.country,
          city: d.city ?? '',
          device: d.device,
          os: d.os,
          browser: d.browser,
          ...(impression ? { impressions: 1 } : { viewable: 1 }),
        });
      }
      continue;
    }
    const key = rollupKey(d);
    const m = merged.get(key);
    if (!m) {
      merged.set(key, { ...d });
      continue;
    }
    // only what the increment has: most are one impression or view, and a BigInt sum allocates
    if (d.impressions) m.impressions = (m.impressions ?? 0) + d.impressions;
    if (d.viewable) m.viewable = (m.viewable ?? 0) + d.viewable;
    if (d.clicks) m.clicks = (m.clicks ?? 0) + d.clicks;
    if (d.invalidClicks) m.invalidClicks = (m.invalidClicks ?? 0) + d.invalidClicks;
    if (d.conversions) m.conversions = (m.conversions ?? 0) + d.conversions;
    if (d.spent) m.spent = (m.spent ?? 0n) + d.spent;
    if (d.earned) m.earned = (m.earned ?? 0n) + d.earned;
  }
  return [...merged.values()];
}

/** Basis points (1/100 of a percent) of a numeric(5,2) percent, in integers. */
export function basisPoints(percent: string | number): bigint {
  const [whole = '0', frac = ''] = String(percent).split('.');
  return BigInt(whole) * 100n + BigInt(`${frac}00`.slice(0, 2));
}

export type CampaignRow = Awaited<ReturnType<DeliveryRepository['loadIndex']>>['campaigns'][number];
export type BannerRow = Awaited<ReturnType<DeliveryRepository['loadIndex']>>['banners'][number];
export type WidgetRow = Awaited<ReturnType<DeliveryRepository['loadIndex']>>['widgets'][number];

/**
 * What delivery reads from the database: everything the ad index holds, in a few queries at build time
 * (never per request), and today's counters once at start.
 */
/**
 * A site's agency rate (percent) in a query of `sites`: its own, else its owner's agency group's (DESIGN.md
 * money split); delivery and the AdSense approval split by it alike.
 */
export const siteAgencyRate = () =>
  sql<string>`case when ${sites.agencyRate} > 0 then ${sites.agencyRate} else coalesce((
    select a.agency_rate from agency_members m join agencies a on a.id = m.agency_id
    where m.user_id = ${sites.userId} and a.status = 'active' limit 1), 0) end`;

/**
 * The agency account a site's owner earns for, in a query over `sites`: its agency while the owner is an
 * `agencymember`, the agency's owner an `agency` and the group active (the ad index's `agencyOf` rule).
 */
export const siteAgencyUser = () =>
  sql<string | null>`(select a.user_id from agency_members m
    join agencies a on a.id = m.agency_id join users u on u.id = m.user_id
    join users o on o.id = a.user_id
    where m.user_id = ${sites.userId} and u.role = 'agencymember' and o.role = 'agency'
      and a.status = 'active' limit 1)`;

export function createDeliveryRepository(db: Db) {
  return {
    async loadIndex() {
      const campaignRows = await db
        .select({
          id: campaigns.id,
          userId: campaigns.userId,
          adstype: campaigns.adstype,
          clickprice: campaigns.clickprice,
          balance: campaigns.balance,
          dailyclicks: campaigns.dailyclicks,
          dailyBudget: campaigns.dailyBudget,
          pacing: campaigns.pacing,
          weight: campaigns.weight,
          clickFilter: campaigns.clickFilter,
          utm: campaigns.utm,
          trackUrls: campaigns.trackUrls,
          srcCode: campaigns.srcCode,
          siteId: campaigns.siteId,
          widgetIds: campaigns.widgetIds,
          brandName: campaigns.brandName,
          onImageLoad: campaigns.onImageLoad,
          cpcFeedProcessor: campaigns.cpcFeedProcessor,
          ipRanges: campaigns.ipRanges,
          openrtb: campaigns.openrtb,
          targetCtrStatus: campaigns.targetCtrStatus,
          iabCategories: campaigns.iabCategories,
        })
        .from(campaigns)
        .where(
          and(
            eq(campaigns.status, 'active'),
            eq(campaigns.moderation, 'approved'),
            sql`${campaigns.clickprice} > 0`,
            sql`${campaigns.balance} >= ${campaigns.clickprice}`,
          ),
        );
      const campaignIds = campaignRows.map((c) => c.id);
      const bannerRows = campaignIds.length
        ? await db
            .select({
              id: banners.id,
              campaignId: banners.campaignId,
              title: banners.title,
              text: banners.text,
              url: banners.url,
              targeting: banners.targeting,
              images: banners.images,
              video: banners.video,
            })
            .from(banners)
            .where(
              and(
                inArray(banners.campaignId, campaignIds),
                eq(banners.status, 'active'),
                eq(banners.moderation, 'approved'),
              ),
            )
        : [];
      const widgetRows = await db
        .select({
          id: widgets.id,
          siteId: widgets.siteId,
          processor: widgets.processor,
          settings: widgets.settings,
          earnProcessor: widgets.earnProcessor,
          earnValue: widgets.earnValue,
          criteoType: widgets.criteoType,
          marketplaceUrl: widgets.marketplaceUrl,
          siteUserId: sites.userId,
          siteLanguage: sites.language,
          siteCategory: sites.category,
          // the site's own agency rate, else its owner's agency group's (partners: DESIGN.md money split)
          siteAgencyRate: siteAgencyRate(),
          siteDomain: sites.domain,
          siteNoindex: sites.useNoindex,
          siteMarkTraffic: sites.markTraffic,
          siteCountOnScroll: sites.statsOnScroll,
          siteStrictItems: sites.strictItemsAmount,
          siteInfinite: sites.isInfinite,
          // the site's affiliate (an admin's revenue term): its percent of the platform's income from the site
          siteAffiliateUserId: sites.affiliateUserId,
          siteAffiliatePercent: sites.affiliateEarnPercent,
          siteAdvertorialUrl: sites.defaultAdvertorialUrl,
          siteModeration: sites.moderation,
          sitePaymentMethod: sites.paymentMethod,
          sitePaymentMethodChangedAt: sites.paymentMethodChangedAt,
        })
        .from(widgets)
        .innerJoin(sites, eq(sites.id, widgets.siteId))
        .where(
          and(
            eq(widgets.status, 'active'),
            eq(widgets.moderation, 'approved'),
            eq(sites.status, 'active'),
            sql`${sites.moderation} <> 'rejected'`,
          ),
        );
      // the agency (its account, while it is one) of every member, and every user's referrer with its percent
      const agencyRows = await db
        .select({
          memberId: agencyMembers.userId,
          agencyUserId: agencies.userId,
          phoenixRate: agencies.phoenixRate,
          campaignRate: agencies.campaignRate,
        })
        .from(agencyMembers)
        .innerJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
        .innerJoin(users, eq(users.id, agencyMembers.userId))
        .innerJoin(sql`users owner`, sql`owner.id = ${agencies.userId}`)
        // an inactive group's rates pay nobody: its members' money goes as if they had no agency
        .where(
          and(eq(users.role, 'agencymember'), sql`owner.role = 'agency'`, eq(agencies.status, 'active')),
        );
      const referrerRows = await db
        .select({ userId: users.id, referrerId: users.referrerId, percent: sql<string>`r.earn_percent` })
        .from(users)
        .innerJoin(sql`users r`, sql`r.id = ${users.referrerId}`)
        .where(sql`r.earn_percent > 0`);
      // blocked traffic sources still in force (an `until` passing later is checked at decision time)
      const blockRows = await db
        .select({
          campaignId: blockedSources.campaignId,
          siteId: blockedSources.siteId,
          widgetId: blockedSources.widgetId,
          until: blockedSources.until,
        })
        .from(blockedSources)
        .where(sql`${blockedSources.until} is null or ${blockedSources.until} > now()`);
      return {
        campaigns: campaignRows,
        banners: bannerRows,
        widgets: widgetRows,
        blocks: blockRows,
        agencyOf: new Map(agencyRows.map((r) => [r.memberId, r.agencyUserId])),
        groupRatesOf: new Map(
          agencyRows.map((r) => [
            r.memberId,
            { phoenixBp: basisPoints(r.phoenixRate), campaignBp: basisPoints(r.campaignRate) },
          ]),
        ),
        referrerOf: new Map(
          referrerRows.map((r) => [r.userId, { userId: r.referrerId as number, bp: basisPoints(r.percent) }]),
        ),
      };
    },

    /** Impressions and clicks per creative since a moment, from the rollups (topctr's observed CTR). */
    async creativePerformance(since: Date) {
      return db
        .select({
          bannerId: rollups.bannerId,
          impressions: sql<number>`sum(${rollups.impressions})::float8`,
          clicks: sql<number>`sum(${rollups.clicks})::float8`,
        })
        .from(rollups)
        .where(and(gte(rollups.hour, since), sql`${rollups.bannerId} > 0`))
        .groupBy(rollups.bannerId);
    },

    /** Where a click on a creative that left the index still goes (rare: the campaign stopped since). */
    async destination(bannerId: number, campaignId: number) {
      const [row] = await db
        .select({ url: banners.url, utm: campaigns.utm, trackUrls: campaigns.trackUrls })
        .from(banners)
        .innerJoin(campaigns, eq(campaigns.id, banners.campaignId))
        .where(and(eq(banners.id, bannerId), eq(banners.campaignId, campaignId)));
      return row ? { url: row.url, utm: row.utm, trackUrls: [] as string[] } : null;
    },

    /**
     * The flush of buffered impressions and views: the raw events and the rollup increments (theirs and
     * the buffered ones without an event) in one transaction, so events and rollups always agree.
     */
    async writeBuffered(batch: Buffered[]) {
      if (batch.length === 0) return;
      const raw = batch.filter(isEvent);
      await db.transaction(async (tx) => {
        await insertEvents(tx, raw);
        await upsertRollups(tx, mergeDeltas(batch));
      });
    },

    /**
     * Deletes up to `limit` raw events older than `before` (one bounded statement: the retention job calls
     * it until it deletes fewer); returns how many it deleted.
     */
    async deleteEventsBefore(before: Date, limit: number): Promise<number> {
      const result = await db.execute(sql`
        with gone as (
          delete from events where ctid = any(array(
            select ctid from events where at < ${before.toISOString()}::timestamptz limit ${limit}))
          returning 1)
        select count(*)::int as n from gone`);
      // both drivers answer {rows}; the shared Db type cannot say so
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    },

    /**
     * Writes a batch of clicks in one transaction (group commit): each click row once (a token key already
     * written is a replay: not written, not charged), and for the charged ones the campaign debits (never
     * below zero: the campaigns are locked and each click charged only while its balance covers it), the
     * credits of publisher, agency and referrers with their ledger rows and the platform's income (the
     * engine adds the clicks to its buffered rollups). Returns each click's outcome, in order.
     */
    async commitClicks(batch: ClickWrite[]): Promise<ClickOutcome[]> {
      // one statement (charge-clicks.ts); two batches that lock the same users in another order (two
      // instances, or two batches beside a long queue) can deadlock: PostgreSQL aborts one, which is retried
      for (let attempt = 1; ; attempt++) {
        try {
          return await chargeClicks(db, batch);
        } catch (err) {
          if (attempt >= 3 || !isRetryable(err)) throw err;
        }
      }
    },

    /**
     * Records a conversion of a charged click once: the first postback sets it and counts it in the
     * rollups; a repeat changes nothing. Null when no charged click has this id.
     */
    async convert(clickId: string, sum: bigint | null, status: string | null, at: Date) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(clicks)
          .set({ convertedAt: at, conversionSum: sum, conversionStatus: status })
          .where(and(eq(clicks.clickId, clickId), eq(clicks.status, 'charged'), isNull(clicks.convertedAt)))
          .returning();
        if (!row) {
          const [known] = await tx
            .select({ id: clicks.id })
            .from(clicks)
            .where(and(eq(clicks.clickId, clickId), eq(clicks.status, 'charged')));
          return known ? 'repeat' : null;
        }
        await upsertRollups(tx, [
          {
            hour: hourOf(at),
            campaignId: row.campaignId,
            bannerId: row.bannerId,
            siteId: row.siteId,
            widgetId: row.widgetId,
            country: row.country,
            city: row.city,
            device: row.device,
            os: row.os,
            browser: row.browser,
            conversions: 1,
          },
        ]);
        return 'counted';
      });
    },

    /** Whether a charged click has this public id. */
    async isCharged(clickId: string) {
      const [known] = await db
        .select({ id: clicks.id })
        .from(clicks)
        .where(and(eq(clicks.clickId, clickId), eq(clicks.status, 'charged')));
      return Boolean(known);
    },

    /** Counts clicks on tokens we did not sign. */
    async reject(reason: string, n: number, at: Date) {
      await db
        .insert(clickRejections)
        .values({ hour: hourOf(at), reason, count: n })
        .onConflictDoUpdate({
          target: [clickRejections.hour, clickRejections.reason],
          set: { count: sql`${clickRejections.count} + excluded.count` },
        });
    },

    /** Today's charged clicks and spend per campaign (UTC day): seeds the shared counters after a restart. */
    async todaysCharges(dayStart: Date) {
      return db
        .select({
          campaignId: clicks.campaignId,
          clicks: sql<number>`count(*)::int`,
          spent: sql<string>`coalesce(sum(${clicks.price}), 0)::text`,
        })
        .from(clicks)
        .where(and(eq(clicks.status, 'charged'), gte(clicks.createdAt, dayStart)))
        .groupBy(clicks.campaignId);
    },
  };
}
export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
