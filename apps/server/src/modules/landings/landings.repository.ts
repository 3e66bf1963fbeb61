import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { landingLeads, landings } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';

type LandingTable = typeof landings.$inferSelect;
/** A landing with the number of its leads. */
export type LandingRecord = LandingTable & { leads: number };
export type LeadRow = typeof landingLeads.$inferSelect;

// raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
const leadsCount = sql<number>`(select count(*)::int from landing_leads ll where ll.landing_id = landings.id)`;
const record = (r: { l: LandingTable; n: number }): LandingRecord => ({ ...r.l, leads: Number(r.n) });

export function createLandingsRepository(db: Db) {
  return {
    async row(id: number) {
      const [row] = await db.select({ l: landings, n: leadsCount }).from(landings).where(eq(landings.id, id));
      return row && record(row);
    },
    async bySlug(slug: string) {
      const [row] = await db.select().from(landings).where(eq(landings.slug, slug));
      return row;
    },
    async list<T>(
      q: { page: number; limit: number; userIds?: number[] | undefined; userId?: number | undefined },
      map: (row: LandingRecord) => T,
    ) {
      const conds: SQL[] = [];
      if (q.userIds) conds.push(inArray(landings.userId, q.userIds));
      if (q.userId) conds.push(eq(landings.userId, q.userId));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(landings).where(where),
        (w) =>
          db
            .select({ l: landings, n: leadsCount })
            .from(landings)
            .where(where)
            .orderBy(desc(landings.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => map(record(r)),
      );
    },
    async insert(values: typeof landings.$inferInsert) {
      const [row] = await db.insert(landings).values(values).returning();
      return { ...row!, leads: 0 };
    },
    async update(row: LandingRecord, values: Partial<typeof landings.$inferInsert>) {
      const [updated] = await db
        .update(landings)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(landings.id, row.id))
        .returning();
      return { ...updated!, leads: row.leads };
    },
    async remove(id: number) {
      await db.delete(landings).where(eq(landings.id, id));
    },

    /** Newest first, one page; the total is the landing's lead count. */
    leads: (landingId: number, window: { limit: number; offset: number }) =>
      db
        .select()
        .from(landingLeads)
        .where(eq(landingLeads.landingId, landingId))
        .orderBy(desc(landingLeads.createdAt), desc(landingLeads.id))
        .limit(window.limit)
        .offset(window.offset),
    /** Oldest first, at most `max`: the export. */
    allLeads: (landingId: number, max: number) =>
      db
        .select()
        .from(landingLeads)
        .where(eq(landingLeads.landingId, landingId))
        .orderBy(asc(landingLeads.createdAt), asc(landingLeads.id))
        .limit(max),
    async addLead(landingId: number, data: Record<string, string>, ip: string) {
      await db.insert(landingLeads).values({ landingId, data, ip });
    },
  };
}
export type LandingsRepository = ReturnType<typeof createLandingsRepository>;
