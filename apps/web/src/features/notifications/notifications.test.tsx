import { type Notification, notification } from '@adp/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const note = (overrides: Partial<Notification> = {}) =>
  notification.parse({
    _id: '11',
    type: 'moderation',
    user_id: '7',
    campaign_id: null,
    payload: { resource: 'site', id: '3', name: 'news.example', decision: 'rejected', reason: 'No imprint' },
    price: null,
    read_at: null,
    created_at: '2026-05-02T09:00:00.000Z',
    ...overrides,
  });

describe('notifications', () => {
  test('the bell shows the unread count, asks again on focus, and opens the newest with their links', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    let count = 3;
    const latest = [
      note({
        _id: '31',
        campaign_id: '5',
        payload: { resource: 'banner', id: '9', name: 'Shoes', decision: 'approved', reason: null },
      }),
      note({ _id: '32', type: 'withdrawal', payload: { id: '4', status: 'paid', sum: 60, reason: null } }),
    ];
    const puts: string[] = [];
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/notifications/unread-count': () => json({ count }),
      'GET /api/notifications': () => json({ items: latest, total: 2, page: 1, limit: 5 }),
      'PUT /api/notifications/31': (r) => {
        puts.push(r.body);
        return json(note({ _id: '31', read_at: '2026-05-04T09:00:00.000Z' }));
      },
    });
    renderApp('/users/7/withdrawals');
    const bell = await screen.findByRole('button', { name: 'Notifications, unread: 3' }, { timeout: 15_000 });
    expect(within(screen.getByTestId('notification-count')).getByText('3')).toBeInTheDocument();
    // the list is asked for only when the bell opens
    expect(api.calls.some((c) => c.path === '/api/notifications')).toBe(false);
    await user.click(bell);
    const dropdown = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(dropdown).findByText('Your creative “Shoes” was approved.');
    expect(api.calls.find((c) => c.path === '/api/notifications')?.query.get('limit')).toBe('5');
    const opens = within(dropdown).getAllByRole('link', { name: 'Open' });
    expect(opens.map((a) => a.getAttribute('href'))).toEqual([
      '/users/7/campaigns/5/creatives/9',
      '/users/7/withdrawals',
    ]);
    expect(within(dropdown).getByRole('link', { name: 'All notifications' })).toHaveAttribute(
      'href',
      '/notifications',
    );
    // opening an unread one marks it read
    await user.click(opens[0]!);
    await waitFor(() => expect(puts).toEqual([JSON.stringify({ read: true })]));

    count = 0;
    const asked = api.calls.filter((c) => c.path === '/api/notifications/unread-count').length;
    await act(async () => {
      fireEvent.focus(window);
      window.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() =>
      expect(api.calls.filter((c) => c.path === '/api/notifications/unread-count').length).toBeGreaterThan(
        asked,
      ),
    );
    const bellArea = screen.getByTestId('notification-count');
    expect(await within(bellArea).findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(within(bellArea).queryByText('0')).toBeNull();
  }, 60_000);

  test('a dummy has no bell and asks for no count', async () => {
    loginAs('dummy', '7');
    const api = mockApi({ 'GET /api/auth/me': () => json(meFixture('dummy', '7')) });
    renderApp('/pages/miscellaneous/not-authorized');
    await screen.findByRole('heading', { name: 'You are not authorized' });
    expect(screen.queryByRole('link', { name: /^Notifications/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(api.calls.some((c) => c.path.startsWith('/api/notifications'))).toBe(false);
  }, 60_000);

  test('the page renders each type in the reader’s words, marks one and all read', async () => {
    loginAs('default', '7');
    const items = [
      note(),
      note({
        _id: '12',
        type: 'withdrawal',
        payload: { id: '4', status: 'paid', sum: 60, reason: null },
        read_at: '2026-05-03T09:00:00.000Z',
      }),
      note({
        _id: '13',
        type: 'source_blocked',
        payload: {
          by: 'advertiser',
          site_id: '3',
          site: 'news.example',
          widget_id: '8',
          widget: 'Below article',
          reason: null,
          until: null,
        },
      }),
    ];
    const puts: unknown[] = [];
    let readAll = 0;
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/notifications/unread-count': () => json({ count: 2 }),
      'GET /api/notifications': () => json({ items, total: 3, page: 1, limit: 20 }),
      'PUT /api/notifications/11': (r) => {
        puts.push(JSON.parse(r.body));
        return json(note({ read_at: '2026-05-04T09:00:00.000Z' }));
      },
      'POST /api/notifications/read-all': () => {
        readAll += 1;
        return json({ marked: 2 });
      },
    });
    renderApp('/notifications');
    expect(
      await screen.findByRole('heading', { name: 'Notifications' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Your site “news.example” was rejected. Reason: No imprint'),
    ).toBeInTheDocument();
    expect(screen.getByText(/Your withdrawal of .*60.* was paid\./)).toBeInTheDocument();
    expect(
      screen.getByText(
        'An advertiser blocked your widget “Below article” on news.example for one of their campaigns. Permanently.',
      ),
    ).toBeInTheDocument();
    const rows = screen.getAllByTestId('notification');
    expect(rows.map((r) => r.hasAttribute('data-unread'))).toEqual([true, false, true]);
    expect(within(rows[1]!).getByRole('button', { name: 'Mark as unread' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('link', { name: 'Open' })).toHaveAttribute('href', '/sites/3');

    const user = userEvent.setup();
    await user.click(within(rows[0]!).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(puts).toEqual([{ read: true }]));
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(readAll).toBe(1));

    await user.click(screen.getByRole('radio', { name: 'Unread' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/notifications' && c.query.get('unread') === 'true')).toBe(
        true,
      ),
    );
    // all and unread leave the exchange's per-impression notices out; they have their own tab
    const asked = () => api.calls.filter((c) => c.path === '/api/notifications').map((c) => c.query);
    expect(asked().every((q) => q.get('exchange') === 'exclude')).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Exchange' }));
    await waitFor(() => expect(asked().at(-1)?.get('exchange')).toBe('only'));
    expect(asked().at(-1)?.get('unread')).toBeNull();
  }, 60_000);

  test('a readonly role reads its notifications with no control to mark them (it never writes)', async () => {
    loginAs('defaultreadonly', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('defaultreadonly', '7')),
      'GET /api/notifications/unread-count': () => json({ count: 1 }),
      'GET /api/notifications': () => json({ items: [note()], total: 1, page: 1, limit: 20 }),
    });
    renderApp('/notifications');
    expect(await screen.findAllByTestId('notification', {}, { timeout: 10_000 })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Mark as read/ })).toBeNull();
  });

  test('every notification that names an item links to its page', async () => {
    loginAs('default', '7');
    const moderation = (id: string, resource: string, itemId: string, campaign: string | null = null) =>
      note({
        _id: id,
        campaign_id: campaign,
        payload: { resource, id: itemId, name: `Item ${id}`, decision: 'approved', reason: null },
      });
    const items = [
      moderation('21', 'site', '3'),
      moderation('22', 'widget', '8'),
      moderation('23', 'campaign', '5', '5'),
      moderation('24', 'banner', '9', '5'),
      note({
        _id: '25',
        type: 'low_balance',
        campaign_id: '5',
        payload: { name: 'Sale', balance: 4, threshold: 10 },
      }),
      note({ _id: '26', type: 'withdrawal', payload: { id: '4', status: 'paid', sum: 60, reason: null } }),
      note({
        _id: '27',
        type: 'source_blocked',
        payload: {
          by: 'platform',
          site_id: '3',
          site: 'a.example',
          widget_id: null,
          widget: null,
          reason: null,
          until: null,
        },
      }),
      note({ _id: '28', type: 'low_account_balance', payload: { balance: 2.5, threshold: 10 } }),
      note({ _id: '29', type: 'adsense_income', payload: { import_id: '3', sum: 16 } }),
    ];
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/notifications/unread-count': () => json({ count: items.length }),
      'GET /api/notifications': () => json({ items, total: items.length, page: 1, limit: 20 }),
    });
    renderApp('/notifications');
    await screen.findByRole('heading', { name: 'Notifications' }, { timeout: 15_000 });
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(items.length));
    const hrefs = screen
      .getAllByTestId('notification')
      .map((row) => within(row).queryByRole('link', { name: 'Open' })?.getAttribute('href') ?? null);
    expect(hrefs).toEqual([
      '/sites/3',
      '/widgets/8',
      '/users/7/campaigns/5',
      '/users/7/campaigns/5/creatives/9',
      '/users/7/campaigns/5/payments',
      '/users/7/withdrawals',
      '/sites/3',
      '/users/7/topup',
      '/users/7/transaction',
    ]);
    expect(
      screen.getByText(/AdSense income of .*16\.00.* was credited to your balance\./),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Your account balance fell to .*2\.50.*, below .*10\.00.*\. Top it up/),
    ).toBeInTheDocument();
  }, 60_000);
});
