import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sites, users } from '../../db/schema/index.ts';

/** Publishers for sellers.json: owners of active, approved sites; each with its first such site's domain. */
export function createSellersRepository(db: Db) {
  return {
    publishers() {
      return db
        .selectDistinctOn([sites.userId], { userId: sites.userId, name: users.name, domain: sites.domain })
        .from(sites)
        .innerJoin(users, eq(users.id, sites.userId))
        .where(
          and(eq(sites.moderation, 'approved'), eq(sites.status, 'active'), sql`${users.role} <> 'dummy'`),
        )
        .orderBy(asc(sites.userId), asc(sites.id));
    },
  };
}
export type SellersRepository = ReturnType<typeof createSellersRepository>;
