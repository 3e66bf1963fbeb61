import { describe, expect, test } from 'vitest';
import { sortRows, sumRows, tableOf, vcpm, zeroValues } from './stats-rows.ts';

const row = (key: string, v: Partial<typeof zeroValues>) => ({ key, ...zeroValues, ...v });
const rows = [
  row('DE', { impressions: 1000, viewable: 500, clicks: 10, spent: 5, earned: 2 }),
  row('FR', { impressions: 3000, viewable: 2000, clicks: 10, spent: 6, earned: 3 }),
  row('AT', { impressions: 200, viewable: 0, clicks: 4, spent: 1, earned: 0.5 }),
];

describe('statistics table rows', () => {
  test('vCPM is the money per 1000 viewable impressions, 0 without any', () => {
    expect(vcpm(rows[0]!, 'spent')).toBe(10);
    expect(vcpm(rows[0]!, 'earned')).toBe(4);
    expect(vcpm(rows[1]!, 'spent')).toBe(3);
    expect(vcpm(rows[2]!, 'spent')).toBe(0);
    expect(vcpm(row('x', { viewable: 3, spent: 1 }), 'spent')).toBe(333.333333);
  });

  test('sorts by a number column either way, ties by key; by key as text; vCPM too', () => {
    expect(sortRows(rows, 'impressions', 'desc', 'spent').map((r) => r.key)).toEqual(['FR', 'DE', 'AT']);
    expect(sortRows(rows, 'impressions', 'asc', 'spent').map((r) => r.key)).toEqual(['AT', 'DE', 'FR']);
    // DE and FR both have 10 clicks: the key decides, in both directions
    expect(sortRows(rows, 'clicks', 'desc', 'spent').map((r) => r.key)).toEqual(['DE', 'FR', 'AT']);
    expect(sortRows(rows, 'clicks', 'asc', 'spent').map((r) => r.key)).toEqual(['AT', 'DE', 'FR']);
    expect(sortRows(rows, 'key', 'asc', 'spent').map((r) => r.key)).toEqual(['AT', 'DE', 'FR']);
    expect(sortRows(rows, 'key', 'desc', 'spent').map((r) => r.key)).toEqual(['FR', 'DE', 'AT']);
    expect(sortRows(rows, 'vcpm', 'desc', 'spent').map((r) => r.key)).toEqual(['DE', 'FR', 'AT']);
    // without a column: the API's order, untouched (and not the same array)
    const same = sortRows(rows, undefined, undefined, 'spent');
    expect(same).toEqual(rows);
    expect(same).not.toBe(rows);
  });

  test('totals: counts and money summed, CTR and eCPM computed again', () => {
    expect(sumRows(rows, 'spent')).toEqual({
      impressions: 4200,
      viewable: 2500,
      clicks: 24,
      invalid_clicks: 0,
      conversions: 0,
      ctr: 0.57,
      ecpm: 2.857143,
      spent: 12,
      earned: 5.5,
    });
    expect(sumRows(rows, 'earned').ecpm).toBe(1.309524);
    expect(sumRows([], 'spent')).toEqual(zeroValues);
    expect(sumRows([row('a', { spent: 0.1 }), row('b', { spent: 0.2 })], 'spent').spent).toBe(0.3);
  });

  test('24 hours: an hourly answer keeps the hours that end after `since`, and its total follows', () => {
    const hours = [
      row('2026-03-09T22:00:00+01:00', { impressions: 5, clicks: 1 }), // ends 21:00Z, before since
      row('2026-03-09T23:00:00+01:00', { impressions: 7, clicks: 2 }), // 22:00–23:00Z, ends after 22:30Z
      row('2026-03-10T00:00:00+01:00', { impressions: 11 }),
    ];
    const answer = { rows: hours, total: sumRows(hours, 'spent') };
    const since = new Date('2026-03-09T22:30:00Z');
    const shown = tableOf(answer, { since, hourly: true, side: 'spent', sort: 'impressions', order: 'desc' });
    expect(shown.rows.map((r) => r.impressions)).toEqual([11, 7]);
    expect(shown.total).toMatchObject({ impressions: 18, clicks: 2, ctr: 11.11 });
    // by day (or another breakdown) the answer is shown as it came
    expect(tableOf(answer, { since, hourly: false, side: 'spent' })).toEqual(answer);
  });
});
