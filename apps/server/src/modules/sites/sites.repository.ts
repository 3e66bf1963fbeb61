import { fromMicros, type Site, type SiteInput, siteParser, toMicros } from '@adp/contract';
import { and, count, desc, eq, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { materials, sites } from '../../db/schema/index.ts';
import { existingIds } from '../../lib/existing-ids.ts';
import { changesDecision, type ModerationColumns } from '../../lib/moderation.ts';
import { containsPattern, pageOf } from '../../lib/paging.ts';
import { moderationNotice, notify } from '../notifications/notices.ts';
import type { ParsedMaterial } from './parser.ts';

type SiteRow = typeof sites.$inferSelect;
type MaterialRow = typeof materials.$inferSelect;

export function toSite(row: SiteRow, materialsCount = 0): Site {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    title: row.title,
    domain: row.domain,
    category: row.category as Site['category'],
    country: row.country,
    language: row.language,
    timezone: row.timezone,
    tags: row.tags,
    blacklist_words: row.blacklistWords,
    materials_lifetime: row.materialsLifetime,
    url_mask: row.urlMask,
    use_noindex: row.useNoindex,
    mark_traffic: row.markTraffic,
    advanced_stats: row.advancedStats,
    stats_visible: row.statsVisible,
    stats_on_scroll: row.statsOnScroll,
    strict_items_amount: row.strictItemsAmount,
    is_infinite: row.isInfinite,
    payment_method: row.paymentMethod as Site['payment_method'],
    cpm_rate: fromMicros(row.cpmRate),
    agency_rate: Number(row.agencyRate),
    billing_widget: row.billingWidget === null ? null : String(row.billingWidget),
    affiliate_user_id: row.affiliateUserId === null ? null : String(row.affiliateUserId),
    affiliate_earn_percent: Number(row.affiliateEarnPercent),
    status: row.status as Site['status'],
    default_advertorial_url: row.defaultAdvertorialUrl,
    parser: siteParser.parse(row.parser),
    moderation: row.moderation as Site['moderation'],
    moderation_reason: row.moderationReason,
    materials_count: materialsCount,
    created_at: row.createdAt.toISOString(),
  };
}

export function toMaterial(row: MaterialRow) {
  return {
    _id: String(row.id),
    site_id: String(row.siteId),
    url: row.url,
    title: row.title,
    description: row.description,
    image: row.image,
    category: row.category,
    language: row.language,
    published_at: row.publishedAt?.toISOString() ?? null,
    expires_at: row.expiresAt.toISOString(),
  };
}

/** Site input → columns. */
export function siteColumns(input: Partial<Omit<SiteInput, 'user_id'>>) {
  const c: Partial<typeof sites.$inferInsert> = {};
  const set = <K extends keyof typeof sites.$inferInsert>(
    k: K,
    v: (typeof sites.$inferInsert)[K] | undefined,
  ) => {
    if (v !== undefined) c[k] = v;
  };
  set('title', input.title);
  set('domain', input.domain);
  set('category', input.category);
  set('country', input.country);
  set('language', input.language);
  set('timezone', input.timezone);
  set('tags', input.tags);
  set('blacklistWords', input.blacklist_words);
  set('materialsLifetime', input.materials_lifetime);
  set('urlMask', input.url_mask);
  set('useNoindex', input.use_noindex);
  set('markTraffic', input.mark_traffic);
  set('advancedStats', input.advanced_stats);
  set('statsVisible', input.stats_visible);
  set('statsOnScroll', input.stats_on_scroll);
  set('strictItemsAmount', input.strict_items_amount);
  set('isInfinite', input.is_infinite);
  set('paymentMethod', input.payment_method);
  set('cpmRate', input.cpm_rate === undefined ? undefined : toMicros(input.cpm_rate));
  set('agencyRate', input.agency_rate?.toFixed(2));
  set(
    'billingWidget',
    input.billing_widget === undefined
      ? undefined
      : input.billing_widget === null
        ? null
        : Number(input.billing_widget),
  );
  set(
    'affiliateUserId',
    input.affiliate_user_id === undefined
      ? undefined
      : input.affiliate_user_id === null
        ? null
        : Number(input.affiliate_user_id),
  );
  set('affiliateEarnPercent', input.affiliate_earn_percent?.toFixed(2));
  set('status', input.status);
  set('defaultAdvertorialUrl', input.default_advertorial_url);
  set('parser', input.parser as Record<string, unknown> | undefined);
  return c;
}

export function createSitesRepository(db: Db) {
  // raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
  const materialsCount = sql<number>`(select count(*)::int from materials m where m.site_id = sites.id and m.expires_at > now())`;
  return {
    async find(id: number) {
      const [row] = await db.select({ s: sites, n: materialsCount }).from(sites).where(eq(sites.id, id));
      return row ? toSite(row.s, row.n) : undefined;
    },
    async row(id: number) {
      const [row] = await db.select().from(sites).where(eq(sites.id, id));
      return row;
    },
    async findByDomain(domain: string) {
      const [row] = await db.select().from(sites).where(eq(sites.domain, domain));
      return row;
    },
    async list(q: {
      page: number;
      limit: number;
      userIds?: number[] | undefined;
      status?: string | undefined;
      moderation?: string | undefined;
      category?: string | undefined;
      search?: string | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.userIds) conds.push(inArray(sites.userId, q.userIds));
      if (q.status) conds.push(eq(sites.status, q.status));
      if (q.moderation) conds.push(eq(sites.moderation, q.moderation));
      if (q.category) conds.push(eq(sites.category, q.category));
      if (q.search) {
        const like = containsPattern(q.search);
        conds.push(or(ilike(sites.title, like), ilike(sites.domain, like))!);
      }
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(sites).where(where),
        (w) =>
          db
            .select({ s: sites, n: materialsCount })
            .from(sites)
            .where(where)
            .orderBy(desc(sites.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toSite(r.s, r.n),
      );
    },
    async insert(values: typeof sites.$inferInsert) {
      const [row] = await db.insert(sites).values(values).returning();
      return row!;
    },
    async update(id: number, values: Partial<typeof sites.$inferInsert>) {
      const [row] = await db
        .update(sites)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(sites.id, id))
        .returning();
      return row;
    },
    /** A moderator's decision and the owner's notification of it, in one transaction. */
    async decide(id: number, columns: ModerationColumns) {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(sites)
          .set({ ...columns, updatedAt: new Date() })
          .where(and(eq(sites.id, id), changesDecision(sites, columns)))
          .returning({ id: sites.id, userId: sites.userId, domain: sites.domain });
        if (row) await notify(tx, moderationNotice('site', { ...row, name: row.domain }, columns));
      });
    },
    async remove(id: number) {
      await db.delete(sites).where(eq(sites.id, id));
    },
    /** Stores parsed materials; an article already known keeps its row and gets fresh data and expiry. */
    async storeMaterials(siteId: number, items: ParsedMaterial[], lifetimeDays: number) {
      const expiresAt = new Date(Date.now() + lifetimeDays * 86_400_000);
      let stored = 0;
      for (const m of items) {
        const values = {
          siteId,
          url: m.url,
          title: m.title,
          description: m.description,
          image: m.image,
          category: m.category,
          language: m.language,
          publishedAt: m.published_at ? new Date(m.published_at) : null,
          expiresAt,
        };
        await db
          .insert(materials)
          .values(values)
          .onConflictDoUpdate({ target: [materials.siteId, materials.url], set: { ...values } });
        stored += 1;
      }
      await db.update(sites).set({ parsedAt: new Date() }).where(eq(sites.id, siteId));
      return stored;
    },
    async listMaterials(siteId: number, page: number, limit: number) {
      const where = and(eq(materials.siteId, siteId), sql`${materials.expiresAt} > now()`);
      return pageOf(
        { page, limit },
        db.select({ n: count() }).from(materials).where(where),
        (w) =>
          db
            .select()
            .from(materials)
            .where(where)
            .orderBy(desc(materials.publishedAt), desc(materials.id))
            .limit(w.limit)
            .offset(w.offset),
        toMaterial,
      );
    },
    async clearMaterials(siteId: number) {
      const deleted = await db
        .delete(materials)
        .where(eq(materials.siteId, siteId))
        .returning({ id: materials.id });
      return deleted.length;
    },
    async purgeExpired() {
      const deleted = await db
        .delete(materials)
        .where(lt(materials.expiresAt, new Date()))
        .returning({ id: materials.id });
      return deleted.length;
    },
    /** Which of these ids are sites (in any state). */
    existingIds: (ids: number[]) => existingIds(db, sites, ids),
    /** Which of these ids are sites that are live: active and approved by a moderator. */
    async liveIds(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: sites.id })
        .from(sites)
        .where(and(inArray(sites.id, ids), eq(sites.status, 'active'), eq(sites.moderation, 'approved')));
      return new Set(rows.map((r) => r.id));
    },
    async activeApprovedIds() {
      const rows = await db
        .select({ id: sites.id })
        .from(sites)
        .where(and(eq(sites.status, 'active'), eq(sites.moderation, 'approved')));
      return rows.map((r) => r.id);
    },
  };
}
export type SitesRepository = ReturnType<typeof createSitesRepository>;
