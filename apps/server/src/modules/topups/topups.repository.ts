import { fromMicros, type Topup } from '@adp/contract';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { paymentEvents, topups } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/tx.ts';
import { pageOf } from '../../lib/paging.ts';

export type TopupRow = typeof topups.$inferSelect;

export function toTopup(row: TopupRow): Topup {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    provider: row.provider as Topup['provider'],
    sum: fromMicros(row.sum),
    status: row.status as Topup['status'],
    date: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}

/** Which top-up a provider's answer is about: ours by id and link token, or Stripe's by its session id. */
export type TopupMatch = { id: number; token?: string } | { provider: string; externalId: string };

const matching = (m: TopupMatch): SQL => {
  if (!('id' in m)) return and(eq(topups.provider, m.provider), eq(topups.externalId, m.externalId)) as SQL;
  return m.token === undefined
    ? eq(topups.id, m.id)
    : (and(eq(topups.id, m.id), eq(topups.token, m.token)) as SQL);
};

/** Top-ups and the payment events already handled. The methods taking `tx` join the caller's transaction. */
export function createTopupsRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Tx) => Promise<T>) {
      return db.transaction(work);
    },
    /** Notes a provider's event; false when it was seen before. */
    async recordEvent(tx: DbOrTx, event: { id: string; type: string; provider: string }) {
      const [fresh] = await tx.insert(paymentEvents).values(event).onConflictDoNothing().returning();
      return Boolean(fresh);
    },
    /** pending → paid: the row, or undefined when it was not pending. */
    async markPaid(tx: DbOrTx, match: TopupMatch) {
      const [row] = await tx
        .update(topups)
        .set({ status: 'paid', completedAt: new Date() })
        .where(and(matching(match), eq(topups.status, 'pending')))
        .returning();
      return row;
    },
    /** pending → failed; nothing when it was not pending. */
    async markFailed(match: TopupMatch) {
      await db
        .update(topups)
        .set({ status: 'failed', completedAt: new Date() })
        .where(and(matching(match), eq(topups.status, 'pending')));
    },
    async insert(values: typeof topups.$inferInsert) {
      const [row] = await db.insert(topups).values(values).returning();
      return row;
    },
    async setExternalId(id: number, externalId: string) {
      await db.update(topups).set({ externalId }).where(eq(topups.id, id));
    },
    async find(id: number) {
      const [row] = await db.select().from(topups).where(eq(topups.id, id));
      return row;
    },
    async list(userId: number, page: number, limit: number) {
      const where = eq(topups.userId, userId);
      return pageOf(
        { page, limit },
        db.select({ n: count() }).from(topups).where(where),
        (w) => db.select().from(topups).where(where).orderBy(desc(topups.id)).limit(w.limit).offset(w.offset),
        toTopup,
      );
    },
  };
}
export type TopupsRepository = ReturnType<typeof createTopupsRepository>;
