import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { getAuthSnapshot, storageKeys } from '../../lib/auth-storage.ts';
import { accountFixture, json, meFixture, mockApi, oauthFailure, tokenFixture } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

async function fillAndSubmit(email = 'ada@example.com', password = 'secret-password') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^email/i), email);
  await user.type(screen.getByLabelText(/^password/i), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('login page', () => {
  test('wrong credentials show the "Authorization error" toast', async () => {
    mockApi({
      'POST /api/auth/token': () => oauthFailure('invalid_grant', 'Invalid username or password'),
    });
    renderApp('/login');
    await fillAndSubmit();
    expect(await screen.findByText('Authorization error')).toBeInTheDocument();
    expect(screen.getByText('Check that the username and password are correct')).toBeInTheDocument();
    expect(getAuthSnapshot().accessToken).toBeNull();
  });

  test('sends the credentials form-encoded as a password grant', async () => {
    const api = mockApi({
      'POST /api/auth/token': () => oauthFailure('invalid_grant', 'no'),
    });
    renderApp('/login');
    await fillAndSubmit('Ada@Example.com ', 'pw-123456');
    await screen.findByText('Authorization error');
    const call = api.calls.find((c) => c.path === '/api/auth/token');
    expect(call?.headers.get('Content-Type')).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(call?.body);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'password',
      username: 'ada@example.com',
      password: 'pw-123456',
    });
  });

  test('a dummy role stays on login with the no-rights message and no stored session', async () => {
    mockApi({
      'POST /api/auth/token': () => json(tokenFixture('dummy', '9')),
      'GET /api/auth/me': () => json(meFixture('dummy', '9')),
    });
    const { router } = renderApp('/login');
    await fillAndSubmit();
    expect(await screen.findByText(/Your account has no access rights yet/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    for (const key of Object.values(storageKeys)) expect(localStorage.getItem(key)).toBeNull();
  });

  test('a user with rights lands on their own page and the ability is stored', async () => {
    mockApi({
      'POST /api/auth/token': () => json(tokenFixture('default', '7')),
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
    });
    const { router } = renderApp('/login');
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(storageKeys.ability) ?? '[]')).toEqual(
      meFixture('default', '7').ability,
    );
  });

  test('after login the user returns to the redirect parameter', async () => {
    mockApi({
      'POST /api/auth/token': () => json(tokenFixture('admin', '1')),
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/1': () => json(accountFixture({ _id: '1', role: 'admin' })),
    });
    const { router } = renderApp('/?redirect=%2Fusers');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fusers');
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
  });

  test('a logged-in user opening /login is sent to their page', async () => {
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
    });
    localStorage.setItem(storageKeys.accessToken, 'access-1');
    localStorage.setItem(storageKeys.refreshToken, 'refresh-1');
    localStorage.setItem(storageKeys.userId, '7');
    localStorage.setItem(storageKeys.role, 'default');
    localStorage.setItem(storageKeys.ability, JSON.stringify(meFixture('default', '7').ability));
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
  });

  test('client-side validation names the field in the message', async () => {
    mockApi({});
    renderApp('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText("Email can't be empty")).toBeInTheDocument();
    expect(screen.getByText("Password can't be empty")).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email must be a valid email')).toBeInTheDocument();
  });
});
