import { type Campaign, type CampaignInput, campaignOpenRtb, fromMicros, toMicros } from '@adp/contract';
import { and, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { campaigns } from '../../db/schema/index.ts';
import { containsPattern, pageOf } from '../../lib/paging.ts';

export type CampaignRow = typeof campaigns.$inferSelect;

export function toCampaign(row: CampaignRow, bannersCount: number): Campaign {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    title: row.title,
    adstype: row.adstype as Campaign['adstype'],
    clickprice: fromMicros(row.clickprice),
    dailyclicks: row.dailyclicks,
    weight: row.weight,
    click_filter: row.clickFilter as Campaign['click_filter'],
    utm: row.utm,
    track_urls: row.trackUrls,
    src_code: row.srcCode,
    site_id: row.siteId === null ? null : String(row.siteId),
    widgets: row.widgetIds,
    brand_name: row.brandName,
    sub_category: row.subCategory,
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
  if (input.weight !== undefined) c.weight = input.weight;
  if (input.click_filter !== undefined) c.clickFilter = input.click_filter;
  if (input.utm !== undefined) c.utm = input.utm;
  if (input.track_urls !== undefined) c.trackUrls = input.track_urls;
  if (input.src_code !== undefined) c.srcCode = input.src_code;
  if (input.site_id !== undefined) c.siteId = input.site_id === null ? null : Number(input.site_id);
  if (input.widgets !== undefined) c.widgetIds = input.widgets;
  if (input.brand_name !== undefined) c.brandName = input.brand_name;
  if (input.sub_category !== undefined) c.subCategory = input.sub_category;
  if (input.cpc_feed_processor !== undefined) c.cpcFeedProcessor = input.cpc_feed_processor;
  if (input.hide_clicks_sites !== undefined) c.hideClicksSites = input.hide_clicks_sites;
  if (input.on_image_load !== undefined) c.onImageLoad = input.on_image_load;
  if (input.openrtb !== undefined) c.openrtb = input.openrtb as Record<string, unknown>;
  return c;
}

// raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
const bannersCount = sql<number>`(select count(*)::int from banners b where b.campaign_id = campaigns.id)`;

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
  };
}
export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
