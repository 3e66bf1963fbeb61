import { describe, expect, test } from 'vitest';
import { dayEnd, dayIn, dayStart, isTimeZone, statsQuery, statsRange } from './stats.ts';

describe('days of a timezone', () => {
  test('a day starts at local midnight, through clock changes and half-hour offsets', () => {
    expect(dayStart('2026-03-02', 'Europe/Berlin').toISOString()).toBe('2026-03-01T23:00:00.000Z');
    expect(dayStart('2026-07-02', 'Europe/Berlin').toISOString()).toBe('2026-07-01T22:00:00.000Z');
    expect(dayEnd('2026-03-28', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(dayEnd('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(dayStart('2026-03-02', 'Asia/Kolkata').toISOString()).toBe('2026-03-01T18:30:00.000Z');
    expect(dayStart('2026-03-02', 'America/New_York').toISOString()).toBe('2026-03-02T05:00:00.000Z');
    // Santiago skips midnight when summer time starts: the day starts at 01:00
    expect(dayStart('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    // the day after 9999-12-31 has no ISO text the database reads: its last instant ends the range
    expect(dayEnd('9999-12-31').toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(dayEnd('9999-12-31', 'Etc/GMT+12').toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  test('the day an instant falls on', () => {
    const late = new Date('2026-03-01T23:30:00Z');
    expect(dayIn(late)).toBe('2026-03-01');
    expect(dayIn(late, 'Europe/Berlin')).toBe('2026-03-02');
    expect(dayIn(late, 'America/Los_Angeles')).toBe('2026-03-01');
  });

  test('timezones are what Intl knows; the query defaults to UTC and rejects the rest', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(statsQuery.parse({ from: '2026-03-01', to: '2026-03-01' })).toEqual({
      from: '2026-03-01',
      to: '2026-03-01',
      group: 'day',
      tz: 'UTC',
    });
    expect(statsQuery.safeParse({ tz: 'Nowhere' }).success).toBe(false);
    expect(statsQuery.safeParse({ group: 'town' }).success).toBe(false);
    expect(statsRange({ tz: 'Pacific/Kiritimati' }).to).toBe(dayIn(new Date(), 'Pacific/Kiritimati'));
  });
});
