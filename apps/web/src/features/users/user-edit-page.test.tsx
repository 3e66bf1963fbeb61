import { currency, paged, userUpdate } from '@adp/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const currencies = () =>
  json(
    paged(currency).parse({
      items: [
        {
          _id: '1',
          code: 'USD',
          name: 'US dollar',
          symbol: '$',
          rate: 1,
          rate_source: 'platform',
          last_update: null,
        },
        {
          _id: '2',
          code: 'EUR',
          name: 'Euro',
          symbol: '€',
          rate: 0.92,
          rate_source: 'ecb',
          last_update: null,
        },
      ],
      total: 2,
      page: 1,
      limit: 500,
    }),
  );

/** The timezone Select's input (its listbox is labelled by the same label). */
const zoneInput = async () =>
  (await screen.findAllByLabelText('Time zone')).find((el) => el.tagName === 'INPUT') as HTMLInputElement;

describe('edit account page', () => {
  test('a user edits its own profile; notes and referral percent are not offered', async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': () => json({ items: [], total: 0, page: 1, limit: 5 }),
      'GET /api/currencies': currencies,
      'PUT /api/users/7': () => json(accountFixture({ name: 'Ada King' })),
    });
    const { router } = renderApp('/users/7/edit');
    const user = userEvent.setup();
    const name = await screen.findByLabelText(/^Name/);
    expect(screen.queryByLabelText('Notes')).toBeNull();
    expect(screen.queryByLabelText('Referral percent')).toBeNull();
    await user.clear(name);
    await user.type(name, 'Ada King');
    await user.type(screen.getByLabelText('Phone'), '+44 20 7946 0958');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
    const body = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}') as { user: unknown };
    expect(userUpdate.parse(body.user)).toEqual({
      name: 'Ada King',
      email: 'ada@example.com',
      phone: '+44 20 7946 0958',
      currency: 'USD',
      locale: 'en',
    });
  });

  test('an admin also sets notes and the referral percent', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture({ earn_percent: 5 })),
      'GET /api/users/7/payments': () => json({ items: [], total: 0, page: 1, limit: 5 }),
      'GET /api/currencies': currencies,
      'PUT /api/users/7': () => json(accountFixture()),
    });
    renderApp('/users/7/edit');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Notes'), 'Pays on time');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}') as {
      user: Record<string, unknown>;
    };
    expect(body.user).toMatchObject({ notes: 'Pays on time', earn_percent: 5 });
  });

  test("an admin's own referral percent is read-only: another admin sets it", async () => {
    loginAs('admin', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '7')),
      'GET /api/users/7': () => json(accountFixture({ earn_percent: 5 })),
      'GET /api/users/7/payments': () => json({ items: [], total: 0, page: 1, limit: 5 }),
      'GET /api/currencies': currencies,
    });
    renderApp('/users/7/edit');
    const percent = await screen.findByLabelText('Referral percent');
    expect(percent).toHaveAttribute('readonly');
    expect(screen.getByText('Your own referral percent is set by another admin')).toBeInTheDocument();
  });

  test('a new own e-mail asks for the current password and waits for the link mailed to it', async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': () => json({ items: [], total: 0, page: 1, limit: 5 }),
      'GET /api/currencies': currencies,
      'PUT /api/users/7': () => json(accountFixture({ pending_email: 'ada.new@example.com' })),
    });
    const { router } = renderApp('/users/7/edit');
    const user = userEvent.setup();
    const email = await screen.findByLabelText(/^Email/);
    expect(screen.queryByLabelText(/^Current password/)).toBeNull();
    await user.clear(email);
    await user.type(email, 'ada.new@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Current password can't be empty")).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.type(screen.getByLabelText(/^Current password/), 'my-current-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
    const body = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}') as { user: unknown };
    expect(userUpdate.parse(body.user)).toMatchObject({
      email: 'ada.new@example.com',
      current_password: 'my-current-password',
    });
    expect(
      await screen.findByText(/We sent a confirmation link to ada\.new@example\.com/),
    ).toBeInTheDocument();
  });

  const timezoneApi = () =>
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ timezone: 'Europe/Berlin' })),
      'GET /api/users/7/payments': () => json({ items: [], total: 0, page: 1, limit: 5 }),
      'GET /api/currencies': currencies,
      'PUT /api/users/7': () => json(accountFixture()),
    });
  const sent = (api: ReturnType<typeof timezoneApi>) =>
    JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}').user;

  test('the timezone is searched among the browser’s timezones (today’s names) and saved', async () => {
    loginAs('default', '7');
    const api = timezoneApi();
    const { router } = renderApp('/users/7/edit');
    const user = userEvent.setup();
    const zone = await zoneInput();
    expect(zone).toHaveValue('Europe/Berlin');
    await user.click(zone);
    await user.clear(zone);
    await user.type(zone, 'kolka');
    await user.click(await screen.findByRole('option', { name: 'Asia/Kolkata' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
    expect(sent(api)).toMatchObject({ timezone: 'Asia/Kolkata' });
  });

  test("the timezone's first choice, the browser's, clears the setting (null)", async () => {
    loginAs('default', '7');
    const api = timezoneApi();
    const { router } = renderApp('/users/7/edit');
    const user = userEvent.setup();
    await user.click(await zoneInput());
    await user.click(await screen.findByRole('option', { name: /^Browser's timezone \(/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
    expect(sent(api)).toMatchObject({ timezone: null });
  });

  test('a pending e-mail change is shown on the form', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ pending_email: 'ada.new@example.com' })),
      'GET /api/currencies': currencies,
    });
    renderApp('/users/7/edit');
    expect(await screen.findByText('E-mail change waiting for confirmation')).toBeInTheDocument();
    expect(screen.getByText(/We sent a link to ada\.new@example\.com/)).toBeInTheDocument();
  });

  test('a readonly user sees the form without a save button', async () => {
    loginAs('defaultreadonly', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('defaultreadonly', '7')),
      'GET /api/users/7': () => json(accountFixture({ role: 'defaultreadonly' })),
      'GET /api/currencies': currencies,
    });
    renderApp('/users/7/edit');
    expect(await screen.findByLabelText(/^Name/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
