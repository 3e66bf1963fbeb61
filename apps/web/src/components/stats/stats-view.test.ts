import { describe, expect, test } from 'vitest';
import { nextSort, parseView, timeGroup, viewRange, writeView } from './stats-view.ts';

const groups = ['day', 'hour', 'country', 'site'] as const;
const parse = (query: string) => parseView(new URLSearchParams(query), groups);

describe('statistics view in the URL query', () => {
  test('an empty query is the last 7 days by the first breakdown, the impressions chart', () => {
    expect(parse('')).toEqual({ period: 'last_7_days', group: 'day', chart: 'impressions' });
  });

  test('reads a period, breakdown, sort, order and chart', () => {
    expect(parse('period=yesterday&group=country&sort=clicks&order=asc&chart=money')).toEqual({
      period: 'yesterday',
      group: 'country',
      sort: 'clicks',
      order: 'asc',
      chart: 'money',
    });
  });

  test('a custom range needs both valid days in order and at most 366 days', () => {
    expect(parse('from=2026-03-01&to=2026-03-05')).toMatchObject({
      period: 'custom',
      from: '2026-03-01',
      to: '2026-03-05',
    });
    expect(parse('period=custom&from=2026-03-01&to=2026-03-05').period).toBe('custom');
    for (const bad of [
      'from=2026-03-05&to=2026-03-01',
      'from=2026-03-01',
      'from=2026-02-30&to=2026-03-01',
      'from=yesterday&to=2026-03-01',
      'from=2025-03-01&to=2026-03-05',
      'period=custom',
    ])
      expect(parse(bad), bad).toEqual({ period: 'last_7_days', group: 'day', chart: 'impressions' });
    expect(parse('from=2025-03-05&to=2026-03-05').period).toBe('custom'); // 366 days
  });

  test('unknown values fall back: a breakdown the entity has not, a column, an order', () => {
    expect(parse('period=decade&group=creative&sort=money&chart=pie')).toEqual({
      period: 'last_7_days',
      group: 'day',
      chart: 'impressions',
    });
    // a sort without order takes the column's first direction
    expect(parse('sort=vcpm')).toMatchObject({ sort: 'vcpm', order: 'desc' });
    expect(parse('sort=key&order=sideways')).toMatchObject({ sort: 'key', order: 'asc' });
  });

  test('written back: defaults left out, other keys kept, and read again the same', () => {
    const params = new URLSearchParams('as=publisher&group=site&period=today');
    const view = {
      ...parseView(params, groups),
      period: '30_days' as const,
      sort: 'ecpm' as const,
      order: 'asc' as const,
    };
    const written = writeView(params, view, groups);
    expect(written.toString()).toBe('as=publisher&period=30_days&group=site&sort=ecpm&order=asc');
    expect(parseView(written, groups)).toEqual(view);
    expect(writeView(written, parse(''), groups).toString()).toBe('as=publisher');
    const custom = writeView(
      new URLSearchParams('period=today'),
      { ...parse(''), period: 'custom', from: '2026-01-01', to: '2026-01-31' },
      groups,
    );
    expect(custom.toString()).toBe('from=2026-01-01&to=2026-01-31');
  });

  test('a header click flips the order of the same column, starts a new one at its first direction', () => {
    const view = parse('');
    expect(nextSort(view, 'clicks')).toEqual({ sort: 'clicks', order: 'desc' });
    expect(nextSort({ ...view, sort: 'clicks', order: 'desc' }, 'clicks')).toEqual({
      sort: 'clicks',
      order: 'asc',
    });
    expect(nextSort({ ...view, sort: 'clicks', order: 'asc' }, 'clicks')).toEqual({
      sort: 'clicks',
      order: 'desc',
    });
    expect(nextSort({ ...view, sort: 'clicks', order: 'desc' }, 'key')).toEqual({
      sort: 'key',
      order: 'asc',
    });
  });

  test('the range of a view at a fixed clock; over time by hour for up to two days', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(viewRange(parse(''), now, 'UTC')).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(viewRange(parse('from=2026-01-01&to=2026-01-02'), now, 'UTC')).toEqual({
      from: '2026-01-01',
      to: '2026-01-02',
    });
    expect(timeGroup({ from: '2026-03-10', to: '2026-03-10' })).toBe('hour');
    expect(timeGroup({ from: '2026-03-09', to: '2026-03-10' })).toBe('hour');
    expect(timeGroup({ from: '2026-03-08', to: '2026-03-10' })).toBe('day');
  });
});
