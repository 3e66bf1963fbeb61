import { describe, expect, test } from 'vitest';
import { addMonths, periodRange, weekStart } from './stats-ranges.ts';

// Tuesday 2026-03-10, 23:30 UTC: already Wednesday in Berlin (+01:00), still Tuesday in New York (-04:00)
const now = new Date('2026-03-10T23:30:00Z');

describe('quick ranges and periods in a timezone (fixed clock)', () => {
  test.each([
    ['today', 'UTC', '2026-03-10', '2026-03-10'],
    ['today', 'Europe/Berlin', '2026-03-11', '2026-03-11'],
    ['today', 'America/New_York', '2026-03-10', '2026-03-10'],
    ['yesterday', 'UTC', '2026-03-09', '2026-03-09'],
    ['yesterday', 'Europe/Berlin', '2026-03-10', '2026-03-10'],
    ['last_7_days', 'UTC', '2026-03-04', '2026-03-10'],
    ['last_7_days', 'Europe/Berlin', '2026-03-05', '2026-03-11'],
    // weeks start on Monday: the 9th in UTC (a Tuesday), the 9th in Berlin too (a Wednesday there)
    ['current_week', 'UTC', '2026-03-09', '2026-03-10'],
    ['current_week', 'Europe/Berlin', '2026-03-09', '2026-03-11'],
    ['current_month', 'UTC', '2026-03-01', '2026-03-10'],
    ['1_day', 'UTC', '2026-03-10', '2026-03-10'],
    ['3_days', 'UTC', '2026-03-08', '2026-03-10'],
    ['7_days', 'UTC', '2026-03-04', '2026-03-10'],
    ['14_days', 'UTC', '2026-02-25', '2026-03-10'],
    ['30_days', 'UTC', '2026-02-09', '2026-03-10'],
    ['month', 'UTC', '2026-02-11', '2026-03-10'],
    ['3_months', 'UTC', '2025-12-11', '2026-03-10'],
    ['7_weeks', 'UTC', '2026-01-21', '2026-03-10'],
    ['20_weeks', 'UTC', '2025-10-22', '2026-03-10'],
  ] as const)('%s in %s is %s to %s', (period, tz, from, to) => {
    const range = periodRange(period, now, tz);
    expect({ from: range.from, to: range.to }).toEqual({ from, to });
  });

  test('24 hours: from the day 24 hours ago to today, with the instant the hours start', () => {
    expect(periodRange('24_hours', now, 'UTC')).toEqual({
      from: '2026-03-09',
      to: '2026-03-10',
      since: new Date('2026-03-09T23:30:00Z'),
    });
    expect(periodRange('24_hours', now, 'Europe/Berlin')).toMatchObject({
      from: '2026-03-10',
      to: '2026-03-11',
    });
  });

  test('a month on the 1st is the last days of the month before; the 31st clamps to shorter months', () => {
    const first = new Date('2026-03-01T12:00:00Z');
    expect(periodRange('current_month', first, 'UTC')).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(periodRange('month', first, 'UTC')).toEqual({ from: '2026-02-02', to: '2026-03-01' });
    const last = new Date('2026-05-31T12:00:00Z');
    expect(periodRange('month', last, 'UTC')).toEqual({ from: '2026-05-01', to: '2026-05-31' });
    expect(periodRange('3_months', last, 'UTC')).toEqual({ from: '2026-03-01', to: '2026-05-31' });
  });

  test('the year and DST changes: yesterday of 1 January, a week over the clock change', () => {
    expect(periodRange('yesterday', new Date('2027-01-01T00:30:00Z'), 'UTC')).toEqual({
      from: '2026-12-31',
      to: '2026-12-31',
    });
    // Berlin moves its clocks on Sunday 2026-03-29; 22:30 UTC on the 29th is already the 30th there
    expect(periodRange('today', new Date('2026-03-29T22:30:00Z'), 'Europe/Berlin')).toEqual({
      from: '2026-03-30',
      to: '2026-03-30',
    });
    expect(periodRange('current_week', new Date('2026-03-29T21:30:00Z'), 'Europe/Berlin').from).toBe(
      '2026-03-23',
    );
  });

  test('helpers: weeks start on Monday, months clamp their day', () => {
    expect(weekStart('2026-03-15')).toBe('2026-03-09'); // Sunday
    expect(weekStart('2026-03-16')).toBe('2026-03-16'); // Monday
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2026-01-15', -3)).toBe('2025-10-15');
  });
});
