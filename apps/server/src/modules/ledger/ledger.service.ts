import { fromMicros, type LedgerEntry, type LedgerType, paymentTypes } from '@adp/contract';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledger, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { AppError } from '../../lib/errors.ts';
import { pageOf } from '../../lib/paging.ts';

export interface Movement {
  userId: number;
  type: LedgerType;
  /** Signed micro-units: positive credits the user, negative debits. */
  sum: bigint;
  source?: string;
  actorId?: number | null;
  ref?: string | null;
}

type LedgerRow = typeof ledger.$inferSelect;

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

/**
 * The only way a user's balance changes. `move` must run inside the caller's transaction: the balance
 * update and its ledger row commit together or not at all. The conditional UPDATE is atomic, so
 * concurrent movements can neither lose an update nor take a balance below zero.
 */
export function createLedger(db: Db) {
  async function move(tx: DbOrTx, m: Movement): Promise<LedgerRow> {
    if (m.sum === 0n) throw new Error('a ledger movement cannot be zero');
    const [updated] = await tx
      .update(users)
      .set({ balance: sql`${users.balance} + ${m.sum}` })
      .where(and(eq(users.id, m.userId), sql`${users.balance} + ${m.sum} >= 0`))
      .returning({ balance: users.balance });
    if (!updated) {
      const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, m.userId));
      if (!exists) throw new AppError(404, 'not_found');
      throw new AppError(422, 'insufficient_balance', {}, 'sum');
    }
    const [row] = await tx
      .insert(ledger)
      .values({
        userId: m.userId,
        type: m.type,
        sum: m.sum,
        balanceAfter: updated.balance,
        source: m.source ?? '',
        actorId: m.actorId ?? null,
        ref: m.ref ?? null,
      })
      .returning();
    if (!row) throw new Error('ledger insert returned no row');
    return row;
  }

  return {
    move,
    /** One movement in its own transaction. */
    transfer(m: Movement) {
      return db.transaction((tx) => move(tx, m));
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
    /** Sum of a user's ledger, for audits and tests: must always equal the balance. */
    async sumOf(userId: number): Promise<bigint> {
      const [row] = await db
        .select({ s: sql<string>`coalesce(sum(${ledger.sum}), 0)` })
        .from(ledger)
        .where(eq(ledger.userId, userId));
      return BigInt(row?.s ?? 0);
    },
  };
}
export type Ledger = ReturnType<typeof createLedger>;
