import { fromMicros, toMicros, type Withdrawal, type WithdrawalInput } from '@adp/contract';
import { AppError, orNotFound } from '../../lib/errors.ts';
import type { Ledger } from '../ledger/ledger.service.ts';
import { notify } from '../notifications/notices.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { WithdrawalsRepository } from './withdrawals.repository.ts';

/**
 * Payout requests. The amount leaves the balance when requested (a reservation the user cannot spend
 * twice), comes back through the ledger when rejected, and stays out when paid.
 */
export function createWithdrawals(repo: WithdrawalsRepository, ledger: Ledger, settings: SettingsService) {
  const { find } = repo;

  async function decide(
    id: number,
    adminId: number,
    change: { status: 'paid'; reference: string } | { status: 'rejected'; reason: string },
  ) {
    await repo.transaction(async (tx) => {
      const row = await repo.decidePending(tx, id, { ...change, decidedBy: adminId, decidedAt: new Date() });
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
      await notify(tx, {
        type: 'withdrawal',
        userId: row.userId,
        payload: {
          id: String(row.id),
          status: change.status,
          sum: fromMicros(row.sum),
          reason: change.status === 'rejected' ? change.reason : null,
        },
      });
    });
    return orNotFound(await find(id));
  }

  return {
    find,
    async request(userId: number, input: WithdrawalInput): Promise<Withdrawal> {
      const sum = toMicros(input.sum);
      const min = await settings.minPayoutMicros();
      if (sum < min) throw new AppError(422, 'below_min_payout', { min: fromMicros(min) }, 'sum');
      const id = await repo.transaction(async (tx) => {
        const id = await repo.insert(tx, { userId, sum, method: input.method, details: input.details });
        if (id === undefined) throw new Error('withdrawal insert returned no row');
        await ledger.move(tx, {
          userId,
          type: 'withdrawal',
          sum: -sum,
          source: input.method,
          actorId: userId,
          ref: `withdrawal:${id}`,
        });
        return id;
      });
      return orNotFound(await find(id));
    },
    list: repo.list,
    approve: (id: number, adminId: number, reference: string) =>
      decide(id, adminId, { status: 'paid', reference }),
    reject: (id: number, adminId: number, reason: string) =>
      decide(id, adminId, { status: 'rejected', reason }),
  };
}
export type Withdrawals = ReturnType<typeof createWithdrawals>;
