import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agencies, agencyMembers, banners, campaigns, sites, users, widgets } from '../../db/schema/index.ts';

/** The rows behind the name lookups: what each answer needs and what its permission check reads. */
export function createNamesRepository(db: Db) {
  return {
    sites(ids: number[]) {
      return db
        .select({ id: sites.id, name: sites.title, domain: sites.domain, userId: sites.userId })
        .from(sites)
        .where(inArray(sites.id, ids));
    },
    widgets(ids: number[]) {
      return db
        .select({ id: widgets.id, name: widgets.title, userId: widgets.userId })
        .from(widgets)
        .where(inArray(widgets.id, ids));
    },
    banners(ids: number[]) {
      return db
        .select({ id: banners.id, name: banners.title, userId: banners.userId })
        .from(banners)
        .where(inArray(banners.id, ids));
    },
    campaigns(ids: number[]) {
      return db
        .select({
          id: campaigns.id,
          name: campaigns.title,
          userId: campaigns.userId,
          currency: users.currency,
        })
        .from(campaigns)
        .innerJoin(users, eq(users.id, campaigns.userId))
        .where(inArray(campaigns.id, ids));
    },
    /** Agency groups with their current members (only users still in the agencymember role count). */
    async agencies(ids: number[]) {
      const rows = await db
        .select({ id: agencies.id, name: agencies.title, userId: agencies.userId })
        .from(agencies)
        .where(inArray(agencies.id, ids));
      if (rows.length === 0) return [];
      const members = await db
        .select({ agencyId: agencyMembers.agencyId, userId: agencyMembers.userId })
        .from(agencyMembers)
        .innerJoin(users, eq(users.id, agencyMembers.userId))
        .where(
          and(
            inArray(
              agencyMembers.agencyId,
              rows.map((r) => r.id),
            ),
            eq(users.role, 'agencymember'),
          ),
        );
      return rows.map((r) => ({
        ...r,
        memberIds: members.filter((m) => m.agencyId === r.id).map((m) => String(m.userId)),
      }));
    },
  };
}
export type NamesRepository = ReturnType<typeof createNamesRepository>;
