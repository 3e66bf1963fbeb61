import { type Currency, platformCurrency } from '@adp/contract';
import { asc, count, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { currencies } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';

type CurrencyRow = typeof currencies.$inferSelect;

export interface CurrencySeed {
  code: string;
  name: string;
  symbol: string;
}

export function toCurrency(row: CurrencyRow): Currency {
  return {
    _id: String(row.id),
    code: row.code,
    name: row.name,
    symbol: row.symbol,
    rate: row.rate === null ? null : Number(row.rate),
    rate_source: row.rateSource,
    last_update: row.updatedAt ? row.updatedAt.toISOString() : null,
  };
}

export function createCurrenciesRepository(db: Db) {
  return {
    /** Adds missing currencies; existing rows (and their rates) are left alone. */
    async seed(list: CurrencySeed[]) {
      await db
        .insert(currencies)
        .values(
          list.map((c) =>
            c.code === platformCurrency
              ? { ...c, rate: '1', rateSource: 'platform', updatedAt: new Date() }
              : { ...c, rate: null },
          ),
        )
        .onConflictDoNothing({ target: currencies.code });
    },
    async list(opts: { page: number; limit: number }) {
      return pageOf(
        opts,
        db.select({ n: count() }).from(currencies),
        (w) => db.select().from(currencies).orderBy(asc(currencies.id)).limit(w.limit).offset(w.offset),
        toCurrency,
      );
    },
    async findById(id: number): Promise<CurrencyRow | undefined> {
      const [row] = await db.select().from(currencies).where(eq(currencies.id, id));
      return row;
    },
    async update(
      id: number,
      values: Partial<Pick<CurrencyRow, 'name' | 'symbol' | 'rate' | 'rateSource' | 'updatedAt'>>,
    ): Promise<CurrencyRow | undefined> {
      const [row] = await db.update(currencies).set(values).where(eq(currencies.id, id)).returning();
      return row;
    },
    /** Known rates as [code, rate] pairs, for the in-memory cache. */
    async knownRates(): Promise<[string, string][]> {
      const rows = await db
        .select({ code: currencies.code, rate: currencies.rate })
        .from(currencies)
        .where(isNotNull(currencies.rate));
      return rows.map((r) => [r.code, r.rate as string]);
    },
    /** Sets the rates of the listed currencies that exist here; returns the codes updated. */
    async applyRates(source: string, rates: Record<string, string>): Promise<string[]> {
      const codes = Object.keys(rates).filter((c) => c !== platformCurrency);
      if (codes.length === 0) return [];
      return db.transaction(async (tx) => {
        const known = await tx
          .select({ code: currencies.code })
          .from(currencies)
          .where(inArray(currencies.code, codes))
          .orderBy(asc(currencies.code));
        const now = new Date();
        for (const { code } of known) {
          await tx
            .update(currencies)
            .set({ rate: rates[code] as string, rateSource: source, updatedAt: now })
            .where(eq(currencies.code, code));
        }
        return known.map((k) => k.code);
      });
    },
  };
}
export type CurrenciesRepository = ReturnType<typeof createCurrenciesRepository>;
