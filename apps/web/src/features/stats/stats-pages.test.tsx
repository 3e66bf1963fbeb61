import { addDays, dayIn } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { browserTimeZone } from '../../components/stats-panel.tsx';
import { campaignFixture } from '../../test/advertiser-fixtures.ts';
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
const byCountry = {
  rows: [
    { key: 'DE', ...zero, impressions: 4000, viewable: 2000, clicks: 20, ctr: 0.5, ecpm: 1.25, spent: 5 },
    {
      key: 'FR',
      ...zero,
      impressions: 1000,
      viewable: 500,
      clicks: 30,
      conversions: 2,
      ctr: 3,
      ecpm: 6,
      spent: 6,
    },
    { key: 'unknown', ...zero, impressions: 10, clicks: 0, spent: 0 },
  ],
  total: {
    ...zero,
    impressions: 5010,
    viewable: 2500,
    clicks: 50,
    conversions: 2,
    ctr: 1,
    ecpm: 2.2,
    spent: 11,
  },
};

function campaignStats(answer: (query: URLSearchParams) => unknown) {
  loginAs('default', '7');
  return mockApi({
    'GET /api/auth/me': () => json(meFixture('default', '7')),
    'GET /api/users/7': () => json(accountFixture({ currency: 'EUR' })),
    'GET /api/campaigns/5': () => json(campaignFixture()),
    'GET /api/stats/campaigns/5': (req) => json(answer(req.query)),
  });
}

const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent);

describe('campaign statistics page', { timeout: 90_000 }, () => {
  test('by country from the URL: names, vCPM, totals; a header click sorts through the API and the URL', async () => {
    const user = userEvent.setup();
    const api = campaignStats((q) =>
      q.get('group') === 'country' ? byCountry : { rows: [], total: { ...zero } },
    );
    const { router } = renderApp('/users/7/campaigns/5/stats?period=yesterday&group=country');
    expect(await screen.findByRole('heading', { name: 'Statistics: Spring sale' }, slow)).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Statistics by Country' }, slow);
    const [head, ...body] = within(table).getAllByRole('row');
    expect(cells(head!)).toEqual([
      'Country',
      'Impressions',
      'Viewable',
      'Clicks',
      'Invalid clicks',
      'CTR',
      'Spent',
      'eCPM',
      'vCPM',
      'Conversions',
    ]);
    expect(body.map((r) => cells(r))).toEqual([
      // in the platform currency, though the owner's display currency is EUR
      ['Germany', '4,000', '2,000', '20', '0', '0.5%', '$5.00', '$1.25', '$2.50', '0'],
      ['France', '1,000', '500', '30', '0', '3%', '$6.00', '$6.00', '$12.00', '2'],
      ['Unknown', '10', '0', '0', '0', '0%', '$0.00', '$0.00', '$0.00', '0'],
      ['Total', '5,010', '2,500', '50', '0', '1%', '$11.00', '$2.20', '$4.40', '2'],
    ]);
    const tz = browserTimeZone();
    const yesterday = addDays(dayIn(new Date(), tz), -1);
    const first = api.calls.find(
      (c) => c.path === '/api/stats/campaigns/5' && c.query.get('group') === 'country',
    );
    expect(Object.fromEntries(first!.query)).toEqual({
      from: yesterday,
      to: yesterday,
      group: 'country',
      tz,
    });
    // the chart is over time: by hour for one day
    expect(
      api.calls.some((c) => c.path === '/api/stats/campaigns/5' && c.query.get('group') === 'hour'),
    ).toBe(true);

    await user.click(within(table).getByRole('button', { name: 'Sort by Clicks' }));
    expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('clicks');
    await waitFor(() =>
      expect(api.calls.some((c) => c.query.get('sort') === 'clicks' && c.query.get('order') === 'desc')).toBe(
        true,
      ),
    );
    expect(within(table).getByRole('columnheader', { name: /Clicks/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );

    // vCPM is the dashboard's: sorted here, not sent
    await user.click(within(table).getByRole('button', { name: 'Sort by vCPM' }));
    const after = await screen.findByRole('table', { name: 'Statistics by Country' }, slow);
    expect(
      within(after)
        .getAllByRole('row')
        .map((r) => cells(r)[0]),
    ).toEqual(['Country', 'France', 'Germany', 'Unknown', 'Total']);
    expect(api.calls.some((c) => c.query.get('sort') === 'vcpm')).toBe(false);
    expect(router.state.location.search).toContain('sort=vcpm');
  });

  test("empty answers say 'No stats for the chosen period'; a new user's answer says when statistics appear", async () => {
    campaignStats(() => ({ rows: [], total: { ...zero }, available_at: '2026-11-24T10:00:00.000Z' }));
    renderApp('/users/7/campaigns/5/stats?group=site');
    expect(await screen.findAllByText('No stats for the chosen period', {}, slow)).not.toHaveLength(0);
    expect(screen.getByText(/Statistics appear 24 hours after registration/)).toBeInTheDocument();
  });

  test("a user's statistics are 'My statistics' on one's own page and name the user on another's", async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', name: 'Paula' })),
      'GET /api/stats/users/7': () => json({ rows: [], total: { ...zero } }),
    });
    const own = renderApp('/users/7/stats');
    expect(await screen.findByRole('heading', { name: 'My statistics' }, slow)).toBeInTheDocument();
    own.unmount();

    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/1': () => json(accountFixture({ _id: '1', name: 'Admin' })),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', name: 'Paula' })),
      'GET /api/stats/users/7': () => json({ rows: [], total: { ...zero } }),
    });
    renderApp('/users/7/stats');
    expect(await screen.findByRole('heading', { name: 'Statistics of Paula' }, slow)).toBeInTheDocument();
  });

  test("an unknown campaign: 'Data not found.'", async () => {
    loginAs('default', '7');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('default', '7')) });
    renderApp('/users/7/campaigns/404/stats');
    expect(await screen.findByText('Data not found.', {}, slow)).toBeInTheDocument();
  });

  test("a Criteo campaign's Criteo screen reads its days from /api/criteo/stats; another campaign is sent to its statistics", async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ currency: 'EUR' })),
      'GET /api/campaigns/5': () => json(campaignFixture({ adstype: 'criteo' })),
      'GET /api/campaigns/6': () => json(campaignFixture({ _id: '6', adstype: 'default' })),
      'GET /api/criteo/stats': (req) =>
        json({
          rows: [{ key: req.query.get('to'), ...zero, impressions: 1200, clicks: 6, ctr: 0.5, spent: 1.5 }],
          total: { ...zero, impressions: 1200, clicks: 6, ctr: 0.5, spent: 1.5 },
        }),
    });
    renderApp('/users/7/campaigns/5/criteo');
    expect(await screen.findByRole('heading', { name: 'Criteo: Spring sale' }, slow)).toBeInTheDocument();
    expect((await screen.findAllByText('1,200', {}, slow)).length).toBeGreaterThan(0);
    const call = api.calls.find((c) => c.path === '/api/criteo/stats');
    expect(call?.query.get('campaign_id')).toBe('5');
    expect(screen.getByRole('link', { name: 'Criteo' })).toHaveAttribute('aria-current', 'page');

    renderApp('/users/7/campaigns/6/criteo');
    expect(await screen.findByText(/kept for campaigns of the Criteo ad type/, {}, slow)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path === '/api/criteo/stats')).toHaveLength(1);
  });

  test('RTB statistics of one partner ask its call and say there is nothing yet', async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ currency: 'EUR' })),
      'GET /api/campaigns/5': () => json(campaignFixture()),
      'GET /api/stats/campaigns/5/rtb/partners/3': () =>
        json({ rows: [], total: { ...zero }, count: 0, page: 1, limit: 500 }),
    });
    renderApp('/users/7/campaigns/5/rtb-stats/partner/3');
    expect(
      await screen.findByRole('heading', { name: 'RTB statistics: Spring sale' }, slow),
    ).toBeInTheDocument();
    expect(await screen.findAllByText('No stats for the chosen period', {}, slow)).toHaveLength(2);
    expect(screen.getByText('Partner 3')).toBeInTheDocument();
    expect(
      api.calls
        .filter((c) => c.path.startsWith('/api/stats/'))
        .every((c) => c.path === '/api/stats/campaigns/5/rtb/partners/3'),
    ).toBe(true);
  });
});
