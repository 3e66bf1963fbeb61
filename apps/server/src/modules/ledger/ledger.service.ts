import type { LedgerType } from '@adp/contract';
import type { Db } from '../../db/client.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { AppError } from '../../lib/errors.ts';
import { createLedgerRepository, type LedgerRow } from './ledger.repository.ts';

export { toLedgerEntry } from './ledger.repository.ts';

export interface Movement {
  userId: number;
  type: LedgerType;
  /** Signed micro-units: positive credits the user, negative debits. */
  sum: bigint;
  source?: string;
  actorId?: number | null;
  ref?: string | null;
}

/**
 * The only way a user's balance changes. `move` must run inside the caller's transaction: the balance
 * update and its ledger row commit together or not at all. The conditional UPDATE is atomic, so
 * concurrent movements can neither lose an update nor take a balance below zero.
 */
export function createLedger(db: Db) {
  const repo = createLedgerRepository(db);

  async function move(tx: DbOrTx, m: Movement): Promise<LedgerRow> {
    if (m.sum === 0n) throw new Error('a ledger movement cannot be zero');
    const balance = await repo.addToBalance(tx, m.userId, m.sum);
    if (balance === undefined) {
      if (!(await repo.userExists(tx, m.userId))) throw new AppError(404, 'not_found');
      throw new AppError(422, 'insufficient_balance', {}, 'sum');
    }
    const row = await repo.insert(tx, {
      userId: m.userId,
      type: m.type,
      sum: m.sum,
      balanceAfter: balance,
      source: m.source ?? '',
      actorId: m.actorId ?? null,
      ref: m.ref ?? null,
    });
    if (!row) throw new Error('ledger insert returned no row');
    return row;
  }

  return {
    move,
    /** One movement in its own transaction. */
    transfer(m: Movement) {
      return repo.transaction((tx) => move(tx, m));
    },
    list: repo.list,
    /** Sum of a user's ledger, for audits and tests: must always equal the balance. */
    sumOf: repo.sumOf,
  };
}
export type Ledger = ReturnType<typeof createLedger>;
