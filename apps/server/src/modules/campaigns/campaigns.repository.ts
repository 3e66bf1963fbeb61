import {
  type Campaign,
  type CampaignInput,
  type CampaignPaymentsKind,
  campaignOpenRtb,
  campaignPaymentKinds,
  fromMicros,
  isIabCategory,
  toMicros,
} from '@adp/contract';
import { and, asc, count, desc, eq, ilike, inArray, not, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { banners, campaignLedger, campaigns } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/tx.ts';
import { changesDecision, type ModerationColumns } from '../../lib/moderation.ts';
import { containsPattern, pageOf } from '../../lib/paging.ts';
import { moderationNotice, notify } from '../notifications/notices.ts';

export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignValues = Partial<typeof campaigns.$inferInsert>;

export function toCampaign(row: CampaignRow, bannersCount: number): Campaign {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    title: row.title,
    adstype: row.adstype as Campaign['adstype'],
    clickprice: fromMicros(row.clickprice),
    dailyclicks: row.dailyclicks,
    daily_budget: row.dailyBudget === null ? null : fromMicros(row.dailyBudget),
    pacing: row.pacing === 'asap' ? 'asap' : 'even',
    weight: row.weight,
    click_filter: row.clickFilter as Campaign['click_filter'],
    utm: row.utm,
    track_urls: row.trackUrls,
    src_code: row.srcCode,
    site_id: row.siteId === null ? null : String(row.siteId),
    widgets: row.widgetIds,
    brand_name: row.brandName,
    sub_category: row.subCategory,
    // the known codes only (those carried over from a free-text sub-category may not be)
    iab_categories: row.iabCategories.filter(isIabCategory),
    cpc_feed_processor: row.cpcFeedProcessor as Campaign['cpc_feed_processor'],
    hide_clicks_sites: row.hideClicksSites,
    on_image_load: row.onImageLoad,
    status: row.status as Campaign['status'],
    openrtb: campaignOpenRtb.parse(row.openrtb),
    balance: fromMicros(row.balance),
    moderation: row.moderation as Campaign['moderation'],
    moderation_reason: row.moderationReason,
    target_ctr_status: row.targetCtrStatus as Campaign['target_ctr_status'],
    target_ctr_check_date: row.targetCtrCheckDate?.toISOString() ?? null,
    ip_ranges: row.ipRanges.length,
    banners_count: bannersCount,
    created_at: row.createdAt.toISOString(),
  };
}

/** Campaign input → columns; `status` and `balance` are not here: they have rules of their own. */
export function campaignColumns(input: Partial<Omit<CampaignInput, 'user_id'>>) {
  const c: Partial<typeof campaigns.$inferInsert> = {};
  if (input.title !== undefined) c.title = input.title;
  if (input.adstype !== undefined) c.adstype = input.adstype;
  if (input.clickprice !== undefined) c.clickprice = toMicros(input.clickprice);
  if (input.dailyclicks !== undefined) c.dailyclicks = input.dailyclicks;
  if (input.daily_budget !== undefined)
    c.dailyBudget = input.daily_budget === null ? null : toMicros(input.daily_budget);
  if (input.pacing !== undefined) c.pacing = input.pacing;
  if (input.weight !== undefined) c.weight = input.weight;
  if (input.click_filter !== undefined) c.clickFilter = input.click_filter;
  if (input.utm !== undefined) c.utm = input.utm;
  if (input.track_urls !== undefined) c.trackUrls = input.track_urls;
  if (input.src_code !== undefined) c.srcCode = input.src_code;
  if (input.site_id !== undefined) c.siteId = input.site_id === null ? null : Number(input.site_id);
  if (input.widgets !== undefined) c.widgetIds = input.widgets;
  if (input.brand_name !== undefined) c.brandName = input.brand_name;
  if (input.sub_category !== undefined) c.subCategory = input.sub_category;
  // once each, in the order given
  if (input.iab_categories !== undefined) c.iabCategories = [...new Set(input.iab_categories)];
  if (input.cpc_feed_processor !== undefined) c.cpcFeedProcessor = input.cpc_feed_processor;
  if (input.hide_clicks_sites !== undefined) c.hideClicksSites = input.hide_clicks_sites;
  if (input.on_image_load !== undefined) c.onImageLoad = input.on_image_load;
  if (input.openrtb !== undefined) c.openrtb = input.openrtb as Record<string, unknown>;
  return c;
}

// raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
const bannersCount = sql<number>`(select count(*)::int from banners b where b.campaign_id = campaigns.id)`;

/** A row of the campaign's own ledger as the API shows it. */
export const campaignPaymentOf = (r: typeof campaignLedger.$inferSelect) => ({
  _id: String(r.id),
  campaign_id: String(r.campaignId),
  type: r.type as 'campaign_funding',
  sum: fromMicros(r.sum),
  balance_after: fromMicros(r.balanceAfter),
  actor_id: r.actorId === null ? null : String(r.actorId),
  date: r.createdAt.toISOString(),
});

export function createCampaignsRepository(db: Db) {
  return {
    async row(id: number) {
      const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
      return row;
    },
    async find(id: number) {
      const [row] = await db
        .select({ c: campaigns, n: bannersCount })
        .from(campaigns)
        .where(eq(campaigns.id, id));
      return row ? toCampaign(row.c, row.n) : undefined;
    },
    async titleTaken(title: string, exceptId?: number) {
      const [row] = await db
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(sql`lower(${campaigns.title}) = lower(${title})`);
      return Boolean(row && row.id !== exceptId);
    },
    async list(q: {
      page: number;
      limit: number;
      userIds?: number[] | undefined;
      status?: string | undefined;
      moderation?: string | undefined;
      adstype?: string | undefined;
      search?: string | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.userIds) conds.push(inArray(campaigns.userId, q.userIds));
      if (q.status) conds.push(eq(campaigns.status, q.status));
      if (q.moderation) conds.push(eq(campaigns.moderation, q.moderation));
      if (q.adstype) conds.push(eq(campaigns.adstype, q.adstype));
      if (q.search) conds.push(ilike(campaigns.title, containsPattern(q.search)));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(campaigns).where(where),
        (w) =>
          db
            .select({ c: campaigns, n: bannersCount })
            .from(campaigns)
            .where(where)
            .orderBy(desc(campaigns.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toCampaign(r.c, r.n),
      );
    },
    /** Runs `work` in one transaction; the methods taking `tx` join it. */
    transaction<T>(work: (tx: Tx) => Promise<T>) {
      return db.transaction(work);
    },
    async insert(values: typeof campaigns.$inferInsert, tx: DbOrTx = db) {
      const [row] = await tx.insert(campaigns).values(values).returning();
      return row!;
    },
    /** Campaigns whose target CTR is checked automatically (OpenRTB on, a target, auto on), by id. */
    async autoTargetCtrRows() {
      const rtb = campaigns.openrtb;
      return db
        .select()
        .from(campaigns)
        .where(
          sql`(${rtb}->>'enabled') = 'true' and (${rtb}->>'target_ctr_auto') = 'true' and ${rtb}->'target_ctr' is not null and ${rtb}->'target_ctr' <> 'null'::jsonb`,
        )
        .orderBy(asc(campaigns.id));
    },

    async update(id: number, values: CampaignValues, tx: DbOrTx = db) {
      await tx.update(campaigns).set(values).where(eq(campaigns.id, id));
    },
    /** A moderator's decision and the owner's notification of it, in one transaction. */
    async decide(id: number, columns: ModerationColumns) {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(campaigns)
          .set(columns)
          .where(and(eq(campaigns.id, id), changesDecision(campaigns, columns)))
          .returning({ id: campaigns.id, userId: campaigns.userId, name: campaigns.title });
        if (row) await notify(tx, moderationNotice('campaign', row, columns));
      });
    },
    /** The row, locked until the transaction ends. */
    async lock(tx: Tx, id: number) {
      const [row] = await tx.select().from(campaigns).where(eq(campaigns.id, id)).for('update');
      return row;
    },
    async remove(tx: DbOrTx, id: number) {
      await tx.delete(campaigns).where(eq(campaigns.id, id));
    },
    /** Adds `sum` (signed) to the balance unless that takes it below zero: the new balance, or undefined. */
    async addToBalance(tx: DbOrTx, id: number, sum: bigint) {
      const [updated] = await tx
        .update(campaigns)
        .set({ balance: sql`${campaigns.balance} + ${sum}` })
        .where(and(eq(campaigns.id, id), sql`${campaigns.balance} + ${sum} >= 0`))
        .returning({ balance: campaigns.balance });
      return updated?.balance;
    },
    async insertLedgerEntry(tx: DbOrTx, values: typeof campaignLedger.$inferInsert) {
      const [entry] = await tx.insert(campaignLedger).values(values).returning();
      return entry!;
    },
    /** The campaign's own ledger, newest first: all of it, its payments or its charges. */
    async payments(campaignId: number, page: number, limit: number, kind: CampaignPaymentsKind = 'all') {
      const own = eq(campaignLedger.campaignId, campaignId);
      const moved = inArray(campaignLedger.type, [...campaignPaymentKinds]);
      const where = kind === 'payments' ? and(own, moved) : kind === 'charges' ? and(own, not(moved)) : own;
      return pageOf(
        { page, limit },
        db.select({ n: sql<number>`count(*)::int` }).from(campaignLedger).where(where),
        (w) =>
          db
            .select()
            .from(campaignLedger)
            .where(where)
            .orderBy(desc(campaignLedger.createdAt), desc(campaignLedger.id))
            .limit(w.limit)
            .offset(w.offset),
        campaignPaymentOf,
      );
    },
    /** The campaign's creatives in creation order, as rows. */
    async bannerRows(tx: DbOrTx, campaignId: number) {
      return tx.select().from(banners).where(eq(banners.campaignId, campaignId)).orderBy(asc(banners.id));
    },
    async insertBanner(tx: DbOrTx, values: typeof banners.$inferInsert) {
      await tx.insert(banners).values(values);
    },
  };
}
export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
