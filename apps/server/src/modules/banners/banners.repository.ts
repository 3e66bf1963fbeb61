import { type Banner, targeting } from '@adp/contract';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { banners } from '../../db/schema/index.ts';
import { changesDecision, type ModerationColumns } from '../../lib/moderation.ts';
import { pageOf } from '../../lib/paging.ts';
import { moderationNotice, notify } from '../notifications/notices.ts';

export type BannerRow = typeof banners.$inferSelect;
export type BannerValues = Partial<typeof banners.$inferInsert>;

export function createBannersRepository(db: Db, publicUrl: string) {
  const url = (key: string) => `${publicUrl}/uploads/${key}`;
  const toBanner = (row: BannerRow): Banner => ({
    _id: String(row.id),
    user_id: String(row.userId),
    campaign_id: String(row.campaignId),
    title: row.title,
    text: row.text,
    url: row.url,
    status: row.status as Banner['status'],
    targeting: targeting.parse(row.targeting),
    moderation: row.moderation as Banner['moderation'],
    moderation_reason: row.moderationReason,
    images: row.images
      ? (Object.fromEntries(Object.entries(row.images).map(([k, v]) => [k, url(v)])) as Banner['images'])
      : null,
    video: row.video ? url(row.video) : null,
    created_at: row.createdAt.toISOString(),
  });

  return {
    toBanner,
    async row(id: number) {
      const [row] = await db.select().from(banners).where(eq(banners.id, id));
      return row;
    },
    async list(q: {
      page: number;
      limit: number;
      userIds?: number[] | undefined;
      campaignId?: number | undefined;
      moderation?: string | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.userIds) conds.push(inArray(banners.userId, q.userIds));
      if (q.campaignId !== undefined) conds.push(eq(banners.campaignId, q.campaignId));
      if (q.moderation) conds.push(eq(banners.moderation, q.moderation));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(banners).where(where),
        (w) =>
          db.select().from(banners).where(where).orderBy(desc(banners.id)).limit(w.limit).offset(w.offset),
        toBanner,
      );
    },
    async insert(values: typeof banners.$inferInsert) {
      const [row] = await db.insert(banners).values(values).returning();
      return row!;
    },
    async update(id: number, values: BannerValues) {
      const [row] = await db
        .update(banners)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(banners.id, id))
        .returning();
      return row!;
    },
    /** A moderator's decision and the owner's notification of it, in one transaction. */
    async decide(id: number, columns: ModerationColumns) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(banners)
          .set({ ...columns, updatedAt: new Date() })
          .where(and(eq(banners.id, id), changesDecision(banners, columns)))
          .returning();
        // the same decision again: nothing changes, nobody is told twice
        // (undefined: deleted meanwhile)
        if (!row) return (await tx.select().from(banners).where(eq(banners.id, id)))[0];
        await notify(tx, moderationNotice('banner', { ...row, name: row.title }, columns));
        return row;
      });
    },
    async remove(id: number) {
      await db.delete(banners).where(eq(banners.id, id));
    },
  };
}
export type BannersRepository = ReturnType<typeof createBannersRepository>;
