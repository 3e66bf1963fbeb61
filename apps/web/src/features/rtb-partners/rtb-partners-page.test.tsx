import { rtbPartner, rtbPartnerInput, rtbPartnersPage } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const partner = rtbPartner.parse({
  _id: '3',
  name: 'Example SSP',
  key: 'k3y',
  status: 'active',
  max_request_ms: 200,
  daily_limit: 50,
  currency: 'USD',
  endpoint: 'https://ads.example/rtb/openrtb2/k3y',
  created_at: '2026-05-01T00:00:00.000Z',
});
const list = () => json(rtbPartnersPage.parse({ items: [partner], total: 1, page: 1, limit: 20 }));

describe('RTB partners page', () => {
  test('an admin sees the endpoint URL and creates a partner with POST {rtbpartner}', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/rtbpartners': list,
      'POST /api/rtbpartners': () => json({ ...partner, _id: '4', name: 'New SSP', key: 'n3w' }, 201),
    });
    renderApp('/rtbpartners');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'RTB partners' });
    expect(await within(table).findByText('/rtb/openrtb2/k3y')).toHaveAttribute(
      'title',
      'https://ads.example/rtb/openrtb2/k3y',
    );
    expect(within(table).getByText('200 ms')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New partner' }));
    const dialog = await screen.findByRole('dialog', { name: 'New RTB partner' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'New SSP');
    await user.click(within(dialog).getByRole('button', { name: 'New partner' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    const body = JSON.parse(api.calls.find((c) => c.method === 'POST')?.body ?? '{}') as {
      rtbpartner: unknown;
    };
    expect(body.rtbpartner).toEqual({
      name: 'New SSP',
      status: 'active',
      max_request_ms: 200,
      daily_limit: null,
      currency: 'USD',
    });
    expect(rtbPartnerInput.parse(body.rtbpartner)).toBeTruthy();
  });

  test('an admin edits a partner with PUT; a taken name shows under the field', async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/rtbpartners': list,
      'PUT /api/rtbpartners/3': () =>
        json(
          {
            errors: [
              {
                field: 'name',
                code: 'rtb_partner_name_taken',
                detail: 'An RTB partner with this name already exists',
              },
            ],
          },
          422,
        ),
    });
    renderApp('/rtbpartners');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'RTB partners' });
    await user.click(await within(table).findByRole('button', { name: 'Edit Example SSP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Example SSP' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('An RTB partner with this name already exists'),
    ).toBeInTheDocument();
  });

  test('adminreadonly sees the list without controls', async () => {
    loginAs('adminreadonly', '2');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('adminreadonly', '2')),
      'GET /api/rtbpartners': list,
    });
    renderApp('/rtbpartners');
    const table = await screen.findByRole('table', { name: 'RTB partners' });
    expect(await within(table).findByText('Example SSP')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New partner' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
  });
});
