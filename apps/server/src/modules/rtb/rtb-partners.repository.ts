import { fromMicros, type RtbPartner } from '@adp/contract';
import { asc, count, eq, ilike } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rtbPartners } from '../../db/schema/index.ts';
import { existingIds } from '../../lib/existing-ids.ts';
import { containsPattern, pageOf } from '../../lib/paging.ts';

export type RtbPartnerRow = typeof rtbPartners.$inferSelect;

/** The API's view of a partner; `endpoint` is the URL the partner posts its bid requests to. */
/**
 * The answer's shape of a partner. `reveal` is false for a reader who may not change partners (a read-only
 * admin): the key is a credential (whoever holds it bids as the partner), so such a reader sees only its
 * first characters, in the key and in the endpoint.
 */
export function toRtbPartner(row: RtbPartnerRow, publicUrl: string, reveal = true): RtbPartner {
  const key = reveal ? row.key : maskKey(row.key);
  return {
    _id: String(row.id),
    name: row.name,
    key,
    status: row.status === 'active' ? 'active' : 'inactive',
    max_request_ms: row.maxRequestMs,
    daily_limit: row.dailyLimit === null ? null : fromMicros(row.dailyLimit),
    currency: row.currency,
    endpoint: `${publicUrl}/rtb/openrtb2/${key}`,
    created_at: row.createdAt.toISOString(),
  };
}

/** The first four characters of a key and an ellipsis: enough to tell keys apart, useless to bid with. */
export const maskKey = (key: string) => `${key.slice(0, 4)}…`;

export function createRtbPartnersRepository(db: Db) {
  return {
    async list(q: { page: number; limit: number; q?: string | undefined }) {
      const where = q.q ? ilike(rtbPartners.name, containsPattern(q.q)) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(rtbPartners).where(where),
        (w) =>
          db
            .select()
            .from(rtbPartners)
            .where(where)
            .orderBy(asc(rtbPartners.id))
            .limit(w.limit)
            .offset(w.offset),
        (row) => row,
      );
    },
    async find(id: number): Promise<RtbPartnerRow | undefined> {
      const [row] = await db.select().from(rtbPartners).where(eq(rtbPartners.id, id));
      return row;
    },
    /** Every partner, for the bidder's in-memory table (a handful of rows). */
    async all(): Promise<RtbPartnerRow[]> {
      return db.select().from(rtbPartners);
    },
    /** Which of these ids are RTB partners. */
    existingIds: (ids: number[]) => existingIds(db, rtbPartners, ids),
    async insert(values: typeof rtbPartners.$inferInsert): Promise<RtbPartnerRow> {
      const [row] = await db.insert(rtbPartners).values(values).returning();
      return row as RtbPartnerRow;
    },
    async update(id: number, values: Partial<typeof rtbPartners.$inferInsert>) {
      const [row] = await db
        .update(rtbPartners)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(rtbPartners.id, id))
        .returning();
      return row;
    },
    async remove(id: number): Promise<boolean> {
      const rows = await db
        .delete(rtbPartners)
        .where(eq(rtbPartners.id, id))
        .returning({ id: rtbPartners.id });
      return rows.length > 0;
    },
  };
}
export type RtbPartnersRepository = ReturnType<typeof createRtbPartnersRepository>;
