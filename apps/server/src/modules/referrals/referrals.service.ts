import { fromMicros, type ReferralSummary } from '@adp/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledger, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import type { Ledger } from '../ledger/ledger.service.ts';

/**
 * The referral program: a referrer earns its `earn_percent` of the platform's income from the users it
 * brought. Delivery calls `bookPlatformIncome` inside the transaction that books that income.
 */
export function createReferrals(db: Db, ledgerService: Ledger, publicUrl: string) {
  return {
    /** Credits the referrer's share (rounded down to a micro-unit); returns it, 0n when nothing is due. */
    async bookPlatformIncome(
      tx: DbOrTx,
      income: { userId: number; micros: bigint; source: string; ref: string },
    ): Promise<bigint> {
      if (income.micros <= 0n) return 0n;
      const [row] = await tx
        .select({ referrerId: users.referrerId, percent: sql<string>`r.earn_percent` })
        .from(users)
        .innerJoin(sql`users r`, sql`r.id = ${users.referrerId}`)
        .where(eq(users.id, income.userId));
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
      const [me] = await db.select().from(users).where(eq(users.id, userId));
      if (!me) throw new Error('user not found');
      const referred = await db
        .select({ id: users.id, name: users.name, createdAt: users.createdAt })
        .from(users)
        .where(eq(users.referrerId, userId))
        .orderBy(asc(users.id));
      const month = sql<string>`to_char(date_trunc('month', ${ledger.createdAt} at time zone 'UTC'), 'YYYY-MM')`;
      const earnings = await db
        .select({ month, sum: sql<string>`sum(${ledger.sum})` })
        .from(ledger)
        .where(and(eq(ledger.userId, userId), eq(ledger.type, 'referral_earning')))
        .groupBy(month)
        .orderBy(month);
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
