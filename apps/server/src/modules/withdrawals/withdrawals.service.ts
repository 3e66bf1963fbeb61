import { fromMicros, toMicros, type Withdrawal, type WithdrawalInput } from '@adp/contract';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users, withdrawals } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { pageOf } from '../../lib/paging.ts';
import type { Ledger } from '../ledger/ledger.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';

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

/**
 * Payout requests. The amount leaves the balance when requested (a reservation the user cannot spend
 * twice), comes back through the ledger when rejected, and stays out when paid.
 */
export function createWithdrawals(db: Db, ledger: Ledger, settings: SettingsService) {
  const select = () =>
    db
      .select({ w: withdrawals, userName: users.name })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId));

  async function find(id: number) {
    const [row] = await select().where(eq(withdrawals.id, id));
    return row ? toWithdrawal({ ...row.w, userName: row.userName }) : undefined;
  }

  async function decide(
    id: number,
    adminId: number,
    change: { status: 'paid'; reference: string } | { status: 'rejected'; reason: string },
  ) {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(withdrawals)
        .set({ ...change, decidedBy: adminId, decidedAt: new Date() })
        .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 'pending')))
        .returning();
      if (!row) throw new AppError(409, 'not_pending');
      if (change.status === 'rejected') {
        await ledger.move(tx, {
          userId: row.userId,
          type: 'refund',
          sum: row.sum,
          source: 'withdrawal rejected',
          actorId: adminId,
          ref: `withdrawal:${row.id}`,
        });
      }
    });
    return (await find(id))!;
  }

  return {
    find,
    async request(userId: number, input: WithdrawalInput): Promise<Withdrawal> {
      const sum = toMicros(input.sum);
      const min = await settings.minPayoutMicros();
      if (sum < min) throw new AppError(422, 'below_min_payout', { min: fromMicros(min) }, 'sum');
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(withdrawals)
          .values({ userId, sum, method: input.method, details: input.details })
          .returning({ id: withdrawals.id });
        if (!row) throw new Error('withdrawal insert returned no row');
        await ledger.move(tx, {
          userId,
          type: 'withdrawal',
          sum: -sum,
          source: input.method,
          actorId: userId,
          ref: `withdrawal:${row.id}`,
        });
        return row.id;
      });
      return (await find(id))!;
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
    approve: (id: number, adminId: number, reference: string) =>
      decide(id, adminId, { status: 'paid', reference }),
    reject: (id: number, adminId: number, reason: string) =>
      decide(id, adminId, { status: 'rejected', reason }),
  };
}
export type Withdrawals = ReturnType<typeof createWithdrawals>;
