import { z } from 'zod';
import { id } from './common.ts';

/** The currency all amounts are stored and charged in. */
export const platformCurrency = 'USD';

export const currency = z.object({
  _id: id,
  code: z.string(),
  name: z.string(),
  symbol: z.string(),
  /** Units of this currency per 1 USD; null while unknown. */
  rate: z.number().nullable(),
  rate_source: z.string().nullable(),
  last_update: z.string().nullable(),
});
export type Currency = z.infer<typeof currency>;

export const currencyUpdate = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  symbol: z.string().trim().min(1).max(8).optional(),
  /** Stored to 10 decimals: a smaller rate would be stored as 0. */
  rate: z.number().positive({ abort: true }).min(1e-10).max(1e9).optional(),
});
export type CurrencyUpdate = z.infer<typeof currencyUpdate>;

/** POST /api/currencies/refresh: what the rate source gave and which currencies it updated. */
export const ratesRefreshResult = z.object({
  source: z.string(),
  date: z.string(),
  updated: z.array(z.string()),
});
export type RatesRefreshResult = z.infer<typeof ratesRefreshResult>;
