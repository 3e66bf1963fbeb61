import type { BlockedSource } from '@adp/contract';
import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { blockedSources, sites, widgets } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';

export type BlockedSourceRow = typeof blockedSources.$inferSelect;

const idOrNull = (v: number | null) => (v === null ? null : String(v));

/** Blocked traffic sources (SPEC.md section 4); delivery reads them in `loadIndex`. */
export function createSourcesRepository(db: Db) {
  const joined = () =>
    db
      .select({ b: blockedSources, siteDomain: sites.domain, widgetTitle: widgets.title })
      .from(blockedSources)
      .leftJoin(widgets, eq(widgets.id, blockedSources.widgetId))
      .leftJoin(sites, sql`${sites.id} = coalesce(${blockedSources.siteId}, ${widgets.siteId})`);
  const toBlockedSource = (
    r: { b: BlockedSourceRow; siteDomain: string | null; widgetTitle: string | null },
    now = new Date(),
  ): BlockedSource => ({
    _id: String(r.b.id),
    campaign_id: idOrNull(r.b.campaignId),
    site_id: idOrNull(r.b.siteId),
    widget_id: idOrNull(r.b.widgetId),
    site_domain: r.siteDomain ?? '',
    widget_title: r.b.widgetId === null ? null : (r.widgetTitle ?? ''),
    reason: r.b.reason,
    until: r.b.until ? r.b.until.toISOString() : null,
    active: r.b.until === null || r.b.until.getTime() > now.getTime(),
    created_by: idOrNull(r.b.createdBy),
    created_at: r.b.createdAt.toISOString(),
    updated_at: r.b.updatedAt.toISOString(),
  });
  return {
    async row(id: number): Promise<BlockedSourceRow | undefined> {
      const [row] = await db.select().from(blockedSources).where(eq(blockedSources.id, id));
      return row;
    },
    async find(id: number): Promise<BlockedSource | undefined> {
      const [row] = await joined().where(eq(blockedSources.id, id));
      return row && toBlockedSource(row);
    },
    /** One campaign's blocks, or (`campaignId` null) the blocks of every campaign; `undefined` = all blocks. */
    async list(q: { page: number; limit: number; campaignId?: number | null | undefined }) {
      const conds: SQL[] = [];
      if (q.campaignId === null) conds.push(isNull(blockedSources.campaignId));
      else if (q.campaignId !== undefined) conds.push(eq(blockedSources.campaignId, q.campaignId));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(blockedSources).where(where),
        (w) => joined().where(where).orderBy(desc(blockedSources.id)).limit(w.limit).offset(w.offset),
        (r) => toBlockedSource(r),
      );
    },
    async siteExists(id: number) {
      const [row] = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, id));
      return Boolean(row);
    },
    async widgetExists(id: number) {
      const [row] = await db.select({ id: widgets.id }).from(widgets).where(eq(widgets.id, id));
      return Boolean(row);
    },
    async insert(values: typeof blockedSources.$inferInsert) {
      const [row] = await db.insert(blockedSources).values(values).returning({ id: blockedSources.id });
      return row!.id;
    },
    async update(id: number, values: Partial<typeof blockedSources.$inferInsert>) {
      await db
        .update(blockedSources)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(blockedSources.id, id));
    },
    async remove(id: number) {
      await db.delete(blockedSources).where(eq(blockedSources.id, id));
    },
  };
}
export type SourcesRepository = ReturnType<typeof createSourcesRepository>;
