import { agency, agencyMember, paged, removeMemberInput } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const theAgency = (members: number) =>
  agency.parse({
    _id: '3',
    user_id: '4',
    title: 'Northwind Media',
    logo: null,
    agency_rate: 12.5,
    phoenix_rate: 3,
    campaign_rate: 7,
    showlogo: true,
    showamount: false,
    status: 'active',
    members_count: members,
    created_at: '2026-05-01T00:00:00.000Z',
  });
const mia = agencyMember.parse({
  _id: '6',
  name: 'Mia Member',
  email: 'mia@example.com',
  phone: '',
  role: 'agencymember',
  balance: 0,
  created_at: '2026-05-02T00:00:00.000Z',
});

describe('agencies list', () => {
  test("a member sees its agency's owner by name, not as a link to an account it may not open", async () => {
    loginAs('agencymember', '6');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('agencymember', '6')),
      'GET /api/agencies': () =>
        json({ items: [{ ...theAgency(1), user_name: 'Nora' }], total: 1, page: 1, limit: 20 }),
    });
    renderApp('/agencies');
    expect(await screen.findByText('Nora', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Nora' })).toBeNull();
  });

  test("an admin's agencies list links the owner to its account", async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/agencies': () =>
        json({ items: [{ ...theAgency(1), user_name: 'Nora' }], total: 1, page: 1, limit: 20 }),
    });
    renderApp('/agencies');
    expect(await screen.findByRole('link', { name: 'Nora' }, { timeout: 10_000 })).toHaveAttribute(
      'href',
      '/users/4',
    );
  });
});

describe('agency page', () => {
  test('removing a member asks for confirmation first', async () => {
    loginAs('agency', '4');
    let removed = false;
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('agency', '4')),
      'GET /api/agencies/3': () => json(theAgency(removed ? 0 : 1)),
      'GET /api/agencies/3/members': () =>
        json(
          paged(agencyMember).parse({
            items: removed ? [] : [mia],
            total: removed ? 0 : 1,
            page: 1,
            limit: 500,
          }),
        ),
      'POST /api/agencies/3/removemember': () => {
        removed = true;
        return json(theAgency(0));
      },
    });
    renderApp('/agencies/3');
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: /Northwind Media/ });
    expect(screen.getByText('12.5%')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Remove Mia Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the member?' });
    expect(
      within(dialog).getByText(/Mia Member will no longer be a member of Northwind Media/),
    ).toBeInTheDocument();
    // cancelling keeps the member
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.path.endsWith('/removemember'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Remove Mia Member' }));
    const again = await screen.findByRole('dialog', { name: 'Remove the member?' });
    await user.click(within(again).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.calls.some((c) => c.path.endsWith('/removemember'))).toBe(true));
    const call = api.calls.find((c) => c.path.endsWith('/removemember'));
    expect(removeMemberInput.parse(JSON.parse(call?.body ?? '{}'))).toEqual({ user_id: '6' });
    expect(await screen.findByText('This agency has no members yet')).toBeInTheDocument();
  });

  test('a readonly admin sees the agency and its members without edit controls', async () => {
    loginAs('adminreadonly', '2');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('adminreadonly', '2')),
      'GET /api/agencies/3': () => json(theAgency(1)),
      'GET /api/agencies/3/members': () =>
        json(paged(agencyMember).parse({ items: [mia], total: 1, page: 1, limit: 500 })),
    });
    renderApp('/agencies/3');
    expect(await screen.findByRole('link', { name: 'Mia Member' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add member' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Mia Member' })).toBeNull();
  });
});
