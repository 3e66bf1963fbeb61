import {
  dayEnd,
  dayStart,
  daysBetween,
  fromMicros,
  type StatsAnswer,
  type StatsGroup,
  type StatsSortColumn,
  type StatsValues,
  zoneOffset,
} from '@adp/contract';
import type { AppAbility } from '@adp/permissions';
import { AppError } from '../../lib/errors.ts';
import type {
  StatsDimension,
  StatsFilter,
  StatsOwner,
  StatsOwners,
  StatsStore,
  StatsSubject,
  StatsSums,
} from './stats.repository.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const zero = (key: string): StatsSums => ({
  key,
  impressions: 0,
  viewable: 0,
  clicks: 0,
  invalidClicks: 0,
  conversions: 0,
  spent: 0n,
  earned: 0n,
});

function add(into: StatsSums, s: StatsSums) {
  into.impressions += s.impressions;
  into.viewable += s.viewable;
  into.clicks += s.clicks;
  into.invalidClicks += s.invalidClicks;
  into.conversions += s.conversions;
  into.spent += s.spent;
  into.earned += s.earned;
}

/** Clicks per impression in percent, rounded half up to 2 decimals; 0 without impressions. */
export function ctrOf(clicks: number, impressions: number): number {
  if (impressions <= 0) return 0;
  return Math.floor((clicks * 20_000 + impressions) / (2 * impressions)) / 100;
}

/** Money per 1000 impressions in currency units, rounded half up to a micro-unit; 0 without impressions. */
export function ecpmOf(micros: bigint, impressions: number): number {
  if (impressions <= 0) return 0;
  const n = BigInt(impressions);
  return fromMicros((micros * 2000n + n) / (2n * n));
}

/** Whose view eCPM takes: what advertisers spent, or what publishers earned. */
export type StatsSide = 'advertiser' | 'publisher';

/** Whether a reader sees only its own side's money (everyone but the admins, who see both). */
export const ownOnly = (ability: AppAbility) => !ability.can('manage', 'ACL');

/** A site's statistics access, as an administrator sets it (its `stats_visible` and `advanced_stats`). */
export interface SiteStatsFlags {
  statsVisible: boolean;
  advancedStats: boolean;
}

/** The breakdowns of the advanced statistics: what ran on the site (advertisers' campaigns and creatives). */
const advancedGroups = new Set<string>(['campaign', 'creative']);
export const isAdvanced = (group: string | undefined) => group !== undefined && advancedGroups.has(group);

/**
 * Whether the caller may read this site's statistics (or its widgets'), or 403: administrators always;
 * everyone else (its owner, an agency) only while `stats_visible` is on, and the advanced statistics (the
 * breakdowns by campaign and creative, the click lists with their visitors) only while `advanced_stats` is.
 * `site` undefined (a widget's site that is gone) counts as hidden.
 * @example assertSiteStats(req.ability, site, { group: req.query.group })
 */
export function assertSiteStats(
  ability: AppAbility,
  site: SiteStatsFlags | undefined,
  want: { group?: string | undefined; advanced?: boolean } = {},
): void {
  if (!ownOnly(ability)) return;
  // a widget whose site is gone (a delete racing the read) fails closed
  if (!site?.statsVisible) throw new AppError(403, 'stats_hidden');
  const advanced = want.advanced || isAdvanced(want.group);
  if (advanced && !site.advancedStats) throw new AppError(403, 'advanced_stats_off');
}

/** Advertisers' entities price their impressions by what they spent, publishers' by what they earned. */
export const sideOf = (subject: StatsSubject): StatsSide =>
  subject === 'campaign' || subject === 'banner' ? 'advertiser' : 'publisher';

/**
 * The answer's numbers. `ownOnly`: the other side's money is 0 (an advertiser's view does not say what
 * publishers earned from it, a publisher's not what advertisers paid: as the click lists, only admins see
 * both).
 */
function values(s: StatsSums, side: StatsSide, revenue?: bigint, ownOnly = false): StatsValues {
  const money = side === 'advertiser' ? s.spent : s.earned;
  return {
    ...(revenue === undefined ? {} : { revenue: fromMicros(revenue) }),
    impressions: s.impressions,
    viewable: s.viewable,
    clicks: s.clicks,
    invalid_clicks: s.invalidClicks,
    conversions: s.conversions,
    ctr: ctrOf(s.clicks, s.impressions),
    ecpm: ecpmOf(money, s.impressions),
    spent: ownOnly && side === 'publisher' ? 0 : fromMicros(s.spent),
    earned: ownOnly && side === 'advertiser' ? 0 : fromMicros(s.earned),
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** An instant as the wall clock of a timezone `offset` ms ahead of UTC: '2026-03-02T00:00:00+01:00'. */
function localIso(at: Date, offset: number): string {
  const wall = new Date(at.getTime() + offset).toISOString().replace(/\.\d{3}Z$/, '');
  const minutes = Math.abs(offset) / 60_000;
  return `${wall}${offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}

/** A breakdown: over time (`day`, `hour`) or by one dimension of the store (the API's groups and more). */
export type StatsBreakdown = StatsGroup | StatsDimension;

const ids = new Set<StatsBreakdown>(['site', 'widget', 'creative', 'campaign']);

/** Keys in order: ids as numbers, 'unknown' after every real key, the rest as text. */
function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'unknown') return 1;
  if (b === 'unknown') return -1;
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return Number(a) - Number(b);
  return a < b ? -1 : 1;
}

export interface StatsRequest {
  /** Days 'YYYY-MM-DD' of `tz`, both included. */
  from: string;
  to: string;
  group?: StatsBreakdown;
  /** An IANA timezone (validated by the contract); default UTC. */
  tz?: string;
  sort?: StatsSortColumn | undefined;
  order?: 'asc' | 'desc' | undefined;
}

/** The answer while the 24-hour rule holds statistics back: `available_at`, no rows, a zero total. */
export function delayedAnswer(availableAt: Date): StatsAnswer {
  return { rows: [], total: values(zero(''), 'advertiser'), available_at: availableAt.toISOString() };
}

export interface SummarizeOptions {
  /** Also only the rollups of this user's campaigns (advertiser) or sites (publisher). */
  owner?: StatsOwner | undefined;
  /** Add the platform's income (the ledger's) as `revenue`: to time rows and the total (admin views). */
  revenue?: boolean;
  /** Only the side's own money: the other side's is 0 (everyone but admins, see `values`). */
  ownOnly?: boolean | undefined;
}

/**
 * Statistics answers over the statistics store: the rows of one breakdown and the range's total.
 * `owners` answers the 24-hour rule (statsDelay); without it nobody waits.
 */
export function createStatsService(store: StatsStore, owners?: Pick<StatsOwners, 'availableAt'>) {
  /**
   * The rows of one breakdown and the total over the rollups `filter` names (every rollup when it names
   * no column), eCPM from the `side`'s money.
   */
  async function summarize(
    filter: StatsFilter,
    side: StatsSide,
    req: StatsRequest,
    opts: SummarizeOptions = {},
  ): Promise<StatsAnswer> {
    const { from, to, group = 'day', tz = 'UTC' } = req;
    const start = dayStart(from, tz);
    const end = dayEnd(to, tz);
    const time = group === 'day' || group === 'hour';
    // the days of `tz`: UTC days over the whole range (UTC, or London in winter) are the store's `day`
    // groups (the daily tables' rows, far fewer than the hours'); any other day is made of UTC hours
    const dayStarts = group === 'day' ? daysBetween(from, to).map((day) => dayStart(day, tz).getTime()) : [];
    const utcDays =
      group === 'day' && end.getTime() % DAY_MS === 0 && dayStarts.every((at) => at % DAY_MS === 0);
    const storeGroup = utcDays ? 'day' : time ? 'hour' : group;
    const [found, income] = await Promise.all([
      store.sum({ filter, owner: opts.owner, from: start, to: end, group: storeGroup }),
      opts.revenue ? store.income({ from: start, to: end }) : null,
    ]);
    // the platform's income per bucket (time groups) and in all
    const revenue: bigint[] = [];
    let revenueTotal = 0n;
    for (const h of income ?? []) revenueTotal += h.sum;

    let buckets: StatsSums[];
    if (time) {
      // The rollups are hourly in UTC. Every hour (or UTC day, when the days are UTC's) goes, whole, to the
      // day or hour of `tz` its UTC start falls in: exact for whole-hour offsets; in half-hour zones
      // (Asia/Kolkata, +05:30) an hour that straddles local midnight counts on the day it starts in, and
      // the hour rows start at :30.
      const starts: number[] = [];
      if (group === 'day') {
        buckets = daysBetween(from, to).map((day, i) => {
          starts.push(dayStarts[i] ?? 0);
          return zero(day);
        });
      } else {
        buckets = [];
        // the UTC hours of the range (a half-hour zone's range starts at :30: its first hour is the next)
        // (the offset is read once a day, and every hour only on days whose offset changes: Intl is slow)
        let at = Math.ceil(start.getTime() / HOUR_MS) * HOUR_MS;
        while (at < end.getTime()) {
          const dayEndsAt = Math.min(at + 24 * HOUR_MS, end.getTime());
          const offset = zoneOffset(new Date(at), tz);
          const steady = zoneOffset(new Date(dayEndsAt - 1), tz) === offset;
          for (; at < dayEndsAt; at += HOUR_MS) {
            starts.push(at);
            buckets.push(zero(localIso(new Date(at), steady ? offset : zoneOffset(new Date(at), tz))));
          }
        }
      }
      // the last bucket starting at or before an hour (binary search: a year has 8,784 hours); -1: none
      const bucketOf = (at: number) => {
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if ((starts[mid] ?? 0) <= at) lo = mid;
          else hi = mid - 1;
        }
        return (starts[lo] ?? Number.POSITIVE_INFINITY) <= at ? lo : -1;
      };
      for (const s of found) {
        const i = bucketOf(Number(s.key) * 1000);
        const bucket = buckets[i];
        if (bucket) add(bucket, s);
      }
      if (income) {
        for (let i = 0; i < buckets.length; i++) revenue.push(0n);
        for (const h of income) {
          const i = bucketOf(Number(h.key) * 1000);
          if (i >= 0) revenue[i] = (revenue[i] ?? 0n) + h.sum;
        }
      }
    } else {
      // '' (an unknown country, device, OS or browser) and 0 (no site, widget or creative) are 'unknown'
      const byKey = new Map<string, StatsSums>();
      for (const s of found) {
        const none = s.key === '' || (ids.has(group) && s.key === '0');
        // site and widget 0: impressions bought through the exchange (RTB partners' burl), source 'rtb'
        const rtb = none && s.key === '0' && (group === 'site' || group === 'widget');
        const key = rtb ? 'rtb' : none ? 'unknown' : s.key;
        const bucket = byKey.get(key) ?? zero(key);
        add(bucket, s);
        byKey.set(key, bucket);
      }
      buckets = [...byKey.values()];
    }

    const sum = zero('');
    for (const b of buckets) add(sum, b);
    const rows = buckets.map((b, i) => ({ key: b.key, ...values(b, side, revenue[i], opts.ownOnly), i }));
    const sort = req.sort ?? (time ? 'key' : 'impressions');
    const direction = (req.order ?? (time ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
    // days and hours are in time order already (as text, a clock change would reorder the hour keys)
    const byKey = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
      time ? a.i - b.i : compareKeys(a.key, b.key);
    rows.sort((a, b) => {
      if (sort !== 'key' && a[sort] !== b[sort]) return (a[sort] - b[sort]) * direction;
      return sort === 'key' ? byKey(a, b) * direction : byKey(a, b);
    });
    return {
      rows: rows.map(({ i: _, ...row }) => row),
      total: values(sum, side, income ? revenueTotal : undefined, opts.ownOnly),
    };
  }

  /**
   * The 24-hour rule (statsAnswer in the contract): when statistics about what `ownerId` owns show to a
   * viewer with `ability`. Null: now. Admins and admin readonly (who may enter the admin area: manage
   * ACL) always see; everyone else waits until the owner's `stats_available_at` (a self-registered
   * user's first 24 hours). Every statistics-like call about a user's entities asks this and, given a
   * Date, answers `delayedAnswer(date)` (or its own empty answer with `available_at`).
   * @example const at = await ctx.stats.statsDelay(campaign.userId, req.ability); if (at) return delayedAnswer(at)
   */
  async function statsDelay(ownerId: number, ability: AppAbility): Promise<Date | null> {
    if (!owners || ability.can('manage', 'ACL')) return null;
    const at = await owners.availableAt(ownerId);
    return at && at.getTime() > Date.now() ? at : null;
  }

  const query = (subject: StatsSubject, id: number, req: StatsRequest, ownOnly?: boolean) =>
    summarize({ [subject]: [id] }, sideOf(subject), req, { ownOnly });

  return {
    query,
    summarize,
    statsDelay,
    /** Every campaign of the user (`advertiser`: eCPM of what it spent) or every site (`publisher`). */
    byUser(userId: number, side: StatsSide, req: StatsRequest, ownOnly?: boolean) {
      // a publisher's sites whose statistics an admin hid are not in what the publisher sees, nor what ran
      // on sites without the advanced statistics (assertSiteStats)
      const owner = { userId, side, visibleOnly: ownOnly, advancedOnly: ownOnly && isAdvanced(req.group) };
      return summarize({}, side, req, { owner, ownOnly });
    },
    /** Every rollup, with the platform's income as `revenue` (eCPM of what advertisers spent). */
    platform(req: StatsRequest) {
      return summarize({}, 'advertiser', req, { revenue: true });
    },
    /** Every day of the range (days of `tz`, default UTC), zero-filled, and the total. */
    byDay(subject: StatsSubject, id: number, range: { from: string; to: string; tz?: string }) {
      return query(subject, id, { ...range, group: 'day' });
    },
  };
}
export type StatsService = ReturnType<typeof createStatsService>;
