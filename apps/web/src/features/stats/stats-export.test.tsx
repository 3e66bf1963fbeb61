import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { bannerFixture, campaignFixture, pageOf, stubFonts } from '../../test/advertiser-fixtures.ts';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

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
const answer = {
  rows: [{ key: 'DE', ...zero, impressions: 4000, clicks: 20, ctr: 0.5, ecpm: 1.25, spent: 5 }],
  total: { ...zero, impressions: 4000, clicks: 20, ctr: 0.5, ecpm: 1.25, spent: 5 },
};
const tree = (key: string) => ({
  rows: [{ key, ...zero, impressions: 10, clicks: 1, ctr: 10, spent: 0.1, ecpm: 10 }],
  total: { ...zero, impressions: 10, clicks: 1, ctr: 10, spent: 0.1, ecpm: 10 },
  count: 1,
  page: 1,
  limit: 500,
});
const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent);

afterEach(() => vi.restoreAllMocks());

describe('statistics screens: export, the second tree, revenue, rtb sources', { timeout: 90_000 }, () => {
  beforeAll(stubFonts);

  test("the campaign's v2 page counts its week from the second stats tree", async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', balance: 3 })),
      'GET /api/campaigns/5': () => json(campaignFixture({})),
      'GET /api/campaigns/5/payments': () => json(pageOf([])),
      'GET /api/campaigns/5/blocked-sources': () => json(pageOf([])),
      'GET /api/banners': () => json(pageOf([])),
      'GET /api/stats2/campaigns/revenue': () => json(tree('2026-03-01')),
    });
    renderApp('/users/7/campaigns/v2/5');
    await screen.findByRole('heading', { name: 'Spring sale' }, slow);
    await waitFor(() =>
      expect(
        api.calls.some((c) => c.path === '/api/stats2/campaigns/revenue' && c.query.get('id') === '5'),
      ).toBe(true),
    );
    expect(api.calls.some((c) => c.path.startsWith('/api/stats/campaigns'))).toBe(false);
  });

  test('CSV and XLSX download the table on screen: the same call and query, the bearer token', async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ currency: 'EUR' })),
      'GET /api/campaigns/5': () => json(campaignFixture()),
      'GET /api/stats/campaigns/5': () => json(answer),
      'GET /api/stats/campaigns/5/export': (req) =>
        new Response('country\nDE\n', {
          status: 200,
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': `attachment; filename="stats-campaign-5-country.${req.query.get('format')}"`,
          },
        }),
    });
    const created = vi.fn(() => 'blob:stats');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const user = userEvent.setup();
    renderApp(
      '/users/7/campaigns/5/stats?period=custom&from=2026-03-01&to=2026-03-07&group=country&sort=clicks',
    );
    await screen.findByRole('table', { name: 'Statistics by Country' }, slow);

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toEqual(['stats-campaign-5-country.csv']));
    const csv = api.calls.find((c) => c.path === '/api/stats/campaigns/5/export');
    expect(csv?.headers.get('authorization')).toMatch(/^Bearer /);
    expect(Object.fromEntries(csv?.query ?? [])).toEqual({
      from: '2026-03-01',
      to: '2026-03-07',
      group: 'country',
      tz: expect.any(String),
      sort: 'clicks',
      order: 'desc',
      format: 'csv',
    });
    await user.click(screen.getByRole('button', { name: 'Export XLSX' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toBe('stats-campaign-5-country.xlsx');
    expect(created).toHaveBeenCalledTimes(2);
  });

  test('the creative v2 screen reads the second stats tree: over time and each breakdown by the creative id', async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ currency: 'USD' })),
      'GET /api/banners/11': () => json(bannerFixture()),
      'GET /api/stats2/banners/revenue': () => json(tree('2026-03-01')),
      // twelve countries: the card shows ten and says its total counts all twelve
      'GET /api/stats2/banners/country': () =>
        json({
          ...tree('DE'),
          rows: ['DE', 'FR', 'US', 'GB', 'ES', 'IT', 'PL', 'NL', 'BE', 'AT', 'CH', 'PT'].map((key, i) => ({
            ...tree(key).rows[0],
            key,
            impressions: 20 - i,
          })),
          count: 12,
        }),
      'GET /api/stats2/banners/city': () => json(tree('Berlin')),
      'GET /api/stats2/banners/device': () => json(tree('mobile')),
      'GET /api/stats2/banners/os': () => json(tree('Android')),
      'GET /api/stats2/banners/site': () => json(tree('3')),
      'POST /api/sites/names': () => json({ items: [] }),
    });
    renderApp('/users/7/campaigns/5/creatives/11/v2?period=custom&from=2026-03-01&to=2026-03-01');
    const byCountry = await screen.findByRole('region', { name: 'By country' }, slow);
    expect(await within(byCountry).findByText('Germany', {}, slow)).toBeInTheDocument();
    expect(within(byCountry).queryByText('Portugal')).toBeNull();
    expect(within(byCountry).getByText('The top 10 of 12; the total counts them all.')).toBeInTheDocument();
    const stats = api.calls.filter((c) => c.path.startsWith('/api/stats'));
    expect(stats.every((c) => c.path.startsWith('/api/stats2/banners/'))).toBe(true);
    expect(new Set(stats.map((c) => c.path))).toEqual(
      new Set(['revenue', 'country', 'city', 'device', 'os', 'site'].map((b) => `/api/stats2/banners/${b}`)),
    );
    expect(stats.every((c) => c.query.get('id') === '11' && c.query.get('from') === '2026-03-01')).toBe(true);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
  });

  test("the platform statistics show the platform's revenue", async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/1': () => json(accountFixture({ _id: '1' })),
      'GET /api/stats/platform': (req) =>
        json(
          req.query.get('group') === 'country'
            ? {
                rows: [{ key: 'DE', ...zero, impressions: 5, spent: 2, earned: 1 }],
                total: { ...zero, impressions: 5, spent: 2, earned: 1, revenue: 0.6 },
              }
            : {
                rows: [{ key: '2026-03-01', ...zero, spent: 2, earned: 1, revenue: 0.6 }],
                total: { ...zero, spent: 2, earned: 1, revenue: 0.6 },
              },
        ),
    });
    renderApp('/statistics?period=custom&from=2026-03-01&to=2026-03-03&group=country');
    const table = await screen.findByRole('table', { name: 'Statistics by Country' }, slow);
    const [head, row, total] = within(table).getAllByRole('row');
    const at = cells(head!).indexOf('Revenue');
    expect(at).toBe(8);
    // a breakdown carries the revenue in its total only
    expect(cells(row!)[at]).toBe('—');
    expect(cells(total!)[at]).toBe('$0.60');
  });

  test("a creative's RTB source asks its own call and says 'No stats for the chosen period'", async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/banners/11': () => json(bannerFixture()),
      'GET /api/stats/banners/11/rtb/sources/9': () => json({ ...tree('x'), rows: [], total: { ...zero } }),
    });
    renderApp('/users/7/campaigns/5/creatives/11/rtb-stats/source/9');
    expect(await screen.findAllByText('No stats for the chosen period', {}, slow)).toHaveLength(2);
    expect(api.calls.some((c) => c.path === '/api/stats/banners/11/rtb/sources/9')).toBe(true);
  });
});
