import { currency, currencyUpdate, paged } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const list = () =>
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
          last_update: '2026-05-01T00:00:00.000Z',
        },
        {
          _id: '2',
          code: 'EUR',
          name: 'Euro',
          symbol: '€',
          rate: 0.92,
          rate_source: 'ecb',
          last_update: '2026-05-01T16:00:00.000Z',
        },
      ],
      total: 2,
      page: 1,
      limit: 500,
    }),
  );

describe('currencies page', () => {
  test('an admin edits a rate with PUT {currency}', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/currencies': list,
      'PUT /api/currencies/2': () =>
        json(
          currency.parse({
            _id: '2',
            code: 'EUR',
            name: 'Euro',
            symbol: '€',
            rate: 0.95,
            rate_source: 'manual',
            last_update: null,
          }),
        ),
    });
    renderApp('/currencies');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Currencies' });
    expect(await within(table).findByText('European Central Bank')).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Edit EUR' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit EUR' });
    const rate = within(dialog).getByLabelText('Rate');
    await user.tripleClick(rate);
    await user.keyboard('0.95');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}') as { currency: unknown };
    expect(body.currency).toEqual({ name: 'Euro', symbol: '€', rate: 0.95 });
    expect(currencyUpdate.parse(body.currency)).toBeTruthy();
  });

  test('adminreadonly sees the list without edit controls', async () => {
    loginAs('adminreadonly', '2');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('adminreadonly', '2')), 'GET /api/currencies': list });
    renderApp('/currencies');
    const table = await screen.findByRole('table', { name: 'Currencies' });
    expect(await within(table).findByText('Euro')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update rates now' })).toBeNull();
  });
});
