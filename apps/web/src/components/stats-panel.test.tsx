import { addDays, dayIn, utcDay } from '@adp/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../test/fixtures.ts';
import { siteFixture, widgetFixture } from '../test/publisher-fixtures.ts';
import { renderApp } from '../test/render.tsx';
import { browserTimeZone } from './stats-panel.tsx';

const slow = { timeout: 20_000 };
const zero = {
  impressions: 0,
  viewable: 0,
  clicks: 0,
  invalid_clicks: 0,
  conversions: 0,
  ctr: 0,
  ecpm: 0,
  spent: 0,
  earned: 0,
};
const ctrOf = (v: typeof zero) => (v.impressions ? Math.round((v.clicks / v.impressions) * 10_000) / 100 : 0);
/** An answer of GET /api/stats for the 7 days up to `today`, with `days` overriding some of them. */
function week(days: Record<string, Partial<typeof zero>> = {}, today = dayIn(new Date(), browserTimeZone())) {
  const rows = Array.from({ length: 7 }, (_, i) => {
    const key = addDays(today, i - 6);
    const row = { key, ...zero, ...days[key] };
    return { ...row, ctr: ctrOf(row) };
  });
  const total = { ...zero };
  for (const r of rows)
    for (const k of ['impressions', 'viewable', 'clicks', 'invalid_clicks', 'spent', 'earned'] as const)
      total[k] += r[k];
  return { rows, total: { ...total, ctr: ctrOf(total) } };
}

function widgetPage(stats: ReturnType<typeof week>, timezone: string | null = null) {
  loginAs('default', '7');
  const api = mockApi({
    'GET /api/auth/me': () => json(meFixture('default', '7')),
    'GET /api/users/7': () => json(accountFixture({ currency: 'EUR', timezone })),
    'GET /api/widgets/9': () => json(widgetFixture()),
    'GET /api/sites/5': () => json(siteFixture()),
    'GET /api/stats/widgets/9': () => json(stats),
  });
  renderApp('/widgets/9');
  return api;
}

/** The value cells of one metric's row: [today, last 7 days]. */
function rowOf(table: HTMLElement, metric: string) {
  const header = within(table).getByRole('rowheader', { name: metric });
  return within(header.closest('tr')!)
    .getAllByRole('cell')
    .map((c) => c.textContent);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('statistics panel', { timeout: 60_000 }, () => {
  test("a widget shows today's and the week's counters and earnings from the statistics API", async () => {
    const today = dayIn(new Date(), browserTimeZone());
    const api = widgetPage(
      week({
        [today]: { impressions: 1200, viewable: 800, clicks: 3, invalid_clicks: 1, earned: 1.5, spent: 9 },
        [addDays(today, -3)]: { impressions: 800, clicks: 1, earned: 0.25 },
      }),
    );
    const table = await screen.findByRole(
      'table',
      { name: 'Statistics for today and the last 7 days' },
      slow,
    );
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Metric', 'Today', '7 days']);
    expect(rowOf(table, 'Impressions')).toEqual(['1,200', '2,000']);
    expect(rowOf(table, 'Viewable impressions')).toEqual(['800', '800']);
    expect(rowOf(table, 'Clicks')).toEqual(['3', '4']);
    expect(rowOf(table, 'Invalid clicks')).toEqual(['1', '1']);
    expect(rowOf(table, 'CTR')).toEqual(['0.25%', '0.2%']);
    // a publisher's entity shows what it earned, in the owner's currency; spend is not its business
    // in the platform currency: the owner's display currency (EUR) converts its balance, not these
    expect(rowOf(table, 'Earnings')).toEqual(['$1.50', '$1.75']);
    expect(within(table).queryByRole('rowheader', { name: 'Spend' })).toBeNull();
    expect(screen.queryByText('No stats for the chosen period')).toBeNull();
    const call = api.calls.find((c) => c.path === '/api/stats/widgets/9');
    expect(Object.fromEntries(call!.query)).toEqual({
      from: addDays(today, -6),
      to: today,
      group: 'day',
      tz: browserTimeZone(),
    });
  });

  test("today is the browser's today: the days asked for are those of its timezone", async () => {
    // the browser's setting, as a user far east of UTC has it (UTC+14: its today is often UTC's tomorrow)
    const tz = 'Pacific/Kiritimati';
    const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
      this: Intl.DateTimeFormat,
    ) {
      return { ...resolved.call(this), timeZone: tz };
    });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date());
    const api = widgetPage(week({ [today]: { impressions: 42 } }, today));
    const table = await screen.findByRole(
      'table',
      { name: 'Statistics for today and the last 7 days' },
      slow,
    );
    expect(rowOf(table, 'Impressions')).toEqual(['42', '42']);
    expect(screen.getByText(`Days are counted in your time zone (${tz}).`)).toBeInTheDocument();
    const call = api.calls.find((c) => c.path === '/api/stats/widgets/9');
    expect(Object.fromEntries(call!.query)).toEqual({
      from: addDays(today, -6),
      to: today,
      group: 'day',
      tz,
    });
    expect(today === utcDay() || today === addDays(utcDay(), 1)).toBe(true);
  });

  test('nothing delivered: zeros and the empty text', async () => {
    widgetPage(week());
    const table = await screen.findByRole(
      'table',
      { name: 'Statistics for today and the last 7 days' },
      slow,
    );
    expect(rowOf(table, 'Impressions')).toEqual(['0', '0']);
    expect(rowOf(table, 'CTR')).toEqual(['0%', '0%']);
    expect(rowOf(table, 'Earnings')).toEqual(['$0.00', '$0.00']);
    expect(screen.getByText('No stats for the chosen period')).toBeInTheDocument();
  });

  test("the viewer's timezone setting, when it has one, decides the days", async () => {
    const tz = 'Pacific/Kiritimati';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date());
    const api = widgetPage(week({ [today]: { impressions: 5 } }, today), tz);
    const table = await screen.findByRole(
      'table',
      { name: 'Statistics for today and the last 7 days' },
      slow,
    );
    expect(rowOf(table, 'Impressions')).toEqual(['5', '5']);
    expect(screen.getByText(`Days are counted in your time zone (${tz}).`)).toBeInTheDocument();
    const calls = api.calls.filter((c) => c.path === '/api/stats/widgets/9');
    expect(calls.map((c) => Object.fromEntries(c.query).tz)).toEqual([tz]);
  });

  test('the 24-hour rule: no table, the time statistics appear', async () => {
    const at = '2031-05-06T07:08:00.000Z';
    widgetPage({ rows: [], total: { ...zero }, available_at: at } as unknown as ReturnType<typeof week>);
    const notice = await screen.findByRole('status', {}, slow);
    expect(notice).toHaveTextContent('Statistics are not available yet');
    expect(notice).toHaveTextContent(/Statistics appear 24 hours after registration: from .*2031/);
    expect(screen.queryByRole('table', { name: 'Statistics for today and the last 7 days' })).toBeNull();
  });
});
