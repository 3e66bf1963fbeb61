import { screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const summary = {
  affiliate_id: 'abc123',
  affiliate_url: 'http://localhost:8080/register?ref=abc123',
  earn_percent: 5,
  referred: [],
  earnings: [],
  total: 0,
};

describe('referral program page', { timeout: 30_000 }, () => {
  test('the owner reads about its own link', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', name: 'Mia' })),
      'GET /api/users/7/referrals': () => json(summary),
    });
    renderApp('/users/7/referrals');
    expect(
      await screen.findByRole('heading', { name: 'Referral program' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByLabelText('Your affiliate link')).toHaveValue(summary.affiliate_url);
    expect(screen.getByText('Nobody has registered through your link yet')).toBeInTheDocument();
  });

  test("an admin looking at another user's page reads whose link it is", async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', name: 'Mia' })),
      'GET /api/users/7/referrals': () => json(summary),
    });
    renderApp('/users/7/referrals');
    expect(
      await screen.findByRole('heading', { name: 'Referral program of Mia' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByLabelText('Affiliate link of Mia')).toHaveValue(summary.affiliate_url);
    expect(screen.getByText(/referred by Mia, who earns 5\s?%/)).toBeInTheDocument();
    expect(screen.queryByText(/your link/)).toBeNull();
  });
});
