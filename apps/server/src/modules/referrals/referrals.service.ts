import { fromMicros, type ReferralSummary } from '@adp/contract';
import type { Db } from '../../db/client.ts';
import type { DbOrTx } from '../../db/tx.ts';
import type { Ledger } from '../ledger/ledger.service.ts';
import { createReferralsRepository } from './referrals.repository.ts';

/**
 * The referral program: a referrer earns its `earn_percent` of the platform's income from the users it
 * brought. Delivery calls `bookPlatformIncome` inside the transaction that books that income.
 */
export function createReferrals(db: Db, ledgerService: Ledger, publicUrl: string) {
  const repo = createReferralsRepository(db);
  return {
    /** Credits the referrer's share (rounded down to a micro-unit); returns it, 0n when nothing is due. */
    async bookPlatformIncome(
      tx: DbOrTx,
      income: { userId: number; micros: bigint; source: string; ref: string },
    ): Promise<bigint> {
      if (income.micros <= 0n) return 0n;
      const row = await repo.referrerOf(tx, income.userId);
      if (!row?.referrerId) return 0n;
      // earn_percent has two decimals: work in basis points, integers only
      const [whole = '0', frac = ''] = String(row.percent).split('.');
      const basisPoints = BigInt(whole) * 100n + BigInt(`${frac}00`.slice(0, 2));
      const share = (income.micros * basisPoints) / 10_000n;
      if (share <= 0n) return 0n;
      await ledgerService.move(tx, {
        userId: row.referrerId,
        type: 'referral_earning',
        sum: share,
        source: income.source,
        ref: income.ref,
      });
      return share;
    },

    async summary(userId: number): Promise<ReferralSummary> {
      const me = await repo.user(userId);
      if (!me) throw new Error('user not found');
      const referred = await repo.referred(userId);
      const earnings = await repo.earningsByMonth(userId);
      const total = earnings.reduce((acc, e) => acc + BigInt(e.sum), 0n);
      return {
        affiliate_id: me.affiliateId,
        affiliate_url: `${publicUrl}/register?ref=${me.affiliateId}`,
        earn_percent: Number(me.earnPercent),
        referred: referred.map((r) => ({ _id: String(r.id), name: r.name, date: r.createdAt.toISOString() })),
        earnings: earnings.map((e) => ({ month: e.month, sum: fromMicros(BigInt(e.sum)) })),
        total: fromMicros(total),
      };
    },
  };
}
export type Referrals = ReturnType<typeof createReferrals>;
