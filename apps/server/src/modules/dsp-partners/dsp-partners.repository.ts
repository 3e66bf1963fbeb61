import type { DspPartner, DspPartnerBlacklistItem } from '@adp/contract';
import { fromMicros } from '@adp/contract';
import { and, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dspPartnerBlacklist, dspPartners, dspRollups } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { containsPattern, pageOf } from '../../lib/paging.ts';

export type DspPartnerRow = typeof dspPartners.$inferSelect;
export type DspBlacklistRow = typeof dspPartnerBlacklist.$inferSelect;

export const toDspPartner = (row: DspPartnerRow): DspPartner => ({
  _id: String(row.id),
  name: row.name,
  endpoint: row.endpoint,
  openrtb_version: row.openrtbVersion as DspPartner['openrtb_version'],
  daily_money_limit: row.dailyMoneyLimit === null ? null : fromMicros(row.dailyMoneyLimit),
  daily_budget_limit: row.dailyBudgetLimit,
  max_request_time: row.maxRequestTime,
  whitelist: row.whitelist,
  blacklist: row.blacklist,
  ad_position: row.adPosition,
  status: row.status as DspPartner['status'],
  created_at: row.createdAt.toISOString(),
});

export const toBlacklistItem = (row: DspBlacklistRow): DspPartnerBlacklistItem => ({
  _id: String(row.id),
  dsp_partner_id: String(row.dspPartnerId),
  source: row.source,
  comment: row.comment,
  created_at: row.createdAt.toISOString(),
});

/** DSP partners and their blacklist items (issue 11, outbound). */
export function createDspPartnersRepository(db: Db) {
  return {
    async row(id: number) {
      const [row] = await db.select().from(dspPartners).where(eq(dspPartners.id, id));
      return row;
    },
    list(q: { page: number; limit: number; q?: string | undefined; status?: string | undefined }) {
      const conds: SQL[] = [];
      if (q.q) {
        const p = containsPattern(q.q);
        conds.push(or(ilike(dspPartners.name, p), ilike(dspPartners.endpoint, p)) as SQL);
      }
      if (q.status) conds.push(eq(dspPartners.status, q.status));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(dspPartners).where(where),
        (w) =>
          db
            .select()
            .from(dspPartners)
            .where(where)
            .orderBy(desc(dspPartners.id))
            .limit(w.limit)
            .offset(w.offset),
        toDspPartner,
      );
    },
    async insert(tx: DbOrTx, values: typeof dspPartners.$inferInsert) {
      const [row] = await tx.insert(dspPartners).values(values).returning();
      return row!;
    },
    async update(tx: DbOrTx, id: number, values: Partial<typeof dspPartners.$inferInsert>) {
      const [row] = await tx
        .update(dspPartners)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(dspPartners.id, id))
        .returning();
      return row!;
    },
    /** Whether the partner has won anything or paid for it (its statistics are money records). */
    async billed(id: number): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(dspRollups)
        .where(
          and(eq(dspRollups.dspPartnerId, id), sql`(${dspRollups.wins} > 0 or ${dspRollups.revenue} > 0)`),
        )
        .limit(1);
      return row !== undefined;
    },
    async remove(tx: DbOrTx, id: number) {
      await tx.delete(dspPartners).where(eq(dspPartners.id, id));
    },
    /** Active partners and every blacklist item of theirs: what the outbound auction reads. */
    async active() {
      const partners = await db.select().from(dspPartners).where(eq(dspPartners.status, 'active'));
      const items = partners.length
        ? await db
            .select({ id: dspPartnerBlacklist.dspPartnerId, source: dspPartnerBlacklist.source })
            .from(dspPartnerBlacklist)
            .innerJoin(dspPartners, eq(dspPartners.id, dspPartnerBlacklist.dspPartnerId))
            .where(eq(dspPartners.status, 'active'))
        : [];
      return { partners, items };
    },

    async blacklistRow(id: number) {
      const [row] = await db.select().from(dspPartnerBlacklist).where(eq(dspPartnerBlacklist.id, id));
      return row;
    },
    listBlacklist(q: {
      page: number;
      limit: number;
      dspPartnerId?: number | undefined;
      q?: string | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.dspPartnerId !== undefined) conds.push(eq(dspPartnerBlacklist.dspPartnerId, q.dspPartnerId));
      if (q.q) conds.push(ilike(dspPartnerBlacklist.source, containsPattern(q.q)));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(dspPartnerBlacklist).where(where),
        (w) =>
          db
            .select()
            .from(dspPartnerBlacklist)
            .where(where)
            .orderBy(desc(dspPartnerBlacklist.id))
            .limit(w.limit)
            .offset(w.offset),
        toBlacklistItem,
      );
    },
    async blacklistTaken(dspPartnerId: number, source: string, exceptId?: number) {
      const [row] = await db
        .select({ id: dspPartnerBlacklist.id })
        .from(dspPartnerBlacklist)
        .where(
          and(eq(dspPartnerBlacklist.dspPartnerId, dspPartnerId), eq(dspPartnerBlacklist.source, source)),
        );
      return row !== undefined && row.id !== exceptId;
    },
    async insertBlacklist(values: typeof dspPartnerBlacklist.$inferInsert) {
      const [row] = await db.insert(dspPartnerBlacklist).values(values).returning();
      return row!;
    },
    async updateBlacklist(id: number, values: Partial<typeof dspPartnerBlacklist.$inferInsert>) {
      const [row] = await db
        .update(dspPartnerBlacklist)
        .set(values)
        .where(eq(dspPartnerBlacklist.id, id))
        .returning();
      return row!;
    },
    async removeBlacklist(id: number) {
      await db.delete(dspPartnerBlacklist).where(eq(dspPartnerBlacklist.id, id));
    },
  };
}
export type DspPartnersRepository = ReturnType<typeof createDspPartnersRepository>;
