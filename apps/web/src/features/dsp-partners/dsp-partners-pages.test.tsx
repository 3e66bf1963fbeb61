import { dspPartner } from '@adp/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const slow = { timeout: 20_000 };

const partner = dspPartner.parse({
  _id: '3',
  name: 'Demand One',
  endpoint: 'https://dsp.example/openrtb2',
  openrtb_version: '2.6',
  daily_money_limit: 25.5,
  daily_budget_limit: null,
  max_request_time: 250,
  whitelist: [],
  blacklist: ['bad.example'],
  ad_position: 3,
  status: 'active',
  created_at: '2026-01-01T00:00:00.000Z',
});
const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, limit: 20 });
const zero = { requests: 0, bids: 0, wins: 0, timeouts: 0, errors: 0, revenue: 0, ecpm: 0 };

describe('DSP partners', { timeout: 60_000 }, () => {
  test('an admin lists partners and creates one; the server’s field errors show under the fields', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    let posted: Record<string, unknown> | null = null;
    let attempts = 0;
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/dsppartners': () => json(page([partner])),
      'POST /api/dsppartners': (req) => {
        attempts += 1;
        posted = JSON.parse(req.body).dsppartner;
        if (attempts === 1)
          return validationFailure([{ field: 'dsppartner.endpoint', detail: 'Endpoint URL is unreachable' }]);
        return json({ ...partner, _id: '4', name: 'Demand Two' }, 201);
      },
      'GET /api/dsppartners/4': () => json({ ...partner, _id: '4', name: 'Demand Two' }),
      'GET /api/dsppartnerblacklist': () => json(page([])),
    });
    renderApp('/dsppartners');
    expect(await screen.findByRole('link', { name: 'Demand One' }, slow)).toHaveAttribute(
      'href',
      '/dsppartners/3',
    );
    await user.click(screen.getByRole('link', { name: 'Add DSP partner' }));
    await user.type(await screen.findByLabelText(/^Name/, {}, slow), 'Demand Two');
    await user.type(screen.getByLabelText(/^Endpoint URL/), 'https://two.example/bid');
    await user.type(screen.getAllByLabelText(/^Whitelist/)[0] as HTMLElement, 'news.example{enter}');
    await user.click(screen.getByRole('button', { name: 'Create DSP partner' }));
    // under its field (and in the toast every 422 entry gets)
    await waitFor(() =>
      expect(screen.getByLabelText(/^Endpoint URL/)).toHaveAttribute('aria-invalid', 'true'),
    );
    expect((await screen.findAllByText('Endpoint URL is unreachable')).length).toBeGreaterThan(0);
    expect(posted).toMatchObject({
      name: 'Demand Two',
      endpoint: 'https://two.example/bid',
      whitelist: ['news.example'],
      max_request_time: 300,
      daily_money_limit: null,
      ad_position: 0,
    });
    await user.click(screen.getByRole('button', { name: 'Create DSP partner' }));
    expect(await screen.findByRole('heading', { name: 'Demand Two' }, slow)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(2);
  });

  test('the partner page shows its settings and adds a blacklist item', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    const items: {
      _id: string;
      dsp_partner_id: string;
      source: string;
      comment: string;
      created_at: string;
    }[] = [];
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/dsppartners/3': () => json(partner),
      'GET /api/dsppartnerblacklist': () => json(page(items)),
      'POST /api/dsppartnerblacklist': (req) => {
        const body = JSON.parse(req.body).dsppartnerblacklist;
        const item = { _id: '9', ...body, created_at: '2026-01-02T00:00:00.000Z' };
        items.push(item);
        return json(item, 201);
      },
    });
    renderApp('/dsppartners/3');
    expect(await screen.findByText('Below the fold', {}, slow)).toBeInTheDocument();
    expect(screen.getByText('bad.example')).toBeInTheDocument();
    expect(screen.getByText('All sites')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add source' }));
    await user.type(await screen.findByLabelText(/^Source/), 'spam.example');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('spam.example', {}, slow)).toBeInTheDocument();
    const post = api.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(post?.body ?? '{}')).toEqual({
      dsppartnerblacklist: { dsp_partner_id: '3', source: 'spam.example', comment: '' },
    });
  });

  test('statistics: tabs ask the breakdown, a row drills down by day', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/dsppartners/3': () => json(partner),
      'GET /api/dsppartners/3/stats/export': (req) =>
        new Response('source\n', {
          status: 200,
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': `attachment; filename="stats-dsp-partner-3-${req.query.get('group')}.csv"`,
          },
        }),
      'GET /api/dsppartners/3/stats': (req) =>
        json({
          rows:
            req.query.get('group') === 'source'
              ? [{ key: '12', name: 'news.example', ...zero, requests: 10, wins: 4, revenue: 0.02, ecpm: 5 }]
              : [{ key: '2026-01-01', ...zero, requests: 3 }],
          total: { ...zero, requests: 10, wins: 4, revenue: 0.02, ecpm: 5 },
        }),
    });
    renderApp('/dsppartners/3/stats');
    expect(await screen.findByRole('tab', { name: 'Overview', selected: true }, slow)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Sources' }));
    const row = await screen.findByRole('link', { name: 'news.example (#12)' }, slow);
    expect(row).toHaveAttribute('href', '/dsppartners/3/stats/sources/12');
    // the tab's table as a file: the same breakdown and range
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }),
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toEqual(['stats-dsp-partner-3-source.csv']));
    const file = api.calls.find((c) => c.path === '/api/dsppartners/3/stats/export');
    expect(file?.query.get('group')).toBe('source');
    expect(file?.query.get('format')).toBe('csv');
    expect(file?.query.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    vi.restoreAllMocks();
    await user.click(row);
    await waitFor(() =>
      expect(api.calls.some((c) => c.query.get('source_id') === '12' && c.query.get('group') === 'day')).toBe(
        true,
      ),
    );
  });

  test('a user who is not an admin does not get the pages', async () => {
    loginAs('default', '7');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('default', '7')) });
    const { router } = renderApp('/dsppartners');
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/pages/miscellaneous/not-authorized'),
      slow,
    );
  });
});
