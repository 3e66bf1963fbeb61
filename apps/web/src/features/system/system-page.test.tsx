import { maintenanceState, platformSettings, systemHealth } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test } from 'vitest';
import { clearMaintenance, forgetPublicMaintenance } from '../../lib/maintenance.ts';
import { failure, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

afterEach(() => {
  clearMaintenance();
  forgetPublicMaintenance();
});

const health = (enabled: boolean) =>
  systemHealth.parse({
    checked_at: '2026-05-01T10:00:00.000Z',
    database: { status: 'ok', driver: 'pglite', ping_ms: 0.42, error: null },
    redis: { status: 'not_configured', ping_ms: null, error: null },
    jobs: [
      {
        name: 'currency-rates',
        every_ms: 6 * 3600_000,
        kind: 'shared',
        last_run_at: '2026-05-01T09:00:00.000Z',
        last_result: 'failed: ECB feed unreachable',
        failed: true,
        next_run_at: '2026-05-01T09:15:00.000Z',
      },
      {
        name: 'materials-refresh',
        every_ms: 30 * 60_000,
        kind: 'shared',
        last_run_at: '2026-05-01T09:30:00.000Z',
        last_result: 'stored 1200, purged 3',
        last_result_code: 'materials',
        last_result_values: { stored: 1200, purged: 3 },
        failed: false,
        next_run_at: '2026-05-01T10:00:00.000Z',
      },
      {
        name: 'events-retention',
        every_ms: 24 * 3600_000,
        kind: 'shared',
        last_run_at: '2026-05-01T03:00:00.000Z',
        last_result: 'deleted 5000 events',
        last_result_code: 'retention',
        last_result_values: { events: 5000, notices: 2, before: '2026-04-01T00:00:00.000Z' },
        failed: false,
        next_run_at: '2026-05-02T03:00:00.000Z',
      },
      {
        name: 'click-sources',
        every_ms: 20 * 60_000,
        kind: 'shared',
        last_run_at: null,
        last_result: null,
        failed: false,
        next_run_at: '2026-05-01T10:00:00.000Z',
      },
    ],
    ad_index: {
      campaigns: 12,
      creatives: 34,
      widgets: 5,
      built_at: '2026-05-01T09:59:00.000Z',
      last_error: null,
    },
    buffers: [
      { name: 'events', queued: 17, last_flush_at: '2026-05-01T09:59:59.000Z', last_error: null },
      { name: 'traffic', queued: 2, last_flush_at: '2026-05-01T09:59:59.000Z', last_error: null },
      { name: 'clicks', queued: 0, last_flush_at: null, last_error: null },
      { name: 'dsp_stats', queued: 0, last_flush_at: null, last_error: 'connection refused' },
    ],
    versions: { app: '0.1.0', node: 'v22.1.0', db: 'PGlite 16.4' },
    maintenance: { enabled, changed_at: null },
  });

describe('system page', () => {
  test('an admin sees the parts, the jobs and the batches, and turns maintenance on after confirming', async () => {
    loginAs('admin', '1');
    let enabled = false;
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 50, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/system': () => json(health(enabled)),
      'GET /api/system/maintenance': () =>
        json(maintenanceState.parse({ enabled, changed_at: enabled ? '2026-05-01T10:01:00.000Z' : null })),
      'PUT /api/system/maintenance': (req) => {
        enabled = JSON.parse(req.body).maintenance.enabled;
        return json({ enabled, changed_at: '2026-05-01T10:01:00.000Z' });
      },
    });
    renderApp('/system');
    expect(await screen.findByText('PGlite')).toBeInTheDocument();
    expect(screen.getByText('0.42 ms')).toBeInTheDocument();
    expect(screen.getByText(/Not configured: this instance/)).toBeInTheDocument();
    expect(screen.getByText('34')).toBeInTheDocument();
    expect(screen.getByText('PGlite 16.4')).toBeInTheDocument();
    const rates = screen.getByText('Exchange rates').closest('tr') as HTMLElement;
    expect(within(rates).getByText('every 6 h')).toBeInTheDocument();
    expect(within(rates).getByText('Failed: ECB feed unreachable')).toBeInTheDocument();
    // a result with a code is the interface's sentence, its numbers written as the language does
    const materials = screen.getByText('materials-refresh').closest('tr') as HTMLElement;
    expect(within(materials).getByText('Stored 1,200 materials, removed 3 expired')).toBeInTheDocument();
    // an instant among the values is a date and time in the language, not the server's ISO text
    const retention = screen.getByText(/Deleted 5,000 raw events and 2 exchange notices older than/);
    expect(retention.textContent).not.toContain('2026-04-01T');
    expect(retention.textContent).toMatch(/2026/);
    const sources = screen.getByText('Click sources').closest('tr') as HTMLElement;
    expect(within(sources).getByText('Not yet')).toBeInTheDocument();
    expect(within(sources).getByText('every 20 min')).toBeInTheDocument();
    const events = screen.getByText('Impressions and views').closest('tr') as HTMLElement;
    expect(within(events).getByText('17')).toBeInTheDocument();
    expect(screen.getByText('connection refused')).toBeInTheDocument();
    expect(screen.queryByTestId('maintenance-banner')).not.toBeInTheDocument();
    // browsers may keep the public answer for 30 s; the admins' switch always asks the server
    const gets = api.calls.filter((c) => c.method === 'GET' && c.path === '/api/system/maintenance');
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.every((c) => c.cache === 'no-cache')).toBe(true);

    const user = userEvent.setup();
    await user.click(screen.getByRole('switch', { name: 'Under maintenance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn maintenance mode on?' });
    const puts = () => api.calls.filter((c) => c.method === 'PUT' && c.path === '/api/system/maintenance');
    expect(puts()).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByTestId('maintenance-banner')).toHaveTextContent('Maintenance mode is on');
    expect(JSON.parse(puts()[0]?.body ?? '{}')).toEqual({ maintenance: { enabled: true } });
    expect(screen.getByRole('switch', { name: 'Under maintenance' })).toBeChecked();

    // off again: no question asked, the banner goes
    await user.click(screen.getByRole('switch', { name: 'Under maintenance' }));
    expect(await screen.findByText('Maintenance mode is off: everyone can work again')).toBeInTheDocument();
    expect(JSON.parse(puts()[1]?.body ?? '{}')).toEqual({ maintenance: { enabled: false } });
    expect(screen.queryByTestId('maintenance-banner')).not.toBeInTheDocument();
  });

  test('an admin sets the low-balance alert thresholds (0 turns one off) with the minimum payout', async () => {
    loginAs('admin', '1');
    let saved = platformSettings.parse({ min_payout: 50, low_campaign_balance: 10, low_account_balance: 10 });
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/settings': () => json(saved),
      'PUT /api/settings': (req) => {
        saved = { ...saved, ...JSON.parse(req.body).settings };
        return json(saved);
      },
      'GET /api/system': () => json(health(false)),
      'GET /api/system/maintenance': () => json({ enabled: false, changed_at: null }),
    });
    renderApp('/system');
    expect(await screen.findByText('Low-balance alerts')).toBeInTheDocument();
    const campaign = screen.getByLabelText('Campaign balance below');
    const account = screen.getByLabelText('Account balance below');
    expect(campaign).toHaveValue('$ 10');
    const user = userEvent.setup();
    const puts = () => api.calls.filter((c) => c.method === 'PUT' && c.path === '/api/settings');
    await user.clear(account);
    await user.type(account, '0');
    await user.clear(campaign);
    await user.type(campaign, '25.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The settings are saved')).toBeInTheDocument();
    expect(JSON.parse(puts()[0]?.body ?? '{}')).toEqual({
      settings: { min_payout: 50, low_campaign_balance: 25.5, low_account_balance: 0 },
    });
  });

  test('a read-only admin sees the switch but cannot move it', async () => {
    loginAs('adminreadonly', '2');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('adminreadonly', '2')),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 50, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/system': () => json(health(true)),
      'GET /api/system/maintenance': () => json({ enabled: true, changed_at: '2026-05-01T10:01:00.000Z' }),
    });
    renderApp('/system');
    expect(await screen.findByTestId('maintenance-banner')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Under maintenance' })).toBeDisabled();
  });
});

describe('under maintenance', () => {
  test('an advertiser whose calls answer 503 maintenance sees the under-maintenance page on any route', async () => {
    loginAs('default', '7');
    const closed = () =>
      failure(503, 'maintenance', 'The platform is under maintenance. Please try again a little later');
    mockApi({
      'GET /api/auth/me': closed,
      'GET /api/users/7': closed,
      'GET /api/system/maintenance': () => json({ enabled: true, changed_at: null }),
    });
    renderApp('/users/7');
    expect(await screen.findByRole('heading', { name: 'Under maintenance' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check again' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Administrator sign-in' })).toBeInTheDocument();
  });

  test('a visitor without a session sees it too; the administrator sign-in opens the login form', async () => {
    mockApi({ 'GET /api/system/maintenance': () => json({ enabled: true, changed_at: null }) });
    const { router } = renderApp('/register');
    expect(await screen.findByRole('heading', { name: 'Under maintenance' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Administrator sign-in' }));
    expect(router.state.location.pathname).toBe('/login');
    expect(await screen.findByLabelText(/Email/)).toBeInTheDocument();
  });

  test("a page load may take the browser's cached answer; Check again asks the server past it", async () => {
    const api = mockApi({ 'GET /api/system/maintenance': () => json({ enabled: true, changed_at: null }) });
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Under maintenance' })).toBeInTheDocument();
    const asks = () => api.calls.filter((c) => c.path === '/api/system/maintenance');
    expect(asks()).toHaveLength(1);
    expect(asks()[0]?.cache).toBeUndefined();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(asks()).toHaveLength(2));
    expect(asks()[1]?.cache).toBe('no-cache');
    // still on: the page stays
    expect(screen.getByRole('heading', { name: 'Under maintenance' })).toBeInTheDocument();
  });

  test('with the switch off a visitor gets the login page as always', async () => {
    mockApi({ 'GET /api/system/maintenance': () => json({ enabled: false, changed_at: null }) });
    renderApp('/login');
    expect(await screen.findByLabelText(/Email/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Under maintenance' })).not.toBeInTheDocument();
  });
});
