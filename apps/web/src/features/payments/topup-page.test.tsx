import { screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('top-up page', () => {
  test('without any payment method it says so and whom to ask, with no button to press', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/payments/providers': () => json({ providers: [] }),
    });
    renderApp('/users/7/topup');
    expect(await screen.findByText('No payment method is configured')).toBeInTheDocument();
    expect(screen.getByText(/Ask the platform administrator/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to payment' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Amount/)).not.toBeInTheDocument();
  });

  test('with a provider the form is there', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/payments/providers': () => json({ providers: ['stripe'] }),
    });
    renderApp('/users/7/topup');
    expect(await screen.findByRole('button', { name: 'Continue to payment' })).toBeInTheDocument();
    expect(screen.queryByText('No payment method is configured')).not.toBeInTheDocument();
  });
});
