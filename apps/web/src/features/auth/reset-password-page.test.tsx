import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { failure, json, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('reset password pages', () => {
  test.each(['v1', 'v2'])('%s: the confirmation must match before the token is sent', async (variant) => {
    const api = mockApi({ 'POST /api/auth/reset-password': () => json({ status: 'ok' }) });
    renderApp(`/pages/authentication/reset-password-${variant}?token=abcdefghijklmnop`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/), 'new-password-1');
    await user.type(screen.getByLabelText(/^Password confirmation/), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText("Password confirmation doesn't match Password")).toBeInTheDocument();
    // the public maintenance check aside (app/routes.tsx), nothing was sent
    expect(api.calls.filter((c) => c.path !== '/api/system/maintenance')).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^Password confirmation/));
    await user.type(screen.getByLabelText(/^Password confirmation/), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    const sent = api.calls.find((c) => c.path === '/api/auth/reset-password');
    expect(JSON.parse(sent?.body ?? '{}')).toEqual({
      token: 'abcdefghijklmnop',
      password: 'new-password-1',
    });
  });

  test('a common password is refused in the form with the rule of the server', async () => {
    const api = mockApi({ 'POST /api/auth/reset-password': () => json({ status: 'ok' }) });
    renderApp('/pages/authentication/reset-password-v2?token=abcdefghijklmnop');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/), 'password123');
    await user.type(screen.getByLabelText(/^Password confirmation/), 'password123');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(
      await screen.findAllByText(/one of the most common passwords: choose one that is harder to guess/),
    ).not.toHaveLength(0);
    // the public maintenance check aside (app/routes.tsx), nothing was sent
    expect(api.calls.filter((c) => c.path !== '/api/system/maintenance')).toHaveLength(0);
  });

  test('a used or expired token is reported with a link to ask for a new one', async () => {
    mockApi({
      'POST /api/auth/reset-password': () =>
        failure(400, 'invalid_reset_token', 'This reset link is invalid or has expired'),
    });
    renderApp('/pages/authentication/reset-password-v2?token=abcdefghijklmnop');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/), 'new-password-1');
    await user.type(screen.getByLabelText(/^Password confirmation/), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('This reset link is invalid or has expired')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});
