import { z } from 'zod';
import { moneyTotal } from './money.ts';

/** How long a self-registered user waits for its statistics (the 24-hour rule: see statsAnswer). */
export const STATS_DELAY_HOURS = 24;

/** The longest range one statistics call covers, in days (both ends included). */
export const STATS_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

/** Today's date in UTC as 'YYYY-MM-DD' (dayIn gives it in another timezone). */
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
export const statsDay = z.iso.date().refine((d) => d >= '1970-01-01', { message: 'date' });
const day = statsDay;

/** Whether `tz` is an IANA timezone this runtime knows (Intl is the judge, on server and dashboard alike). */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of `date` in `tz`: [year, month, day, hour, minute, second]. */
function wallClock(date: Date, tz: string): number[] {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  const parts = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  return [
    year,
    Number(parts.month),
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  ];
}

/** How far `tz`'s wall clock is ahead of UTC at `date`, in milliseconds (+3600000 for Berlin in winter). */
export function zoneOffset(date: Date, tz: string): number {
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = wallClock(date, tz);
  const wall = new Date(0);
  wall.setUTCFullYear(y, mo - 1, d);
  wall.setUTCHours(h, mi, s, 0);
  return wall.getTime() - (date.getTime() - date.getUTCMilliseconds());
}

/**
 * The day 'YYYY-MM-DD' that `date` falls on in timezone `tz` (default UTC).
 * @example dayIn(new Date('2026-03-01T23:30:00Z'), 'Europe/Berlin') // '2026-03-02'
 */
export function dayIn(date: Date = new Date(), tz = 'UTC'): string {
  return utcDay(new Date(date.getTime() + zoneOffset(date, tz)));
}

/** The instant the wall clock of `tz` shows `wall` (a UTC midnight in ms) or, if skipped, an hour after. */
function midnightIn(wall: number, tz: string): Date {
  // the offset at the guess, then at the corrected instant: exact unless a clock change is at midnight
  let at = wall - zoneOffset(new Date(wall), tz);
  at = wall - zoneOffset(new Date(at), tz);
  if (at + zoneOffset(new Date(at), tz) < wall) at += 3_600_000; // midnight skipped: the day starts later
  return new Date(at);
}

/**
 * The instant a day 'YYYY-MM-DD' starts in timezone `tz`: its local midnight (or, where a clock change
 * skips midnight, the first instant of the day).
 * @example dayStart('2026-03-02', 'Europe/Berlin') // 2026-03-01T23:00:00.000Z
 */
export function dayStart(day: string, tz = 'UTC'): Date {
  return midnightIn(Date.parse(`${day}T00:00:00Z`), tz);
}

/** The last instant with a four-digit year: a later one has no ISO text PostgreSQL reads (`+010000-…`). */
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The instant the day after `day` starts in `tz` (also after 9999-12-31, which addDays cannot name): an
 * exclusive end. Past the year 9999 it is the last instant of that year, which still ends every hour of it.
 */
export function dayEnd(day: string, tz = 'UTC'): Date {
  return new Date(Math.min(midnightIn(Date.parse(`${day}T00:00:00Z`) + DAY_MS, tz).getTime(), LAST_INSTANT));
}

/** The range a statistics query names: `to` defaults to today in `tz` (default UTC), `from` to `to`. */
export function statsRange(q: {
  from?: string | undefined;
  to?: string | undefined;
  tz?: string | undefined;
}): {
  from: string;
  to: string;
} {
  const to = q.to ?? dayIn(new Date(), q.tz && isTimeZone(q.tz) ? q.tz : 'UTC');
  return { from: q.from ?? to, to };
}

/** The breakdowns of a statistics answer: over time (day, hour) or by one dimension of the rollups. */
export const statsGroups = [
  'day',
  'hour',
  'country',
  'city',
  'device',
  'os',
  'browser',
  'site',
  'widget',
  'creative',
] as const;
export type StatsGroup = (typeof statsGroups)[number];

/** The columns a statistics answer sorts on. */
export const statsSortColumns = [
  'key',
  'impressions',
  'viewable',
  'clicks',
  'invalid_clicks',
  'conversions',
  'ctr',
  'ecpm',
  'spent',
  'earned',
] as const;
export type StatsSortColumn = (typeof statsSortColumns)[number];

/**
 * The range checks of every statistics query (a zod `superRefine`): `from` after `to` is a 422 on `from`
 * ("must be before <to>"), a range longer than STATS_MAX_DAYS a 422 on `from` ("must be after <the
 * earliest allowed day>"). Other statistics calls (stats-trees.ts) reuse it so their ranges answer alike.
 * @example z.object({ from: statsDay.optional(), to: statsDay.optional() }).superRefine(checkStatsRange)
 */
export function checkStatsRange(
  q: { from?: string | undefined; to?: string | undefined; tz?: string | undefined },
  ctx: z.RefinementCtx,
): void {
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
}

/**
 * GET /api/stats/{campaigns|banners|sites|widgets}/{id}?from&to&group&tz&sort&order: days of timezone `tz`
 * (an IANA name, default UTC; an unknown one is a 422 on `tz`), both ends included (statsRange fills the
 * defaults). `from` after `to` is a 422 on `from` ("must be before <to>"); a range longer than
 * STATS_MAX_DAYS is a 422 on `from` ("must be after <the earliest allowed day>").
 * `group`: `day` (the default) and `hour` answer every day or hour of the range, zero-filled, keyed by the
 * day 'YYYY-MM-DD' or the hour's start 'YYYY-MM-DDTHH:mm:ss±HH:MM' in `tz`; `country` (ISO code), `city`
 * (the English name the GeoIP City database gives, e.g. 'London': with the shipped country-only database
 * every row is 'unknown'; set GEOIP_DB to a City database to have cities), `device`, `os`, `browser`
 * (names) and `site`, `widget`, `creative` (ids) answer only the keys with rollups, an unknown value (or no
 * site, widget or creative) as the key 'unknown', and by `site` or `widget` the impressions bought through
 * the exchange (an RTB partner's billing notice: no site or widget of ours) as the key 'rtb'. `sort` (a column, default `key` over time and
 * `impressions` otherwise) and `order` (default `asc` over time, `desc` otherwise) order the rows; ties go
 * by key. The 24-hour rule (see statsAnswer's `available_at`) may answer no rows yet.
 * @example statsQuery.parse({ from: '2026-03-01', to: '2026-03-07' }) // {from, to, group: 'day', tz: 'UTC'}
 */
export const statsQuery = z
  .object({
    from: day.optional(),
    to: day.optional(),
    group: z.enum(statsGroups).default('day'),
    tz: z.string().refine(isTimeZone, { message: 'invalid' }).default('UTC'),
    sort: z.enum(statsSortColumns).optional(),
    order: z.enum(['asc', 'desc']).optional(),
  })
  .superRefine(checkStatsRange);
export type StatsQuery = z.output<typeof statsQuery>;

/**
 * The counters and money of one period. `ctr` is clicks per impression in percent, 2 decimals (0 without
 * impressions). `ecpm` is money per 1000 impressions in currency units: what was **spent** for campaigns
 * and creatives (the advertiser's view), what was **earned** for sites and widgets (the publisher's
 * view); 0 without impressions. `spent` and `earned` are currency units, like every amount of the API;
 * only admins see both: to everyone else the other side's money is 0 (`earned` on a campaign's or creative's
 * statistics and an advertiser's, `spent` on a site's or widget's and a publisher's).
 * `revenue` is only in the admin platform statistics (GET /api/stats/platform, see statsPlatformQuery):
 * the platform's own income.
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
  revenue: moneyTotal.optional(),
});
export type StatsValues = z.infer<typeof statsValues>;

/**
 * The rows of the query's `group` (see statsQuery for their keys and order) and the range's total.
 *
 * The 24-hour rule (SPEC.md section 9, "statistics are not shown for the first 24 hours"): a user who
 * registered itself (POST /api/auth/register) sees no statistics about its own campaigns, creatives,
 * sites and widgets, nor GET /api/stats/users/<its id>, until 24 hours after its registration
 * (`users.stats_available_at`, set at registration). Accounts made by an admin or an agency, and those from
 * before the rule, have no delay. Admins and admin readonly always see everything; every other viewer (the
 * user itself, an agency it joined) is held back alike. Until then the answer is `available_at` (the
 * ISO instant statistics appear), no rows and a zero total; the dashboard says "Statistics appear 24 hours
 * after registration" with that time. Every statistics-like call (stats trees, clicks lists, reports)
 * answers the same way about such a user's entities.
 */
export const statsAnswer = z.object({
  rows: z.array(statsValues.extend({ key: z.string() })),
  total: statsValues,
  available_at: z.iso.datetime({ offset: true }).optional(),
});
export type StatsAnswer = z.infer<typeof statsAnswer>;

/** What a statistics answer is about: the entity trees of GET /api/stats. */
export const statsEntities = ['campaigns', 'banners', 'sites', 'widgets'] as const;
export type StatsEntity = (typeof statsEntities)[number];

/**
 * GET /api/stats/users/{id}?from&to&group&tz&sort&order&as: statistics summed over every campaign of the
 * user (`as=advertiser`: eCPM of what it spent) or every site of it (`as=publisher`: eCPM of what it
 * earned), grouped and ordered like statsQuery (`site` and `widget` rows of an advertiser name the sites
 * its ads ran on; `creative` rows of a publisher name the creatives shown on its sites). `as` defaults to
 * `publisher` when the user has sites and no campaigns, else `advertiser`. For whoever may read the user
 * (admins, admin readonly, the user itself, its agency); an unknown or invisible user is a 404. The
 * 24-hour rule applies (statsAnswer).
 */
export const statsUserQuery = statsQuery.safeExtend({ as: z.enum(['advertiser', 'publisher']).optional() });
export type StatsUserQuery = z.output<typeof statsUserQuery>;

/**
 * GET /api/stats/platform?from&to&group&tz&sort&order: the whole platform (admins and admin readonly only;
 * 403 otherwise), grouped and ordered like statsQuery, over every rollup. `spent` is what advertisers
 * paid, `earned` what publishers earned (eCPM from `spent`), and `revenue` the platform's own income:
 * what advertisers paid less every share paid out of it (publisher, agency, referrers), as delivery booked
 * it per charged click in the platform ledger. The ledger has a time and no dimensions, so over time
 * (`group=day|hour`) every row and the total carry `revenue`, while a breakdown by country, city, device,
 * OS, browser, site, widget or creative carries it in the total only.
 */
export const statsPlatformQuery = statsQuery;
