import { topup } from '@adp/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('payment result pages', () => {
  test('payment-success shows the top-up and the new balance with the way back', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/topups/12': () =>
        json(
          topup.parse({
            _id: '12',
            user_id: '7',
            provider: 'sandbox',
            sum: 25,
            status: 'paid',
            date: '2026-05-01T10:00:00.000Z',
            completed_at: '2026-05-01T10:01:00.000Z',
          }),
        ),
      'GET /api/users/7': () => json(accountFixture({ balance: 37.5 })),
    });
    renderApp('/payment-success?topup=12');
    expect(await screen.findByRole('heading', { name: 'Payment successful' })).toBeInTheDocument();
    expect(await screen.findByTestId('result-balance')).toHaveTextContent('$37.50');
    expect(screen.getByText('$25.00')).toBeInTheDocument();
    expect(screen.getByText('Paid')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the account' })).toHaveAttribute('href', '/users/7');
  });

  test('payment-failed offers to try again', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/topups/13': () =>
        json(
          topup.parse({
            _id: '13',
            user_id: '7',
            provider: 'sandbox',
            sum: 10,
            status: 'failed',
            date: '2026-05-01T10:00:00.000Z',
            completed_at: null,
          }),
        ),
      'GET /api/users/7': () => json(accountFixture()),
    });
    renderApp('/payment-failed?topup=13');
    const main = await screen.findByRole('heading', { name: 'Payment failed' });
    expect(main).toBeInTheDocument();
    expect(await screen.findByText('Failed')).toBeInTheDocument();
    expect(within(document.body).getByRole('link', { name: 'Try again' })).toHaveAttribute(
      'href',
      '/users/7/topup',
    );
  });
});
