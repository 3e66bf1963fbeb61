import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const sitesReport = () =>
  json({
    total: 1,
    rows: [
      {
        site_id: '7',
        site: 'Daily News',
        domain: 'news.example',
        user_id: '3',
        user: 'pub@example.com',
        impressions: 1500,
        clicks: 4,
        ctr: 0.27,
        earned: 1.75,
        ecpm: 1.166667,
      },
    ],
  });

afterEach(() => vi.restoreAllMocks());

describe('reports page', () => {
  test('an id filter that is no number says so under its field; the report waits instead of ignoring it', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/reports': () => sitesReport(),
    });
    renderApp('/reports?type=sites&user_id=abc');
    expect(await screen.findByText('User ID must be a number', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByText('Daily News')).not.toBeInTheDocument();
    expect(api.calls.some((c) => c.path === '/api/reports')).toBe(false);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  test('an admin reads a report, switches to clicks with a filter, and exports the file with its token', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/reports': (req) =>
        req.query.get('type') === 'clicks'
          ? json({
              total: 1,
              rows: [
                {
                  created_at: '2026-03-01T10:00:00.000Z',
                  click_id: 'c1',
                  status: 'invalid',
                  reason: 'bot',
                  campaign_id: '5',
                  banner_id: '6',
                  site_id: '7',
                  widget_id: '8',
                  country: 'DE',
                  device: 'desktop',
                  os: 'Linux',
                  browser: 'Firefox',
                  ip: '10.0.0.1',
                  price: 0,
                  publisher_earned: 0,
                },
              ],
            })
          : sitesReport(),
      'GET /api/reportsexport': () =>
        new Response('site_id\n7\n', {
          status: 200,
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': 'attachment; filename="report-sites.csv"',
          },
        }),
    });
    const created = vi.fn(() => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    renderApp('/reports?from=2026-03-01&to=2026-03-07');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Sites' });
    expect(await within(table).findByText('Daily News')).toBeInTheDocument();
    expect(within(table).getByText('pub@example.com')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'eCPM' })).toBeInTheDocument();
    const first = api.calls.find((c) => c.path === '/api/reports');
    expect(Object.fromEntries(first?.query ?? [])).toMatchObject({
      type: 'sites',
      from: '2026-03-01',
      to: '2026-03-07',
      group: 'total',
      page: '1',
      limit: '50',
    });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const exported = api.calls.find((c) => c.path === '/api/reportsexport');
    expect(exported?.headers.get('authorization')).toMatch(/^Bearer /);
    expect(Object.fromEntries(exported?.query ?? [])).toMatchObject({
      type: 'sites',
      format: 'csv',
      from: '2026-03-01',
    });
    expect(created).toHaveBeenCalled();

    await user.click(screen.getByRole('tab', { name: 'Clicks' }));
    const clicks = await screen.findByRole('table', { name: 'Clicks' });
    expect(await within(clicks).findByText('c1')).toBeInTheDocument();
    expect(within(clicks).getByText('Invalid')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Campaign ID'), '5');
    await user.tab();
    await waitFor(() =>
      expect(
        api.calls.some((c) => c.query.get('type') === 'clicks' && c.query.get('campaign_id') === '5'),
      ).toBe(true),
    );
  });

  test('an empty period says so; other roles do not get the page', async () => {
    loginAs('adminreadonly', '2');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('adminreadonly', '2')),
      'GET /api/reports': () => json({ rows: [], total: 0 }),
    });
    const readonly = renderApp('/reports?type=postback');
    expect(await screen.findByText('No data for this period')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Postback', selected: true })).toBeInTheDocument();
    readonly.unmount();

    loginAs('default', '3');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('default', '3')) });
    const { router } = renderApp('/reports');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/miscellaneous/not-authorized'));
  });

  test('the range takes the periods of SPEC.md section 9 from the URL', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/reports': () => json({ items: [], total: 0, page: 1, limit: 50 }),
    });
    renderApp('/reports?period=20_weeks');
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/reports')).toBe(true));
    const query = api.calls.find((c) => c.path === '/api/reports')?.query;
    const days = (Date.parse(query?.get('to') ?? '') - Date.parse(query?.get('from') ?? '')) / 86_400_000;
    expect(days).toBe(139);
    await waitFor(() => expect(screen.getAllByLabelText('Period')[0]).toHaveValue('20 weeks'));
  });
});
