import { changeRolesInput, ledgerEntry, paged, paymentInput } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const ledgerPage = paged(ledgerEntry);
const entry = (overrides: Partial<ReturnType<typeof ledgerEntry.parse>> = {}) =>
  ledgerEntry.parse({
    _id: '10',
    user_id: '7',
    type: 'admin_payment',
    sum: 25,
    balance_after: 37.5,
    source: 'May payout',
    actor_id: '1',
    ref: null,
    date: '2026-05-01T10:00:00.000Z',
    ...overrides,
  });
const emptyPage = () => json(ledgerPage.parse({ items: [], total: 0, page: 1, limit: 5 }));

const writeButtons = ['Edit', 'Change password', 'Change role', 'Pay user', 'Top up', 'Request withdrawal'];

describe('account page', () => {
  test("an agency member works under its agency's name; its balance stays out of sight when the agency says so", async () => {
    loginAs('agencymember', '7');
    mockApi({
      'GET /api/auth/me': () =>
        json({
          ...meFixture('agencymember', '7'),
          agency: { title: 'Nordlicht Media', logo: '/uploads/agencies/1-ab.png', showamount: false },
        }),
      'GET /api/users/7': () => json(accountFixture({ role: 'agencymember', balance: 12.5 })),
      'GET /api/users/7/payments': emptyPage,
    });
    renderApp('/users/7');
    expect(
      await screen.findByRole('img', { name: 'Logo of Nordlicht Media' }, { timeout: 5000 }),
    ).toHaveAttribute('src', '/uploads/agencies/1-ab.png');
    expect(within(screen.getByTestId('member-agency')).getByText('Nordlicht Media')).toBeInTheDocument();
    expect(await screen.findByTestId('account-balance')).toHaveTextContent('—');
    expect(screen.getByText('Your agency, Nordlicht Media, manages your balance')).toBeInTheDocument();
    expect(screen.queryByText('$12.50')).not.toBeInTheDocument();
  });

  test("the member's own payments leave out the balance after each movement when its agency hides amounts", async () => {
    loginAs('agencymember', '7');
    mockApi({
      'GET /api/auth/me': () =>
        json({
          ...meFixture('agencymember', '7'),
          agency: { title: 'Nordlicht Media', logo: null, showamount: false },
        }),
      'GET /api/users/7': () => json(accountFixture({ role: 'agencymember', balance: 12.5 })),
      'GET /api/users/7/payments': () =>
        json(ledgerPage.parse({ items: [entry({ balance_after: 37.5 })], total: 1, page: 1, limit: 20 })),
    });
    renderApp('/users/7/payments');
    const table = await screen.findByRole('table', {}, { timeout: 5000 });
    expect(await within(table).findByText('+$25.00')).toBeInTheDocument();
    expect(within(table).queryByText('$37.50')).not.toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Balance after' })).not.toBeInTheDocument();
  });

  test('shows the balance in the display currency, counts and recent payments', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () =>
        json(
          accountFixture({
            currency: 'EUR',
            balance: 12.5,
            display_balance: 11.5,
            owns: { pixels: 3, agencies: 0, sites: 2, campaigns: 4 },
          }),
        ),
      'GET /api/users/7/payments': () =>
        json(
          ledgerPage.parse({
            items: [entry({ type: 'topup', source: 'sandbox' })],
            total: 1,
            page: 1,
            limit: 5,
          }),
        ),
    });
    renderApp('/users/7');
    expect(await screen.findByTestId('account-balance', {}, { timeout: 5000 })).toHaveTextContent('€11.50');
    expect(screen.getByText('$12.50 in the platform currency')).toBeInTheDocument();
    expect(screen.getByText('Sites').nextSibling).toHaveTextContent('2');
    expect(screen.getByText('Campaigns').nextSibling).toHaveTextContent('4');
    const table = await screen.findByRole('table', { name: 'Recent payments' });
    expect(await within(table).findByText('Top-up')).toBeInTheDocument();
    expect(within(table).getByText('+$25.00')).toBeInTheDocument();
    expect(within(table).getByText('Sandbox payment')).toBeInTheDocument();
    // own account: top up and withdraw, but no admin powers
    expect(screen.getByRole('link', { name: 'Top up' })).toHaveAttribute('href', '/users/7/topup');
    expect(screen.getByRole('link', { name: 'Request withdrawal' })).toHaveAttribute(
      'href',
      '/users/7/withdrawals',
    );
    expect(screen.queryByRole('button', { name: 'Pay user' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change role' })).toBeNull();
  });

  test.each(['defaultreadonly', 'adminreadonly'] as const)('a %s sees no write control', async (role) => {
    loginAs(role, '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture(role, '7')),
      'GET /api/users/7': () => json(accountFixture({ role })),
      'GET /api/users/7/payments': emptyPage,
    });
    renderApp('/users/7');
    await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 5000 });
    await screen.findByRole('table', { name: 'Recent payments' });
    for (const name of writeButtons) {
      expect(screen.queryByRole('button', { name })).toBeNull();
      expect(screen.queryByRole('link', { name })).toBeNull();
    }
    // the read-only links stay
    expect(screen.getByRole('link', { name: 'Payments' })).toHaveAttribute('href', '/users/7/payments');
  });

  test("an agency member's account shows no 'Agencies 0' (it belongs to one, owns none)", async () => {
    loginAs('agencymember', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('agencymember', '7')),
      'GET /api/users/7': () =>
        json(
          accountFixture({ role: 'agencymember', owns: { pixels: 0, agencies: 0, sites: 1, campaigns: 0 } }),
        ),
      'GET /api/users/7/payments': () => json(ledgerPage.parse({ items: [], total: 0, page: 1, limit: 5 })),
    });
    renderApp('/users/7');
    expect(await screen.findByText('Sites', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Pixels')).toBeInTheDocument();
    // the navigation still lists the member's agency; no stat card counts agencies
    expect(screen.getByText('Sites').nextSibling).toHaveTextContent('1');
    const counted = screen.queryAllByText('Agencies').filter((el) => el.nextSibling?.textContent === '0');
    expect(counted).toEqual([]);
  });

  test("an admin's own page: no payment to itself nor role change (another admin's to do)", async () => {
    loginAs('admin', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '7')),
      'GET /api/users/7': () => json(accountFixture({ role: 'admin' })),
      'GET /api/users/7/payments': emptyPage,
    });
    renderApp('/users/7');
    expect(
      await screen.findByRole('button', { name: 'Change password' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay user' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change role' })).toBeNull();
  });

  test('an admin pays a user: the body is the contract payment, a 422 shows its detail', async () => {
    loginAs('admin', '1');
    let attempt = 0;
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': emptyPage,
      'POST /api/users/7/payments': () => {
        attempt += 1;
        if (attempt === 1)
          return validationFailure([{ field: 'sum', detail: 'Not enough balance for this operation' }]);
        return json(entry({ sum: 40, balance_after: 52.5, type: 'refund', source: 'Ticket 42' }), 201);
      },
    });
    renderApp('/users/7');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pay user' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay Ada Lovelace' });
    await user.type(within(dialog).getByLabelText(/^Amount/), '40');
    await user.click(within(dialog).getAllByLabelText('Type')[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'Refund' }));
    await user.type(within(dialog).getByLabelText('Source'), 'Ticket 42');
    await user.click(within(dialog).getByRole('button', { name: 'Pay' }));

    // the 422 detail is a toast and sits under the field
    await waitFor(() =>
      expect(screen.getAllByText('Not enough balance for this operation').length).toBeGreaterThanOrEqual(2),
    );
    const posted = api.calls.filter((c) => c.method === 'POST' && c.path === '/api/users/7/payments');
    const body = JSON.parse(posted[0]?.body ?? '{}') as { payment: unknown };
    expect(Object.keys(body)).toEqual(['payment']);
    expect(paymentInput.parse(body.payment)).toEqual({ sum: 40, type: 'refund', source: 'Ticket 42' });

    await user.click(within(dialog).getByRole('button', { name: 'Pay' }));
    expect(await screen.findByText('$40.00 paid to Ada Lovelace')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pay Ada Lovelace' })).toBeNull());
  }, 20_000);

  test('/users/{id}/pay always redirects to the user page', async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': emptyPage,
    });
    const { router } = renderApp('/users/7/pay');
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
    await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 5000 });
  });
  test('an admin changes the role only after confirming, with {role}', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': emptyPage,
      'POST /api/users/7/changeroles': () => json(accountFixture({ role: 'agency' })),
    });
    renderApp('/users/7');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change role' });
    await user.click(within(dialog).getAllByLabelText('Role')[0] as HTMLElement);
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(7);
    await user.click(screen.getByRole('option', { name: 'Agency' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText(/will change from User to Agency/)).toBeInTheDocument();
    expect(api.calls.some((c) => c.path.endsWith('/changeroles'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(api.calls.some((c) => c.path.endsWith('/changeroles'))).toBe(true));
    const call = api.calls.find((c) => c.path.endsWith('/changeroles'));
    expect(changeRolesInput.parse(JSON.parse(call?.body ?? '{}'))).toEqual({ role: 'agency' });
  });

  test("an admin on Ada's account reads “Recent payments of Ada Lovelace” and “Payments of Ada Lovelace”", async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': () =>
        json(ledgerPage.parse({ items: [entry()], total: 1, page: 1, limit: 20 })),
      'GET /api/users/7/transactions': () =>
        json(ledgerPage.parse({ items: [entry()], total: 1, page: 1, limit: 20 })),
    });
    const profile = renderApp('/users/7');
    expect(
      await screen.findByRole('table', { name: 'Recent payments of Ada Lovelace' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Recent payments of Ada Lovelace' })).toBeInTheDocument();
    profile.unmount();

    const payments = renderApp('/users/7/payments');
    expect(await screen.findByRole('heading', { name: 'Payments of Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Payments of Ada Lovelace' })).toBeInTheDocument();
    payments.unmount();

    renderApp('/users/7/transaction');
    expect(await screen.findByRole('heading', { name: 'Transactions of Ada Lovelace' })).toBeInTheDocument();
  });

  test('on one’s own payments the titles stay “Recent payments” and “Payments”', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': () => emptyPage(),
    });
    const profile = renderApp('/users/7');
    expect(
      await screen.findByRole('table', { name: 'Recent payments' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    profile.unmount();
    renderApp('/users/7/payments');
    expect(await screen.findByRole('heading', { name: 'Payments' })).toBeInTheDocument();
    expect(screen.queryByText(/Payments of/)).toBeNull();
  });

  test('the transactions say where an earning came from in the reader’s words; an admin’s own text stays', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/transactions': () =>
        json(
          ledgerPage.parse({
            items: [
              entry({ _id: '1', type: 'publisher_earning', source: 'delivery', sum: 0.25 }),
              entry({ _id: '2', type: 'publisher_earning', source: 'dsp', sum: 0.02 }),
              entry({ _id: '3', type: 'publisher_earning', source: 'adsense', sum: 43.67 }),
              entry({ _id: '4' }),
            ],
            total: 4,
            page: 1,
            limit: 20,
          }),
        ),
    });
    renderApp('/users/7/transaction');
    const table = await screen.findByRole('table', {}, { timeout: 10_000 });
    const sources = async () =>
      (await within(table).findAllByRole('row')).slice(1).map((r) => r.lastChild?.textContent);
    await waitFor(async () =>
      expect(await sources()).toEqual(['Ad clicks', 'DSP auctions', 'AdSense', 'May payout']),
    );
  });
});
