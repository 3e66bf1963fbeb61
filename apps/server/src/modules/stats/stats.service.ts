import { daysBetween, fromMicros, type StatsAnswer, type StatsValues } from '@adp/contract';
import type { StatsStore, StatsSubject, StatsSums } from './stats.repository.ts';

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

function values(s: StatsSums, subject: StatsSubject): StatsValues {
  // advertisers' entities price their impressions by what they spent, publishers' by what they earned
  const money = subject === 'campaign' || subject === 'banner' ? s.spent : s.earned;
  return {
    impressions: s.impressions,
    viewable: s.viewable,
    clicks: s.clicks,
    invalid_clicks: s.invalidClicks,
    conversions: s.conversions,
    ctr: ctrOf(s.clicks, s.impressions),
    ecpm: ecpmOf(money, s.impressions),
    spent: fromMicros(s.spent),
    earned: fromMicros(s.earned),
  };
}

/** Statistics answers over the statistics store: every day of the range, zero-filled, and the total. */
export function createStatsService(store: StatsStore) {
  return {
    async byDay(
      subject: StatsSubject,
      id: number,
      range: { from: string; to: string },
    ): Promise<StatsAnswer> {
      const found = await store.query({ subject, id, ...range, group: 'day' });
      const byKey = new Map(found.map((s) => [s.key, s]));
      const sum = zero('');
      const rows = daysBetween(range.from, range.to).map((day) => {
        const s = byKey.get(day) ?? zero(day);
        sum.impressions += s.impressions;
        sum.viewable += s.viewable;
        sum.clicks += s.clicks;
        sum.invalidClicks += s.invalidClicks;
        sum.conversions += s.conversions;
        sum.spent += s.spent;
        sum.earned += s.earned;
        return { key: day, ...values(s, subject) };
      });
      return { rows, total: values(sum, subject) };
    },
  };
}
export type StatsService = ReturnType<typeof createStatsService>;
