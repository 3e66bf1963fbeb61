import { fromMicros, type LedgerEntry, type LedgerType, paymentTypes } from '@adp/contract';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledger, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/tx.ts';
import { pageOf } from '../../lib/paging.ts';

export type LedgerRow = typeof ledger.$inferSelect;

export function toLedgerEntry(row: LedgerRow): LedgerEntry {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    type: row.type as LedgerType,
    sum: fromMicros(row.sum),
    balance_after: fromMicros(row.balanceAfter),
    source: row.source,
    actor_id: row.actorId === null ? null : String(row.actorId),
    ref: row.ref,
    date: row.createdAt.toISOString(),
  };
}

/** Users' balances and their ledger rows. The methods taking `tx` join the caller's transaction. */
export function createLedgerRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Tx) => Promise<T>) {
      return db.transaction(work);
    },
    /**
     * Adds `sum` (signed) to the user's balance unless that takes it below zero, in one conditional
     * UPDATE: the new balance, or undefined when nothing changed.
     */
    async addToBalance(tx: DbOrTx, userId: number, sum: bigint) {
      const [updated] = await tx
        .update(users)
        .set({ balance: sql`${users.balance} + ${sum}` })
        .where(and(eq(users.id, userId), sql`${users.balance} + ${sum} >= 0`))
        .returning({ balance: users.balance });
      return updated?.balance;
    },
    async userExists(tx: DbOrTx, userId: number) {
      const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      return Boolean(exists);
    },
    async insert(tx: DbOrTx, values: typeof ledger.$inferInsert) {
      const [row] = await tx.insert(ledger).values(values).returning();
      return row;
    },
    async list(opts: { userId: number; page: number; limit: number; paymentsOnly?: boolean }) {
      const where = and(
        eq(ledger.userId, opts.userId),
        opts.paymentsOnly ? inArray(ledger.type, [...paymentTypes]) : undefined,
      );
      return pageOf(
        opts,
        db.select({ n: count() }).from(ledger).where(where),
        (w) =>
          db
            .select()
            .from(ledger)
            .where(where)
            .orderBy(desc(ledger.createdAt), desc(ledger.id))
            .limit(w.limit)
            .offset(w.offset),
        toLedgerEntry,
      );
    },
    async sumOf(userId: number): Promise<bigint> {
      const [row] = await db
        .select({ s: sql<string>`coalesce(sum(${ledger.sum}), 0)` })
        .from(ledger)
        .where(eq(ledger.userId, userId));
      return BigInt(row?.s ?? 0);
    },
  };
}
export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
