import type { Pixel } from '@adp/contract';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pixels } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';
import { pixelCode } from './pixels.audience.ts';

type Row = typeof pixels.$inferSelect;
/** A pixel with the size of its audience. */
export type PixelRecord = Row & { visitors: number };

// raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
const visitorsCount = sql<number>`(select count(*)::int from pixel_visitors pv where pv.pixel_id = pixels.id)`;

export function createPixelsRepository(db: Db, publicUrl: string) {
  const record = (r: { p: Row; n: number }): PixelRecord => ({ ...r.p, visitors: Number(r.n) });
  const toPixel = (row: PixelRecord): Pixel => ({
    _id: String(row.id),
    user_id: String(row.userId),
    title: row.title,
    all_pages: row.allPages,
    code: pixelCode(publicUrl, row.id),
    visitors: row.visitors,
    created_at: row.createdAt.toISOString(),
  });
  return {
    toPixel,
    async row(id: number): Promise<PixelRecord | undefined> {
      const [row] = await db.select({ p: pixels, n: visitorsCount }).from(pixels).where(eq(pixels.id, id));
      return row && record(row);
    },
    async list(q: {
      page: number;
      limit: number;
      userIds?: number[] | undefined;
      userId?: number | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.userIds) conds.push(inArray(pixels.userId, q.userIds));
      if (q.userId !== undefined) conds.push(eq(pixels.userId, q.userId));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(pixels).where(where),
        (w) =>
          db
            .select({ p: pixels, n: visitorsCount })
            .from(pixels)
            .where(where)
            .orderBy(desc(pixels.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toPixel(record(r)),
      );
    },
    async insert(values: typeof pixels.$inferInsert) {
      const [row] = await db.insert(pixels).values(values).returning();
      return { ...row!, visitors: 0 };
    },
    async update(id: number, values: Partial<typeof pixels.$inferInsert>) {
      await db.update(pixels).set(values).where(eq(pixels.id, id));
    },
    async remove(id: number) {
      await db.delete(pixels).where(eq(pixels.id, id));
    },
    /** Which of these pixel ids belong to `userId` (unknown ids and other users' are left out). */
    async ownedBy(userId: number, ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: pixels.id })
        .from(pixels)
        .where(and(eq(pixels.userId, userId), inArray(pixels.id, ids)));
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type PixelsRepository = ReturnType<typeof createPixelsRepository>;
