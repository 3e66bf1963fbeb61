import { paged, platformSettings, withdrawal, withdrawalApprove, withdrawalInput } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const withdrawalsPage = paged(withdrawal);
const request = (overrides: Partial<ReturnType<typeof withdrawal.parse>> = {}) =>
  withdrawal.parse({
    _id: '5',
    user_id: '7',
    user_name: 'Ada Lovelace',
    sum: 60,
    method: 'paypal',
    details: 'ada@paypal.example',
    status: 'pending',
    reference: null,
    reason: null,
    date: '2026-05-02T09:00:00.000Z',
    decided_at: null,
    ...overrides,
  });

describe('withdrawals', () => {
  test('a publisher requests a payout: min payout shown, checked and sent as {withdrawal}', async () => {
    loginAs('default', '7');
    const posted: unknown[] = [];
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ balance: 100 })),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 50, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/users/7/withdrawals': () =>
        json(
          withdrawalsPage.parse({
            items: posted.length ? [request()] : [],
            total: posted.length,
            page: 1,
            limit: 20,
          }),
        ),
      'POST /api/users/7/withdrawals': (r) => {
        posted.push(JSON.parse(r.body));
        if (posted.length === 1)
          return validationFailure([{ field: 'details', detail: 'Details are not valid' }]);
        return json(request(), 201);
      },
    });
    renderApp('/users/7/withdrawals');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Request a payout' });
    expect(await within(form).findByText(/The minimum payout is \$50\.00\./)).toBeInTheDocument();
    expect(within(form).getByText(/Available: \$100\.00\./)).toBeInTheDocument();

    await user.type(within(form).getByLabelText(/^Amount/), '20');
    await user.click(within(form).getByRole('button', { name: 'Request payout' }));
    expect(
      await within(form).findByText('Amount must be greater than or equal to $50.00'),
    ).toBeInTheDocument();
    expect(within(form).getByText("Payout details can't be empty")).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    // more than the balance: the limit in money, not a raw number
    await user.clear(within(form).getByLabelText(/^Amount/));
    await user.type(within(form).getByLabelText(/^Amount/), '150');
    await user.click(within(form).getByRole('button', { name: 'Request payout' }));
    expect(await within(form).findByText('Amount must be less than or equal to $100.00')).toBeInTheDocument();

    await user.clear(within(form).getByLabelText(/^Amount/));
    await user.type(within(form).getByLabelText(/^Amount/), '60');
    await user.click(within(form).getAllByLabelText('Payout method')[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'PayPal' }));
    await user.type(within(form).getByLabelText(/^Payout details/), 'ada@paypal.example');
    await user.click(within(form).getByRole('button', { name: 'Request payout' }));
    expect(await within(form).findByText('Details are not valid')).toBeInTheDocument();
    expect(posted[0]).toEqual({ withdrawal: { sum: 60, method: 'paypal', details: 'ada@paypal.example' } });
    expect(withdrawalInput.parse((posted[0] as { withdrawal: unknown }).withdrawal)).toBeTruthy();

    await user.click(within(form).getByRole('button', { name: 'Request payout' }));
    const list = await screen.findByRole('table', { name: 'Your requests' });
    expect(await within(list).findByText('Pending')).toBeInTheDocument();
    expect(within(list).getByText('PayPal')).toBeInTheDocument();
  });

  test('an admin approves a pending request with a reference', async () => {
    loginAs('admin', '1');
    let decided = false;
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 10, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/withdrawals': () =>
        json(
          withdrawalsPage.parse({
            items: [decided ? request({ status: 'paid', reference: 'TX-1' }) : request()],
            total: 1,
            page: 1,
            limit: 20,
          }),
        ),
      'POST /api/withdrawals/5/approve': () => {
        decided = true;
        return json(request({ status: 'paid', reference: 'TX-1' }));
      },
    });
    renderApp('/withdrawals');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve the request of Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve and mark as paid' });
    await user.type(within(dialog).getByLabelText(/^Payment reference/), 'TX-1');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/withdrawals/5/approve')).toBe(true));
    const call = api.calls.find((c) => c.path === '/api/withdrawals/5/approve');
    expect(withdrawalApprove.parse(JSON.parse(call?.body ?? '{}'))).toEqual({ reference: 'TX-1' });
    expect(await screen.findByText('The request is approved and marked as paid')).toBeInTheDocument();
  });

  test("an admin's own request shows who decides instead of the buttons (four eyes)", async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 10, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/withdrawals': () =>
        json(
          withdrawalsPage.parse({
            items: [request(), request({ _id: '6', user_id: '1', user_name: 'Me Admin' })],
            total: 2,
            page: 1,
            limit: 20,
          }),
        ),
    });
    renderApp('/withdrawals');
    expect(
      await screen.findByRole('button', { name: 'Approve the request of Ada Lovelace' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve the request of Me Admin' })).toBeNull();
    expect(screen.getByText('Yours: another admin decides')).toBeInTheDocument();
  });

  test('a readonly admin sees the queue without decision buttons', async () => {
    loginAs('adminreadonly', '2');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('adminreadonly', '2')),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 10, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/withdrawals': () =>
        json(withdrawalsPage.parse({ items: [request()], total: 1, page: 1, limit: 20 })),
    });
    renderApp('/withdrawals');
    const table = await screen.findByRole('table', { name: 'Withdrawal requests' });
    // the owner's name, linked to the user page
    expect(await within(table).findByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute(
      'href',
      '/users/7',
    );
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Reject/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Change' })).toBeNull();
  });

  test("an admin on Ada's withdrawals reads “Withdrawals of Ada Lovelace”, not “Your requests”", async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture({ balance: 100 })),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 50, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/users/7/withdrawals': () =>
        json(withdrawalsPage.parse({ items: [request()], total: 1, page: 1, limit: 20 })),
    });
    renderApp('/users/7/withdrawals');
    expect(await screen.findByRole('heading', { name: 'Withdrawals of Ada Lovelace' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Requests of Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByText('Your requests')).toBeNull();
  });

  test("another account's withdrawals the reader may not see say so instead of looking empty", async () => {
    loginAs('agency', '3');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('agency', '3')),
      'GET /api/users/7': () => json({ error: 'not_found', message: 'Data not found.' }, 404),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 50, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/users/7/withdrawals': () => json({ error: 'not_found', message: 'Data not found.' }, 404),
    });
    renderApp('/users/7/withdrawals');
    const table = await screen.findByRole('table', {}, { timeout: 10_000 });
    const alert = await within(table.closest('.mantine-Card-root') as HTMLElement).findByRole('alert');
    expect(alert).toHaveTextContent('Data not found.');
    expect(screen.queryByText('No withdrawal requests')).toBeNull();
  });

  test('the amount available is the balance down to the cent; below the minimum the form says so and cannot send', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ balance: 9.99941 })),
      'GET /api/settings': () =>
        json(platformSettings.parse({ min_payout: 10, low_campaign_balance: 10, low_account_balance: 10 })),
      'GET /api/users/7/withdrawals': () =>
        json(withdrawalsPage.parse({ items: [], total: 0, page: 1, limit: 20 })),
    });
    renderApp('/users/7/withdrawals');
    const form = await screen.findByRole('form', { name: 'Request a payout' });
    expect(await within(form).findByText(/Available: \$9\.99\./)).toBeInTheDocument();
    expect(within(form).getByText(/Your balance is below the minimum payout/)).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Request payout' })).toBeDisabled();
  });
});
