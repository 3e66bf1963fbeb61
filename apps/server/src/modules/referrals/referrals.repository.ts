import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledger, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';

/** Who referred whom, and the referral earnings booked in the ledger. */
export function createReferralsRepository(db: Db) {
  return {
    /** The user's referrer and its earn_percent (as text, two decimals), read in the caller's transaction. */
    async referrerOf(tx: DbOrTx, userId: number) {
      const [row] = await tx
        .select({ referrerId: users.referrerId, percent: sql<string>`r.earn_percent` })
        .from(users)
        .innerJoin(sql`users r`, sql`r.id = ${users.referrerId}`)
        .where(eq(users.id, userId));
      return row;
    },
    async user(userId: number) {
      const [me] = await db.select().from(users).where(eq(users.id, userId));
      return me;
    },
    /** The users this one brought, oldest first. */
    async referred(userId: number) {
      return db
        .select({ id: users.id, name: users.name, createdAt: users.createdAt })
        .from(users)
        .where(eq(users.referrerId, userId))
        .orderBy(asc(users.id));
    },
    /** Referral earnings by UTC month ('YYYY-MM'), sums in micro-units as text. */
    async earningsByMonth(userId: number) {
      const month = sql<string>`to_char(date_trunc('month', ${ledger.createdAt} at time zone 'UTC'), 'YYYY-MM')`;
      return db
        .select({ month, sum: sql<string>`sum(${ledger.sum})` })
        .from(ledger)
        .where(and(eq(ledger.userId, userId), eq(ledger.type, 'referral_earning')))
        .groupBy(month)
        .orderBy(month);
    },
  };
}
export type ReferralsRepository = ReturnType<typeof createReferralsRepository>;
