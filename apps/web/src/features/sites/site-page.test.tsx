import { material, paged as pagedOf } from '@adp/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { failure, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { paged, siteFixture, widgetFixture } from '../../test/publisher-fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const slow = { timeout: 20_000 };
const materials = pagedOf(material).parse({
  items: [
    {
      _id: '1',
      site_id: '5',
      url: 'https://daily-planet.example/a',
      title: 'Council approves bike lanes',
      description: '',
      image: 'https://daily-planet.example/a.jpg',
      category: 'news',
      language: 'en',
      published_at: '2026-02-01T08:00:00.000Z',
      expires_at: '2026-03-01T08:00:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  limit: 10,
});

describe('site overview', { timeout: 60_000 }, () => {
  test('shows the rejection reason, widgets and materials; a failed clear says so', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites/5': () =>
        json(siteFixture({ moderation: 'rejected', moderation_reason: 'Copied content' })),
      'GET /api/widgets': () => json(paged([widgetFixture()])),
      'GET /api/sites/5/materials': () => json(materials),
      'DELETE /api/sites/5/materials': () => failure(500, 'generic'),
    });
    renderApp('/sites/5');
    expect(await screen.findByText('Reason: Copied content', {}, slow)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Below the article' })).toHaveAttribute(
      'href',
      '/widgets/9',
    );
    expect(await screen.findByRole('link', { name: 'Council approves bike lanes' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear materials' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Clear materials' }));
    expect(await screen.findByText('Clear materials failed')).toBeInTheDocument();
  });

  test('a readonly user sees the site without any write control', async () => {
    loginAs('defaultreadonly', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('defaultreadonly', '7')),
      'GET /api/sites/5': () => json(siteFixture()),
      'GET /api/widgets': () => json(paged([widgetFixture()])),
      'GET /api/sites/5/materials': () => json(materials),
      'GET /api/sites/5/adsense-incomes': () => json({ items: [], total: 0, page: 1, limit: 10 }),
    });
    renderApp('/sites/5');
    await screen.findByRole('link', { name: 'Council approves bike lanes' }, slow);
    for (const name of ['Edit', 'New widget', 'Parse now', 'Clear materials']) {
      expect(screen.queryByRole('link', { name })).toBeNull();
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    // a site without AdSense days has no AdSense card
    expect(screen.queryByRole('region', { name: 'AdSense income' })).toBeNull();
  });

  test('statistics an admin hid give way to a notice; without advanced ones the click lists are left out', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    let site = siteFixture({ stats_visible: false });
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites/5': () => json(site),
      'GET /api/widgets': () => json(paged([widgetFixture()])),
      'GET /api/sites/5/materials': () => json(materials),
    });
    const { unmount } = renderApp('/sites/5');
    expect(
      await screen.findByText("An administrator has hidden this site's statistics.", {}, slow),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clicks and sources' })).toBeNull();
    // nothing asked of the statistics the owner may not read
    expect(calls.filter((c) => c.path.startsWith('/api/stats'))).toEqual([]);
    unmount();

    site = siteFixture({ stats_visible: true, advanced_stats: false });
    renderApp('/sites/5');
    await user.click(await screen.findByRole('button', { name: 'Clicks and sources' }, slow));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Geo clicks' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Clicks' })).toBeNull();
    expect(screen.queryByText("An administrator has hidden this site's statistics.")).toBeNull();
  });

  test("the site's credited AdSense days, newest first, with the site's share", async () => {
    loginAs('default', '7');
    const day = (date: string, views: number, income: number, mine: number | null = income) => ({
      date,
      page_views: views,
      impressions: views * 2,
      clicks: 12,
      site_income: income,
      publisher_income: mine,
      import_id: '3',
    });
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites/5': () => json(siteFixture()),
      'GET /api/widgets': () => json(paged([widgetFixture()])),
      'GET /api/sites/5/materials': () => json(materials),
      'GET /api/sites/5/adsense-incomes': () =>
        json({
          items: [day('2026-11-02', 12732, 15.68), day('2026-11-01', 12480, 15.04)],
          total: 2,
          page: 1,
          limit: 10,
        }),
    });
    renderApp('/sites/5');
    const card = await screen.findByRole('region', { name: 'AdSense income' }, slow);
    const rows = within(card).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Nov 2, 2026$15.6812,73225,46412',
      'Nov 1, 2026$15.0412,48024,96012',
    ]);
    expect(within(card).queryByRole('columnheader', { name: "Owner's share (after the agency)" })).toBeNull();
  });

  test("an agency member's AdSense days show the site's share and what the owner got after the agency", async () => {
    loginAs('agencymember', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('agencymember', '7')),
      'GET /api/sites/5': () => json(siteFixture()),
      'GET /api/widgets': () => json(paged([widgetFixture()])),
      'GET /api/sites/5/materials': () => json(materials),
      'GET /api/sites/5/adsense-incomes': () =>
        json({
          items: [
            {
              date: '2026-11-02',
              page_views: 10,
              impressions: 20,
              clicks: 1,
              site_income: 20,
              publisher_income: 16,
              import_id: '3',
            },
            {
              date: '2026-11-01',
              page_views: 10,
              impressions: 20,
              clicks: 1,
              site_income: 5,
              publisher_income: null,
              import_id: '2',
            },
          ],
          total: 2,
          page: 1,
          limit: 10,
        }),
    });
    renderApp('/sites/5');
    const card = await screen.findByRole('region', { name: 'AdSense income' }, slow);
    expect(
      within(card).getByRole('columnheader', { name: "Owner's share (after the agency)" }),
    ).toBeInTheDocument();
    const rows = within(card).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Nov 2, 2026$20.00$16.0010201',
      'Nov 1, 2026$5.00—10201',
    ]);
  });
});
