import { abilityFromRules, defineRulesFor } from '@adp/permissions';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../test/fixtures.ts';
import { renderApp } from '../test/render.tsx';
import { navItemsFor } from './navigation.ts';

describe('navigation menu', () => {
  test('is built from the routes the ability allows', () => {
    const admin = abilityFromRules(defineRulesFor({ id: '1', role: 'admin' }));
    const client = abilityFromRules(defineRulesFor({ id: '7', role: 'default' }));
    const dummy = abilityFromRules(defineRulesFor({ id: '9', role: 'dummy' }));
    const adminLinks = navItemsFor(admin, '1').map((item) => item.to);
    const clientLinks = navItemsFor(client, '7').map((item) => item.to);
    const adminOnly = [
      '/users',
      '/sites',
      '/moderation',
      '/withdrawals',
      '/agencies',
      '/currencies',
      '/system',
    ];
    const own = (id: string) => [`/users/${id}/sites`, `/users/${id}/transaction`, `/users/${id}/referrals`];
    expect(adminLinks[0]).toBe('/users/1');
    expect(adminLinks).toEqual(expect.arrayContaining([...own('1'), ...adminOnly]));
    expect(clientLinks[0]).toBe('/users/7');
    expect(clientLinks).toEqual(expect.arrayContaining(own('7')));
    for (const link of adminOnly) expect(clientLinks).not.toContain(link);
    // every role that reads notifications gets the Notifications entry (SPEC.md section 2)
    for (const role of [
      'admin',
      'adminreadonly',
      'default',
      'defaultreadonly',
      'agency',
      'agencymember',
    ] as const) {
      const ability = abilityFromRules(defineRulesFor({ id: '5', role }));
      expect(navItemsFor(ability, '5').map((i) => i.to)).toContain('/notifications');
    }
    // a dummy account gets only the pages open to every signed-in role
    expect(navItemsFor(dummy, '9').map((i) => i.to)).toEqual(['/faq', '/contacts']);
  });

  test('an admin sees the Users entry, a client does not', async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/1': () => json(accountFixture({ _id: '1', role: 'admin' })),
    });
    const admin = renderApp('/users/1');
    const adminNav = await screen.findByRole('navigation', { name: 'Menu' });
    expect(within(adminNav).getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/users');
    expect(within(adminNav).getByRole('link', { name: 'My account' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    admin.unmount();

    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
    });
    renderApp('/users/7');
    const clientNav = await screen.findByRole('navigation', { name: 'Menu' });
    expect(within(clientNav).getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/users/7');
    expect(within(clientNav).queryByRole('link', { name: 'Users' })).toBeNull();
    expect(within(clientNav).getByRole('link', { name: 'Notifications' })).toHaveAttribute(
      'href',
      '/notifications',
    );
  });

  test('the account menu offers the admin area only where the ability allows it (Can)', async () => {
    const user = userEvent.setup();
    loginAs('adminreadonly', '2');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('adminreadonly', '2')),
      'GET /api/users/2': () => json(accountFixture({ _id: '2', role: 'adminreadonly' })),
    });
    const reader = renderApp('/users/2');
    await user.click(await screen.findByRole('button', { name: /Account menu$/ }));
    expect(await screen.findByRole('menuitem', { name: 'Users' })).toHaveAttribute('href', '/users');
    reader.unmount();

    loginAs('agency', '3');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('agency', '3')),
      'GET /api/users/3': () => json(accountFixture({ _id: '3', role: 'agency' })),
    });
    renderApp('/users/3');
    await user.click(await screen.findByRole('button', { name: /Account menu$/ }));
    expect(await screen.findByRole('menuitem', { name: 'Log out' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Users' })).toBeNull();
  });
});
