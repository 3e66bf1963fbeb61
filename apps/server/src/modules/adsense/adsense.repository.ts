import { and, asc, count, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  adsenseCredits,
  adsenseImports,
  adsenseIncomes,
  currencies,
  sites,
  widgets,
} from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/tx.ts';
import { siteAgencyRate, siteAgencyUser } from '../../delivery/delivery.repository.ts';

export type ImportRow = typeof adsenseImports.$inferSelect;
export type IncomeRow = typeof adsenseIncomes.$inferSelect;
export type IncomeWithSite = IncomeRow & { siteTitle: string | null; userId: number | null };

/** The earn terms that decide a site's share: its billing widget's, else its oldest widget's. */
export interface SiteTerms {
  siteId: number;
  userId: number;
  earnProcessor: string | null;
  earnValue: bigint | null;
  /**
   * The owner's agency (its account) while the owner is an agency member, and its rate in percent: the
   * site's own agency rate, else the agency's (as delivery's money split).
   */
  agencyUserId: number | null;
  agencyRate: string;
  /** The owner's referrer and its earn percent, when it earns one. */
  referrer: { userId: number; percent: string } | null;
  /** The site's affiliate and its earn percent (an admin's revenue term), when it has one. */
  affiliate: { userId: number; percent: string } | null;
}

/** Per-import sums (rows, rows with errors, money); raw SQL so the outer table is named explicitly. */
const of = (what: string) =>
  sql.raw(`(select ${what} from adsense_incomes i where i.import_id = adsense_imports.id)`);
const totals = {
  rowsCount: sql<number>`${of('count(*)::int')}`,
  errorRows: sql<number>`${of('count(*) filter (where jsonb_array_length(i.errors) > 0)::int')}`,
  revenue: sql<string>`${of('coalesce(sum(i.revenue), 0)::text')}`,
  siteIncome: sql<string>`${of('coalesce(sum(i.site_income), 0)::text')}`,
  ownIncome: sql<string>`${of('coalesce(sum(i.own_income), 0)::text')}`,
};
export type ImportWithTotals = ImportRow & {
  rowsCount: number;
  errorRows: number;
  revenue: string;
  siteIncome: string;
  ownIncome: string;
};

/** AdSense imports and their rows. Methods taking `tx` join the caller's transaction. */
export function createAdsenseRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Tx) => Promise<T>) {
      return db.transaction(work);
    },
    /** Every site's id, owner and domain, to map report rows by domain, URL or ad unit name. */
    siteDomains() {
      return db.select({ id: sites.id, userId: sites.userId, domain: sites.domain }).from(sites);
    },
    /** Units of `code` per one unit of the platform currency, or undefined when unknown. */
    async rateOf(code: string): Promise<string | undefined> {
      const [row] = await db
        .select({ rate: currencies.rate })
        .from(currencies)
        .where(and(eq(currencies.code, code), isNotNull(currencies.rate)));
      return row?.rate ?? undefined;
    },
    async existingSiteIds(ids: number[]) {
      if (!ids.length) return new Set<number>();
      const rows = await db.select({ id: sites.id }).from(sites).where(inArray(sites.id, ids));
      return new Set(rows.map((r) => r.id));
    },
    /** Earn terms per site (billing widget first, else the oldest widget; no widget: nulls). */
    async siteTerms(siteIds: number[], tx: DbOrTx = db): Promise<Map<number, SiteTerms>> {
      const out = new Map<number, SiteTerms>();
      if (!siteIds.length) return out;
      const rows = await tx
        .select({
          siteId: sites.id,
          userId: sites.userId,
          affiliateUserId: sites.affiliateUserId,
          affiliatePercent: sql<string>`${sites.affiliateEarnPercent}::text`,
          earnProcessor: sql<string | null>`w.earn_processor`,
          earnValue: sql<string | null>`w.earn_value::text`,
          agencyUserId: siteAgencyUser(),
          agencyRate: sql<string>`(${siteAgencyRate()})::text`,
          referrerId: sql<string | null>`(select r.id from users p join users r on r.id = p.referrer_id
            where p.id = ${sites.userId} and r.earn_percent > 0)`,
          referrerPercent: sql<string | null>`(select r.earn_percent::text from users p
            join users r on r.id = p.referrer_id where p.id = ${sites.userId} and r.earn_percent > 0)`,
        })
        .from(sites)
        .leftJoin(
          sql`lateral (select ${widgets.earnProcessor} as earn_processor, ${widgets.earnValue} as earn_value
            from ${widgets} where ${widgets.siteId} = ${sites.id}
            order by (${widgets.id} = ${sites.billingWidget}) desc nulls last, ${widgets.id} asc limit 1) w`,
          sql`true`,
        )
        .where(inArray(sites.id, siteIds));
      for (const r of rows)
        out.set(r.siteId, {
          siteId: r.siteId,
          userId: r.userId,
          earnProcessor: r.earnProcessor,
          earnValue: r.earnValue === null ? null : BigInt(r.earnValue),
          agencyUserId: r.agencyUserId === null ? null : Number(r.agencyUserId),
          agencyRate: r.agencyRate,
          referrer:
            r.referrerId === null || r.referrerPercent === null
              ? null
              : { userId: Number(r.referrerId), percent: r.referrerPercent },
          affiliate:
            r.affiliateUserId === null ? null : { userId: r.affiliateUserId, percent: r.affiliatePercent },
        });
      return out;
    },
    /** Site and date pairs already credited by an approved import (other than `exceptImport`). */
    async approvedPairs(siteIds: number[], exceptImport?: number, tx: DbOrTx = db) {
      if (!siteIds.length) return new Set<string>();
      const rows = await tx
        .select({ siteId: adsenseIncomes.siteId, date: adsenseIncomes.date })
        .from(adsenseIncomes)
        .innerJoin(adsenseImports, eq(adsenseImports.id, adsenseIncomes.importId))
        .where(
          and(
            eq(adsenseImports.status, 'approved'),
            inArray(adsenseIncomes.siteId, siteIds),
            isNotNull(adsenseIncomes.siteIncome),
            exceptImport === undefined ? undefined : ne(adsenseImports.id, exceptImport),
          ),
        );
      return new Set(rows.map((r) => `${r.siteId}|${r.date}`));
    },
    async insertImport(
      tx: Tx,
      values: typeof adsenseImports.$inferInsert,
      rows: Omit<typeof adsenseIncomes.$inferInsert, 'importId'>[],
    ) {
      const [imp] = await tx.insert(adsenseImports).values(values).returning({ id: adsenseImports.id });
      if (!imp) throw new Error('adsense import insert returned no row');
      for (let i = 0; i < rows.length; i += 1000)
        await tx
          .insert(adsenseIncomes)
          .values(rows.slice(i, i + 1000).map((r) => ({ ...r, importId: imp.id })));
      return imp.id;
    },
    async findImport(id: number): Promise<ImportWithTotals | undefined> {
      const [row] = await db
        .select({ ...getColumns(), ...totals })
        .from(adsenseImports)
        .where(eq(adsenseImports.id, id));
      return row;
    },
    /**
     * A site's credited AdSense days, newest first: per day the rows (one or more ad units) of the import
     * that claimed the day (adsense_credits: one import per site day) and whose split was booked.
     */
    async siteDays(siteId: number, q: { page: number; limit: number }) {
      const where = and(eq(adsenseCredits.siteId, siteId), isNotNull(adsenseIncomes.siteIncome));
      const on = and(
        eq(adsenseIncomes.importId, adsenseCredits.importId),
        eq(adsenseIncomes.siteId, adsenseCredits.siteId),
        eq(adsenseIncomes.date, adsenseCredits.date),
      );
      const [total] = await db
        .select({ n: sql<number>`count(distinct ${adsenseCredits.date})::int` })
        .from(adsenseCredits)
        .innerJoin(adsenseIncomes, on)
        .where(where);
      const items = await db
        .select({
          date: adsenseCredits.date,
          importId: adsenseCredits.importId,
          pageViews: sql<string>`sum(${adsenseIncomes.pageViews})`,
          impressions: sql<string>`sum(${adsenseIncomes.impressions})`,
          clicks: sql<string>`sum(${adsenseIncomes.clicks})`,
          siteIncome: sql<string>`sum(${adsenseIncomes.siteIncome})`,
          // known only when every row of the day has it (rows approved before it was recorded have none)
          publisherIncome: sql<
            string | null
          >`case when count(${adsenseIncomes.publisherIncome}) = count(*) then sum(${adsenseIncomes.publisherIncome}) end`,
        })
        .from(adsenseCredits)
        .innerJoin(adsenseIncomes, on)
        .where(where)
        .groupBy(adsenseCredits.date, adsenseCredits.importId)
        .orderBy(desc(adsenseCredits.date))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit);
      return { items, total: Number(total?.n ?? 0) };
    },
    async listImports(q: { page: number; limit: number }) {
      const [total] = await db.select({ n: count() }).from(adsenseImports);
      const items = await db
        .select({ ...getColumns(), ...totals })
        .from(adsenseImports)
        .orderBy(desc(adsenseImports.createdAt), desc(adsenseImports.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit);
      return { items, total: Number(total?.n ?? 0) };
    },
    async rows(importId: number, tx: DbOrTx = db): Promise<IncomeWithSite[]> {
      const rows = await tx
        .select({ row: adsenseIncomes, siteTitle: sites.title, userId: sites.userId })
        .from(adsenseIncomes)
        .leftJoin(sites, eq(sites.id, adsenseIncomes.siteId))
        .where(eq(adsenseIncomes.importId, importId))
        .orderBy(asc(adsenseIncomes.line), asc(adsenseIncomes.id));
      return rows.map((r) => ({ ...r.row, siteTitle: r.siteTitle, userId: r.userId }));
    },
    /** uploaded → approved, once: the second of two racing approvals changes nothing and gets undefined. */
    async markApproved(tx: Tx, id: number, adminId: number) {
      const [row] = await tx
        .update(adsenseImports)
        .set({ status: 'approved', approvedBy: adminId, approvedAt: new Date() })
        .where(and(eq(adsenseImports.id, id), eq(adsenseImports.status, 'uploaded')))
        .returning({ id: adsenseImports.id });
      return row;
    },
    /**
     * Claims site days for an import in the caller's transaction: a day another import claimed (even one
     * committing at this moment) fails with the primary key's unique violation.
     */
    async claimCredits(tx: Tx, importId: number, pairs: { siteId: number; date: string }[]) {
      for (let i = 0; i < pairs.length; i += 1000)
        await tx.insert(adsenseCredits).values(pairs.slice(i, i + 1000).map((p) => ({ ...p, importId })));
    },
    async updateRow(tx: Tx, id: number, values: Partial<typeof adsenseIncomes.$inferInsert>) {
      await tx.update(adsenseIncomes).set(values).where(eq(adsenseIncomes.id, id));
    },
  };
}
export type AdsenseRepository = ReturnType<typeof createAdsenseRepository>;

function getColumns() {
  return {
    id: adsenseImports.id,
    fileName: adsenseImports.fileName,
    format: adsenseImports.format,
    currency: adsenseImports.currency,
    status: adsenseImports.status,
    uploadedBy: adsenseImports.uploadedBy,
    approvedBy: adsenseImports.approvedBy,
    approvedAt: adsenseImports.approvedAt,
    createdAt: adsenseImports.createdAt,
  };
}
