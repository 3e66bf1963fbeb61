import { registerInput } from '@adp/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, meFixture, mockApi, tokenFixture } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('register page', () => {
  test('every control has a visible label and the privacy policy must be agreed', async () => {
    const api = mockApi({});
    renderApp('/register');
    const user = userEvent.setup();
    for (const label of [/^Name/, /^Email/, /^Phone/, /^Password/, /I agree to the privacy policy/]) {
      expect(await screen.findByLabelText(label)).toBeVisible();
    }
    await user.type(screen.getByLabelText(/^Name/), 'Ada');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Privacy policy must be accepted')).toBeInTheDocument();
    expect(screen.getByText('Password is too short (minimum is 10 characters)')).toBeInTheDocument();
    // the public maintenance check aside (app/routes.tsx), nothing was sent
    expect(api.calls.filter((c) => c.path !== '/api/system/maintenance')).toHaveLength(0);
  });

  test('a common password is refused in the form, before any request', async () => {
    const api = mockApi({});
    renderApp('/register');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Name/), 'Ada');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'qwertyuiop');
    await user.click(screen.getByLabelText('I agree to the privacy policy'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(
      await screen.findByText(
        'Password is one of the most common passwords: choose one that is harder to guess',
      ),
    ).toBeInTheDocument();
    // the public maintenance check aside (app/routes.tsx), nothing was sent
    expect(api.calls.filter((c) => c.path !== '/api/system/maintenance')).toHaveLength(0);
  });

  test('a new user is registered and lands on their own page', async () => {
    const account = accountFixture({ _id: '12', name: 'Grace Hopper', email: 'grace@example.com' });
    const api = mockApi({
      'POST /api/auth/register': () => json({ ...tokenFixture('default', '12'), account }, 201),
      'GET /api/auth/me': () => json({ ...meFixture('default', '12'), account }),
      'GET /api/users/12': () => json(account),
    });
    const { router } = renderApp('/register');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Name/), 'Grace Hopper');
    await user.type(screen.getByLabelText(/^Email/), 'grace@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'long-enough-password');
    await user.click(screen.getByLabelText('I agree to the privacy policy'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/12'));
    const body: unknown = JSON.parse(api.calls.find((c) => c.path === '/api/auth/register')?.body ?? '{}');
    expect(registerInput.parse(body)).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      password: 'long-enough-password',
      privacy_policy_agreed: true,
      locale: 'en',
    });
  });
});
