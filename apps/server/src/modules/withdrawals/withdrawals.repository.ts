import { fromMicros, type Withdrawal } from '@adp/contract';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users, withdrawals } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/tx.ts';
import { pageOf } from '../../lib/paging.ts';

type Row = typeof withdrawals.$inferSelect & { userName: string };

function toWithdrawal(row: Row): Withdrawal {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    user_name: row.userName,
    sum: fromMicros(row.sum),
    method: row.method as Withdrawal['method'],
    details: row.details,
    status: row.status as Withdrawal['status'],
    reference: row.reference,
    reason: row.reason,
    date: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
  };
}

/** Payout requests with their owner's name. The methods taking `tx` join the caller's transaction. */
export function createWithdrawalsRepository(db: Db) {
  const select = () =>
    db
      .select({ w: withdrawals, userName: users.name })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId));

  return {
    transaction<T>(work: (tx: Tx) => Promise<T>) {
      return db.transaction(work);
    },
    async find(id: number) {
      const [row] = await select().where(eq(withdrawals.id, id));
      return row ? toWithdrawal({ ...row.w, userName: row.userName }) : undefined;
    },
    async list(opts: {
      page: number;
      limit: number;
      userIds?: number[] | undefined;
      status?: string | undefined;
    }) {
      const conds: SQL[] = [];
      if (opts.userIds) conds.push(inArray(withdrawals.userId, opts.userIds));
      if (opts.status) conds.push(eq(withdrawals.status, opts.status));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        opts,
        db.select({ n: count() }).from(withdrawals).where(where),
        (w) => select().where(where).orderBy(desc(withdrawals.id)).limit(w.limit).offset(w.offset),
        (r) => toWithdrawal({ ...r.w, userName: r.userName }),
      );
    },
    /** A new request: its id. */
    async insert(tx: DbOrTx, values: typeof withdrawals.$inferInsert) {
      const [row] = await tx.insert(withdrawals).values(values).returning({ id: withdrawals.id });
      return row?.id;
    },
    /** Writes the decision on a request that is still pending: the row, or undefined when it was not. */
    async decidePending(tx: DbOrTx, id: number, decision: Partial<typeof withdrawals.$inferInsert>) {
      const [row] = await tx
        .update(withdrawals)
        .set(decision)
        .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 'pending')))
        .returning();
      return row;
    },
  };
}
export type WithdrawalsRepository = ReturnType<typeof createWithdrawalsRepository>;
