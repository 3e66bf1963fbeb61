import { addDays, dayIn } from '@adp/contract';

/** SPEC.md section 9: the quick ranges of a statistics screen. */
export const quickRanges = ['today', 'yesterday', 'last_7_days', 'current_week', 'current_month'] as const;
/**
 * SPEC.md section 9: the periods (today and yesterday are the quick ranges of the same name). "N days"
 * end today and count today; "month" and "3 months" end today and start the day after the same day of
 * the month(s) before; "7 weeks" and "20 weeks" are 49 and 140 days ending today.
 */
export const periods = [
  '24_hours',
  '1_day',
  '3_days',
  '7_days',
  '14_days',
  '30_days',
  'month',
  '3_months',
  '7_weeks',
  '20_weeks',
] as const;
export type QuickRange = (typeof quickRanges)[number];
export type Period = QuickRange | (typeof periods)[number] | 'custom';
export const allPeriods: readonly Period[] = [...quickRanges, ...periods, 'custom'];

export const isPeriod = (value: string | null | undefined): value is Period =>
  (allPeriods as readonly string[]).includes(value ?? '');

/** The days a statistics call asks for ('YYYY-MM-DD' of the timezone), and for "24 hours" its first instant. */
export interface DayRange {
  from: string;
  to: string;
  /** Only "24 hours": hours before this instant are left out of an hourly answer. */
  since?: Date;
}

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' `months` months before or after, the day kept or clamped to the month's last day. */
export function addMonths(day: string, months: number): string {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** The Monday of the week of `day` (weeks start on Monday, ISO 8601). */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * The days a quick range or period covers at `now` in timezone `tz`.
 * @example periodRange('last_7_days', new Date('2026-03-10T12:00:00Z'), 'UTC') // {from: '2026-03-04', to: '2026-03-10'}
 */
export function periodRange(period: Exclude<Period, 'custom'>, now: Date, tz: string): DayRange {
  const today = dayIn(now, tz);
  const lastDays = (n: number) => ({ from: addDays(today, -(n - 1)), to: today });
  switch (period) {
    case 'today':
    case '1_day':
      return { from: today, to: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'last_7_days':
    case '7_days':
      return lastDays(7);
    case 'current_week':
      return { from: weekStart(today), to: today };
    case 'current_month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case '24_hours': {
      const since = new Date(now.getTime() - DAY_MS);
      return { from: dayIn(since, tz), to: today, since };
    }
    case '3_days':
      return lastDays(3);
    case '14_days':
      return lastDays(14);
    case '30_days':
      return lastDays(30);
    case 'month':
      return { from: addDays(addMonths(today, -1), 1), to: today };
    case '3_months':
      return { from: addDays(addMonths(today, -3), 1), to: today };
    case '7_weeks':
      return lastDays(49);
    case '20_weeks':
      return lastDays(140);
  }
}
