import { z } from 'zod';
import { moneyTotal } from './money.ts';

/** The longest range one statistics call covers, in days (both ends included). */
export const STATS_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

/** Today's date in UTC as 'YYYY-MM-DD': the statistics' day boundaries are UTC days. */
export function utcDay(date: Date = new Date()): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The day `days` after (or before, when negative) a 'YYYY-MM-DD' day.
 * @example addDays('2026-03-01', -1) // '2026-02-28'
 */
export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** Every day from `from` to `to`, both included, as 'YYYY-MM-DD'. */
export function daysBetween(from: string, to: string): string[] {
  const count = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(from, i));
}

/** A UTC day 'YYYY-MM-DD' that exists in the calendar, from 1970 on (no statistics are older). */
const day = z.iso.date().refine((d) => d >= '1970-01-01', { message: 'date' });

/** The range a statistics query names: `to` defaults to today (UTC), `from` to `to`. */
export function statsRange(q: { from?: string | undefined; to?: string | undefined }): {
  from: string;
  to: string;
} {
  const to = q.to ?? utcDay();
  return { from: q.from ?? to, to };
}

/**
 * GET /api/stats/{campaigns|banners|sites|widgets}/{id}?from&to&group: UTC days, both ends included
 * (statsRange fills the defaults). `from` after `to` is a 422 on `from` ("must be before <to>"); a range
 * longer than STATS_MAX_DAYS is a 422 on `from` ("must be after <the earliest allowed day>").
 * @example statsQuery.parse({ from: '2026-03-01', to: '2026-03-07' }) // {from, to, group: 'day'}
 */
export const statsQuery = z
  .object({
    from: day.optional(),
    to: day.optional(),
    group: z.enum(['day']).default('day'),
  })
  .superRefine((q, ctx) => {
    const { from, to } = statsRange(q);
    // zod runs this even when a day failed its own check: those already answer 422 on their field
    if (!day.safeParse(from).success || !day.safeParse(to).success) return;
    if (from > to) {
      // the day itself as the bound, so the message names it ("must be before 2026-03-07")
      ctx.addIssue({
        code: 'too_big',
        origin: 'date',
        maximum: to as never,
        inclusive: true,
        input: from,
        path: ['from'],
      });
      return;
    }
    const earliest = addDays(to, -(STATS_MAX_DAYS - 1));
    if (from < earliest)
      ctx.addIssue({
        code: 'too_small',
        origin: 'date',
        minimum: earliest as never,
        inclusive: true,
        input: from,
        path: ['from'],
      });
  });
export type StatsQuery = z.output<typeof statsQuery>;

/**
 * The counters and money of one period. `ctr` is clicks per impression in percent, 2 decimals (0 without
 * impressions). `ecpm` is money per 1000 impressions in currency units: what was **spent** for campaigns
 * and creatives (the advertiser's view), what was **earned** for sites and widgets (the publisher's
 * view); 0 without impressions. `spent` and `earned` are currency units, like every amount of the API.
 */
export const statsValues = z.object({
  impressions: z.number().int(),
  viewable: z.number().int(),
  clicks: z.number().int(),
  invalid_clicks: z.number().int(),
  conversions: z.number().int(),
  ctr: z.number(),
  ecpm: moneyTotal,
  spent: moneyTotal,
  earned: moneyTotal,
});
export type StatsValues = z.infer<typeof statsValues>;

/** One row per day of the range (zero-filled), `key` the day 'YYYY-MM-DD', and the range's total. */
export const statsAnswer = z.object({
  rows: z.array(statsValues.extend({ key: z.string() })),
  total: statsValues,
});
export type StatsAnswer = z.infer<typeof statsAnswer>;

/** What a statistics answer is about: the entity trees of GET /api/stats. */
export const statsEntities = ['campaigns', 'banners', 'sites', 'widgets'] as const;
export type StatsEntity = (typeof statsEntities)[number];
