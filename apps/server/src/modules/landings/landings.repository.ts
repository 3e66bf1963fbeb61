import { and, asc, count, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { landingImages, landingLeads, landings } from '../../db/schema/index.ts';
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
      if (q.userId !== undefined) conds.push(eq(landings.userId, q.userId));
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
    /**
     * Saves the landing and, in the same transaction (the updated row stays locked, so a concurrent save
     * waits and prunes by its own page), forgets its uploaded images that were stored before `olderThan`
     * and that `keep` rejects. Answers the forgotten storage keys: the caller deletes the files after commit.
     */
    updateAndPrune(
      row: LandingRecord,
      values: Partial<typeof landings.$inferInsert>,
      olderThan: Date,
      keep: (key: string, html: string | null) => boolean,
    ) {
      return db.transaction(async (tx) => {
        const [updated] = await tx
          .update(landings)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(landings.id, row.id))
          .returning();
        const old = await tx
          .select({ id: landingImages.id, key: landingImages.key })
          .from(landingImages)
          .where(and(eq(landingImages.landingId, row.id), lt(landingImages.createdAt, olderThan)));
        const gone = old.filter((img) => !keep(img.key, updated!.html));
        if (gone.length)
          await tx.delete(landingImages).where(
            inArray(
              landingImages.id,
              gone.map((img) => img.id),
            ),
          );
        return { row: { ...updated!, leads: row.leads }, removedKeys: gone.map((img) => img.key) };
      });
    },
    /** Deletes the landing (its leads and image records cascade); answers its images' storage keys. */
    remove(id: number) {
      return db.transaction(async (tx) => {
        // locked first: an upload's record, which needs the row, waits and then fails instead of being missed
        await tx.select({ id: landings.id }).from(landings).where(eq(landings.id, id)).for('update');
        const images = await tx
          .select({ key: landingImages.key })
          .from(landingImages)
          .where(eq(landingImages.landingId, id));
        await tx.delete(landings).where(eq(landings.id, id));
        return images.map((img) => img.key);
      });
    },
    /** Records an uploaded image as the landing's; fails (foreign key) when the landing is gone. */
    async addImage(landingId: number, key: string, createdAt: Date) {
      await db.insert(landingImages).values({ landingId, key, createdAt });
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
