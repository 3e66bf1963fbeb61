import { fromMicros, type Partner, type PartnersQuery } from '@adp/contract';
import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agencies, agencyMembers, sites, users } from '../../db/schema/index.ts';
import { containsPattern, pageOf } from '../../lib/paging.ts';
import { type AgencyRecord, type AgencyRow, toAgency } from '../agencies/agencies.repository.ts';

const membersCount = sql<number>`(select count(*)::int from "agency_members" as "m" inner join "users" as "mu" on "mu"."id" = "m"."user_id" and "mu"."role" = 'agencymember' where "m"."agency_id" = "agencies"."id")`;

export function toPartner(row: AgencyRow & { membersCount: number; ownerName: string | null }): Partner {
  return { ...toAgency(row), name: row.title, owner_name: row.ownerName };
}

/** What partners (agency groups) read besides the agencies repository: lists, their sites, members. */
export function createPartnersRepository(db: Db) {
  return {
    list(q: PartnersQuery) {
      const where = q.q
        ? or(ilike(agencies.title, containsPattern(q.q)), ilike(users.name, containsPattern(q.q)))
        : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(agencies).leftJoin(users, eq(users.id, agencies.userId)).where(where),
        (w) =>
          db
            .select({ agency: agencies, membersCount, ownerName: users.name })
            .from(agencies)
            .leftJoin(users, eq(users.id, agencies.userId))
            .where(where)
            .orderBy(desc(agencies.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toPartner({ ...r.agency, membersCount: r.membersCount, ownerName: r.ownerName }),
      );
    },

    async ownerName(userId: number): Promise<string | null> {
      const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
      return row?.name ?? null;
    },

    /** The sites of the group: its owner's and its current members'. */
    async siteIds(group: AgencyRecord): Promise<number[]> {
      const owners = [group.userId, ...group.memberIds];
      const rows = await db.select({ id: sites.id }).from(sites).where(inArray(sites.userId, owners));
      return rows.map((r) => r.id);
    },

    /** A few members as the preview shows them, in the order they joined. */
    async previewMembers(group: AgencyRecord, limit = 5) {
      if (!group.memberIds.length) return [];
      const rows = await db
        .select({ id: users.id, name: users.name, balance: users.balance })
        .from(agencyMembers)
        .innerJoin(users, eq(users.id, agencyMembers.userId))
        .where(and(eq(agencyMembers.agencyId, group.id), inArray(users.id, group.memberIds)))
        .orderBy(agencyMembers.createdAt, users.id)
        .limit(limit);
      return rows.map((r) => ({ _id: String(r.id), name: r.name, balance: fromMicros(r.balance) }));
    },
  };
}
export type PartnersRepository = ReturnType<typeof createPartnersRepository>;
