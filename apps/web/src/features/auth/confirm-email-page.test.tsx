import { confirmEmailResponse } from '@adp/contract';
import { notificationsStore } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { failure, json, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('confirm e-mail page', () => {
  test('opening the link confirms the new address once, without a session', async () => {
    const api = mockApi({
      'POST /api/auth/confirm-email': () =>
        json(confirmEmailResponse.parse({ status: 'ok', email: 'ada.new@example.com' })),
    });
    renderApp('/confirm-email?token=a-long-enough-token-123');
    expect(
      await screen.findByText('Your account now uses ada.new@example.com. Other devices were signed out.'),
    ).toBeInTheDocument();
    const calls = api.calls.filter((c) => c.path === '/api/auth/confirm-email');
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0]?.body ?? '{}')).toEqual({ token: 'a-long-enough-token-123' });
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  test('a spent or expired link says so', async () => {
    mockApi({
      'POST /api/auth/confirm-email': () =>
        failure(
          400,
          'invalid_email_change_token',
          'This confirmation link is invalid, was already used or has expired',
        ),
    });
    renderApp('/confirm-email?token=a-long-enough-token-123');
    expect(await screen.findByText('The address was not changed')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.getByText('This confirmation link is invalid, was already used or has expired'),
      ).toBeInTheDocument(),
    );
    // said once, on the page: no toast repeats it
    expect(notificationsStore.getState().notifications).toEqual([]);
  });
});
