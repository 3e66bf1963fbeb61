import { account as accountSchema, paged } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const usersPage = paged(accountSchema);

describe('users list', () => {
  test('search, kind filter and sortable columns build the query; 20 per page on the server', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users': (request) =>
        json(
          usersPage.parse({
            items: [
              accountFixture({ _id: '2', name: 'Paula Publisher', balance: 250 }),
              accountFixture({ _id: '3', name: 'Adam Advertiser', email: 'adam@example.com' }),
            ],
            total: 45,
            page: Number(request.query.get('page') ?? '1'),
            limit: 20,
          }),
        ),
    });
    const { router } = renderApp('/users');
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Users' }, { timeout: 5000 });
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: /Balance/ })).toBeInTheDocument();
    expect(await within(table).findByRole('link', { name: 'Paula Publisher' })).toHaveAttribute(
      'href',
      '/users/2',
    );
    const lastQuery = () => {
      const calls = api.calls.filter((c) => c.path === '/api/users');
      return Object.fromEntries(calls[calls.length - 1]?.query ?? []);
    };
    expect(lastQuery()).toEqual({ page: '1', limit: '20', sort: 'created_at', order: 'desc' });

    await user.type(screen.getByLabelText('Search'), 'paula');
    await waitFor(() => expect(lastQuery()).toMatchObject({ search: 'paula', page: '1' }));

    await user.click(screen.getAllByLabelText('Show')[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'Publishers' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ kind: 'publishers', search: 'paula' }));

    await user.click(screen.getByRole('button', { name: 'Sort by Balance' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: 'balance', order: 'desc' }));
    expect(screen.getByRole('columnheader', { name: /Balance/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: 'Sort by Balance' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: 'balance', order: 'asc' }));

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ page: '3', limit: '20', kind: 'publishers' }));
    expect(router.state.location.search).toContain('page=3');

    await user.click(screen.getByRole('cell', { name: 'adam@example.com' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/3'));
  }, 20_000);
});
