import { type ClickRow, clicksPage, postbackPage } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { campaignFixture, stubFonts } from '../../test/advertiser-fixtures.ts';
import { accountFixture, failure, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { siteFixture } from '../../test/publisher-fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const clickRow = (over: Partial<ClickRow> = {}): ClickRow => ({
  _id: 'AbCdEfGhIjKl',
  created_at: '2026-05-02T10:00:00.000Z',
  campaign_id: '5',
  banner_id: '11',
  banner_title: 'Spring sale: 30% off',
  site_id: '3',
  site_title: 'Daily News',
  widget_id: '9',
  widget_title: 'Below article',
  country: 'DE',
  city: 'Berlin',
  device: 'desktop',
  os: 'Windows',
  browser: 'Chrome',
  price: 0.25,
  status: 'valid',
  reason: null,
  converted_at: null,
  conversion_sum: null,
  conversion_status: null,
  ...over,
});

function api(page: unknown) {
  loginAs('default', '7');
  return mockApi({
    'GET /api/auth/me': () => json(meFixture('default', '7')),
    'GET /api/users/7': () => json(accountFixture({ _id: '7' })),
    'GET /api/campaigns/5': () => json(campaignFixture({})),
    'GET /api/campaigns/5/clicks': () => json(clicksPage.parse(page)),
  });
}

const pageOf = (items: ClickRow[], over = {}) => ({
  items,
  total: items.length,
  page: 1,
  limit: 50,
  sites_hidden: false,
  ...over,
});

describe('the campaign clicks screen', { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test('lists clicks with creative, site, geo, price and the reason of an invalid one', async () => {
    api(
      pageOf([clickRow(), clickRow({ _id: 'x2', status: 'invalid', reason: 'filter_onetoone', price: 0 })]),
    );
    renderApp('/users/7/campaigns/5/clicks?from=2026-05-01&to=2026-05-03');
    // the first screen of the file loads the page's code (the range picker's calendar too)
    const table = await screen.findByRole('table', { name: 'Clicks' }, { timeout: 20_000 });
    expect(await within(table).findAllByText('Daily News')).toHaveLength(2);
    expect(within(table).getAllByText('Spring sale: 30% off')).toHaveLength(2);
    // countries and device classes in the viewer's language, OS and browser by their brand names
    expect(within(table).getAllByText('Germany · Berlin')).toHaveLength(2);
    expect(within(table).getAllByText('Desktop')).toHaveLength(2);
    expect(within(table).getAllByText('Windows · Chrome')).toHaveLength(2);
    expect(within(table).getByText('Invalid')).toBeInTheDocument();
    expect(within(table).getByText('Click filter: one per visitor')).toBeInTheDocument();
    expect(within(table).getByText('$0.25')).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'IP address' })).toBeNull();
  });

  test("a click's time is in the zone of the period the list shows (the account's), not the browser's", async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', timezone: 'America/Los_Angeles' })),
      'GET /api/campaigns/5': () => json(campaignFixture({})),
      'GET /api/campaigns/5/clicks': () =>
        json(clicksPage.parse(pageOf([clickRow({ created_at: '2026-05-02T05:30:00.000Z' })]))),
    });
    renderApp('/users/7/campaigns/5/clicks?from=2026-05-01&to=2026-05-01');
    const table = await screen.findByRole('table', { name: 'Clicks' }, { timeout: 20_000 });
    // 05:30 UTC on May 2 is 10:30 PM on May 1 in Los Angeles
    expect(await within(table).findByText(/May 1, 2026.*10:30/)).toBeInTheDocument();
  });

  test("an empty range says 'No data for this period'; the range and status go to the API and the URL", async () => {
    const user = userEvent.setup();
    const { calls } = api(pageOf([]));
    const { router } = renderApp('/users/7/campaigns/5/clicks?from=2026-05-01&to=2026-05-03');
    expect(await screen.findByText('No data for this period', {}, { timeout: 10_000 })).toBeInTheDocument();
    const first = calls.find((c) => c.path === '/api/campaigns/5/clicks');
    expect(first?.query.get('from')).toBe('2026-05-01');
    expect(first?.query.get('to')).toBe('2026-05-03');
    expect(first?.query.get('tz')).toBeTruthy();

    await user.click(screen.getAllByLabelText('Status')[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'Invalid' }));
    await waitFor(() =>
      expect(
        calls
          .filter((c) => c.path === '/api/campaigns/5/clicks')
          .at(-1)
          ?.query.get('status'),
      ).toBe('invalid'),
    );
    expect(router.state.location.search).toContain('status=invalid');
    expect(router.state.location.search).toContain('from=2026-05-01');

    // the statistics screens' range picker: the custom days as the language writes them, quick ranges
    const period = screen.getAllByLabelText('Period')[0] as HTMLElement;
    expect(period).toHaveValue('Custom range');
    expect(screen.getByRole('button', { name: 'From – to' })).toHaveTextContent('01.05.2026 – 03.05.2026');
    await user.click(period);
    await user.click(await screen.findByRole('option', { name: 'Yesterday' }));
    await waitFor(() => expect(router.state.location.search).toContain('period=yesterday'));
    expect(router.state.location.search).not.toContain('from=');
    const yesterday = calls.filter((c) => c.path === '/api/campaigns/5/clicks').at(-1);
    expect(yesterday?.query.get('from')).toBe(yesterday?.query.get('to'));
  });

  test('CSV and XLSX of every click of the range and status, not only the page on screen', async () => {
    loginAs('default', '7');
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7' })),
      'GET /api/campaigns/5': () => json(campaignFixture({})),
      'GET /api/campaigns/5/clicks': () => json(clicksPage.parse(pageOf([clickRow()]))),
      'GET /api/campaigns/5/clicks/export': (req) =>
        new Response('created_at\n', {
          status: 200,
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': `attachment; filename="stats-campaign-5-clicks.${req.query.get('format')}"`,
          },
        }),
    });
    const { createObjectURL, revokeObjectURL } = URL;
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    try {
      const saved: string[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        saved.push(this.download);
      });
      const user = userEvent.setup();
      renderApp('/users/7/campaigns/5/clicks?from=2026-05-01&to=2026-05-03&status=invalid');
      await screen.findByRole('table', { name: 'Clicks' }, { timeout: 20_000 });
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(saved).toEqual(['stats-campaign-5-clicks.csv']));
      const file = calls.find((c) => c.path === '/api/campaigns/5/clicks/export');
      expect(Object.fromEntries(file?.query ?? [])).toEqual({
        from: '2026-05-01',
        to: '2026-05-03',
        tz: expect.any(String),
        status: 'invalid',
        format: 'csv',
      });
      await user.click(screen.getByRole('button', { name: 'Export XLSX' }));
      await waitFor(() =>
        expect(saved).toEqual(['stats-campaign-5-clicks.csv', 'stats-campaign-5-clicks.xlsx']),
      );
    } finally {
      Object.assign(URL, { createObjectURL, revokeObjectURL });
      vi.restoreAllMocks();
    }
  });

  test('hidden sites: no site column, and the screen says why', async () => {
    api(
      pageOf([clickRow({ site_id: null, site_title: null, widget_id: null, widget_title: null })], {
        sites_hidden: true,
      }),
    );
    renderApp('/users/7/campaigns/5/clicks?from=2026-05-01&to=2026-05-03');
    expect(
      await screen.findByText(
        "Site and widget names are hidden for this campaign's clicks.",
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Clicks' });
    expect(within(table).queryByRole('columnheader', { name: 'Site / widget' })).toBeNull();
  });
});

describe("a site's click screens and its statistics access", { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test('without the advanced statistics: no Clicks tab, and its address says why instead of failing', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites/5': () => json(siteFixture({ advanced_stats: false })),
      'GET /api/sites/5/geoclicks': () => json({ items: [], total: 0, page: 1, limit: 50 }),
      'GET /api/sites/5/clicks': () => failure(403, 'advanced_stats_off'),
    });
    const { unmount } = renderApp('/sites/5/geoclicks?from=2026-05-01&to=2026-05-03');
    const tabs = await screen.findByRole('tablist', { name: 'Click statistics' }, { timeout: 20_000 });
    await waitFor(() => expect(within(tabs).queryByRole('tab', { name: 'Clicks' })).toBeNull());
    expect(within(tabs).getByRole('tab', { name: 'Geo clicks' })).toBeInTheDocument();
    unmount();
    renderApp('/sites/5/clicks?from=2026-05-01&to=2026-05-03');
    expect(
      await screen.findByText(
        'This view is part of the advanced statistics, which an administrator turns on for the site.',
        {},
        { timeout: 20_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('There was a mistake during this operation')).toBeNull();
  });
});

describe('the campaign postback screen', { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test('lists conversions and tells the advertiser the postback URL its server calls', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7' })),
      'GET /api/campaigns/5': () => json(campaignFixture({})),
      'GET /api/campaigns/5/postback': () =>
        json(
          postbackPage.parse({
            ...pageOf([
              clickRow({
                converted_at: '2026-05-02T11:00:00.000Z',
                conversion_sum: 12.5,
                conversion_status: 'sale',
              }),
            ]),
            conversions: 1,
            sum: 12.5,
          }),
        ),
    });
    renderApp('/users/7/campaigns/5/postback?from=2026-05-01&to=2026-05-03');
    const card = await screen.findByTestId('postback-url', {}, { timeout: 20_000 });
    expect(card).toHaveTextContent(`${window.location.origin}/postback?click_id={click_id}`);
    expect(card).toHaveTextContent('Put {click_id} into the campaign’s UTM or track URL');
    expect(card).toHaveTextContent('may add &sum= (the order value');
    expect(await screen.findByText('sale')).toBeInTheDocument();
  });
});
