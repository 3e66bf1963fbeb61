import { type ImpressionRatePage, impressionRatePage, topArticlesPage } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { stubFonts } from '../../test/advertiser-fixtures.ts';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { siteFixture } from '../../test/publisher-fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const article = (id: string, title: string, impressions: number, clicks: number) => ({
  material_id: id,
  title,
  url: `https://daily-planet.example/${id}`,
  impressions,
  clicks,
  ctr: impressions ? Math.round((clicks / impressions) * 10_000) / 100 : 0,
});

function api(extra: Record<string, () => Response>) {
  loginAs('default', '7');
  return mockApi({
    'GET /api/auth/me': () => json(meFixture('default', '7')),
    'GET /api/users/7': () => json(accountFixture({ _id: '7' })),
    'GET /api/sites/5': () => json(siteFixture()),
    ...extra,
  });
}

describe('top articles', { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test('lists the articles with impressions, clicks and CTR; a header sorts and the sort goes to the URL', async () => {
    const user = userEvent.setup();
    const page = topArticlesPage.parse({
      items: [article('12', 'Mayor opens the bridge', 400, 20), article('13', '', 100, 1)],
      total: 2,
      page: 1,
      limit: 50,
      totals: { impressions: 500, clicks: 21, ctr: 4.2 },
    });
    const { calls } = api({ 'GET /api/sites/5/toparticles': () => json(page) });
    const { router } = renderApp('/sites/5/toparticles?from=2026-05-01&to=2026-05-03');
    const table = await screen.findByRole('table', { name: 'Top articles' }, { timeout: 10_000 });
    const link = await within(table).findByRole('link', { name: 'Mayor opens the bridge' });
    expect(link).toHaveAttribute('href', 'https://daily-planet.example/12');
    // an article without a title shows its address
    expect(within(table).getByRole('link', { name: 'daily-planet.example/13' })).toBeInTheDocument();
    expect(within(table).getByText('400')).toBeInTheDocument();
    expect(within(table).getByText('5%')).toBeInTheDocument();
    expect(screen.getByText('4.2%')).toBeInTheDocument();
    const first = calls.find((c) => c.path === '/api/sites/5/toparticles');
    expect(first?.query.get('sort')).toBe('impressions');
    expect(first?.query.get('order')).toBe('desc');
    expect(first?.query.get('from')).toBe('2026-05-01');

    await user.click(screen.getByRole('button', { name: 'Sort by CTR' }));
    await waitFor(() => expect(router.state.location.search).toContain('sort=ctr'));
    expect(router.state.location.search).toContain('order=desc');
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/api/sites/5/toparticles' && c.query.get('sort') === 'ctr')).toBe(
        true,
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Sort by CTR' }));
    await waitFor(() => expect(router.state.location.search).toContain('order=asc'));
    expect(router.state.location.search).toContain('from=2026-05-01');
  });

  test("an empty range says 'No data for this period'", async () => {
    const empty = { items: [], total: 0, page: 1, limit: 50, totals: { impressions: 0, clicks: 0, ctr: 0 } };
    api({ 'GET /api/sites/5/toparticles': () => json(empty) });
    renderApp('/sites/5/toparticles?from=2026-05-01&to=2026-05-03');
    expect(await screen.findByText('No data for this period', {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});

describe('impression rate', { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test('shows requests, drawn answers and both rates by widget', async () => {
    const day = (d: string, requests: number, rendered: number) => ({
      day: d,
      requests,
      rendered,
      impression_rate: requests ? Math.round((rendered / requests) * 10_000) / 100 : 0,
      impressions: rendered,
      viewable: 0,
      rate: 0,
    });
    const data: ImpressionRatePage = impressionRatePage.parse({
      items: [
        {
          widget_id: '9',
          widget_title: 'Below article',
          requests: 300,
          rendered: 240,
          impression_rate: 80,
          impressions: 240,
          viewable: 120,
          rate: 50,
          days: [day('2026-05-01', 100, 90), day('2026-05-02', 200, 150)],
        },
      ],
      total: 1,
      page: 1,
      limit: 20,
    });
    api({ 'GET /api/sites/5/impression-rate': () => json(data) });
    renderApp('/sites/5/impression-rate?from=2026-05-01&to=2026-05-02');
    const table = await screen.findByRole('table', { name: 'Impression rate' }, { timeout: 10_000 });
    expect(await within(table).findByText('Below article')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Widget requests' })).toBeInTheDocument();
    expect(within(table).getByText('300')).toBeInTheDocument();
    expect(within(table).getByText('80%')).toBeInTheDocument();
    expect(within(table).getByText('50%')).toBeInTheDocument();
  });
});
