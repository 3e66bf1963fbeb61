import type { Promotion, PromotionPage } from '@adp/contract';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { promotionPages, promotions } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';

type PromotionTable = typeof promotions.$inferSelect;
type PageTable = typeof promotionPages.$inferSelect;
/** A promotion with the number of its pages. */
export type PromotionRow = PromotionTable & { pagesCount: number };
/** A promotion page with its promotion's site. */
export type PageRow = PageTable & { siteId: number };

// raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
const pagesCount = sql<number>`(select count(*)::int from promotion_pages pp where pp.promotion_id = promotions.id)`;

export function createPromotionsRepository(db: Db, publicUrl: string) {
  const toPromotion = (row: PromotionRow): Promotion => ({
    _id: String(row.id),
    user_id: String(row.userId),
    site_id: String(row.siteId),
    title: row.title,
    description: row.description,
    url: row.url,
    status: row.status as Promotion['status'],
    starts_at: row.startsAt?.toISOString() ?? null,
    ends_at: row.endsAt?.toISOString() ?? null,
    pages_count: row.pagesCount,
    created_at: row.createdAt.toISOString(),
  });
  const toPage = (row: PageRow): PromotionPage => ({
    _id: String(row.id),
    user_id: String(row.userId),
    site_id: String(row.siteId),
    promotion_id: String(row.promotionId),
    title: row.title,
    text: row.text,
    url: row.url,
    status: row.status as PromotionPage['status'],
    image: row.image ? `${publicUrl}/uploads/${row.image}` : null,
    created_at: row.createdAt.toISOString(),
  });
  const promotionRow = (r: { p: PromotionTable; n: number }): PromotionRow => ({ ...r.p, pagesCount: r.n });
  const pageRow = (r: { pg: PageTable; siteId: number }): PageRow => ({ ...r.pg, siteId: r.siteId });

  return {
    toPromotion,
    toPage,
    async row(id: number) {
      const [row] = await db
        .select({ p: promotions, n: pagesCount })
        .from(promotions)
        .where(eq(promotions.id, id));
      return row && promotionRow(row);
    },
    async list(q: {
      page: number;
      limit: number;
      userIds?: number[] | undefined;
      siteId?: number | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.userIds) conds.push(inArray(promotions.userId, q.userIds));
      if (q.siteId !== undefined) conds.push(eq(promotions.siteId, q.siteId));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(promotions).where(where),
        (w) =>
          db
            .select({ p: promotions, n: pagesCount })
            .from(promotions)
            .where(where)
            .orderBy(desc(promotions.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toPromotion(promotionRow(r)),
      );
    },
    async insert(values: typeof promotions.$inferInsert) {
      const [row] = await db.insert(promotions).values(values).returning();
      return { ...row!, pagesCount: 0 };
    },
    async update(row: PromotionRow, values: Partial<typeof promotions.$inferInsert>) {
      const [updated] = await db.update(promotions).set(values).where(eq(promotions.id, row.id)).returning();
      return { ...updated!, pagesCount: row.pagesCount };
    },
    /** Deletes the promotion (its pages go with it): the stored images of those pages, to delete. */
    async remove(id: number): Promise<string[]> {
      return db.transaction(async (tx) => {
        const pages = await tx
          .select({ image: promotionPages.image })
          .from(promotionPages)
          .where(eq(promotionPages.promotionId, id));
        await tx.delete(promotions).where(eq(promotions.id, id));
        return pages.flatMap((p) => (p.image ? [p.image] : []));
      });
    },

    /** The stored images of the pages of a site's promotions (deleted with the site). */
    async siteImages(siteId: number): Promise<string[]> {
      const pages = await db
        .select({ image: promotionPages.image })
        .from(promotionPages)
        .innerJoin(promotions, eq(promotions.id, promotionPages.promotionId))
        .where(eq(promotions.siteId, siteId));
      return pages.flatMap((p) => (p.image ? [p.image] : []));
    },

    async pageRow(id: number) {
      const [row] = await db
        .select({ pg: promotionPages, siteId: promotions.siteId })
        .from(promotionPages)
        .innerJoin(promotions, eq(promotions.id, promotionPages.promotionId))
        .where(eq(promotionPages.id, id));
      return row && pageRow(row);
    },
    async listPages(q: {
      page: number;
      limit: number;
      userIds?: number[] | undefined;
      promotionId?: number | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.userIds) conds.push(inArray(promotionPages.userId, q.userIds));
      if (q.promotionId !== undefined) conds.push(eq(promotionPages.promotionId, q.promotionId));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(promotionPages).where(where),
        (w) =>
          db
            .select({ pg: promotionPages, siteId: promotions.siteId })
            .from(promotionPages)
            .innerJoin(promotions, eq(promotions.id, promotionPages.promotionId))
            .where(where)
            .orderBy(desc(promotionPages.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toPage(pageRow(r)),
      );
    },
    async insertPage(values: typeof promotionPages.$inferInsert, siteId: number) {
      const [row] = await db.insert(promotionPages).values(values).returning();
      return { ...row!, siteId };
    },
    async updatePage(row: PageRow, values: Partial<typeof promotionPages.$inferInsert>) {
      const [updated] = await db
        .update(promotionPages)
        .set(values)
        .where(eq(promotionPages.id, row.id))
        .returning();
      return { ...updated!, siteId: row.siteId };
    },
    async removePage(id: number) {
      await db.delete(promotionPages).where(eq(promotionPages.id, id));
    },
  };
}
export type PromotionsRepository = ReturnType<typeof createPromotionsRepository>;
