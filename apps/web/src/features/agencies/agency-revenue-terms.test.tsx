import { agency, agencyMember, paged, revenueTermsLog } from '@adp/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const theAgency = agency.parse({
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
  members_count: 0,
  created_at: '2026-05-01T00:00:00.000Z',
});
const noMembers = paged(agencyMember).parse({ items: [], total: 0, page: 1, limit: 500 });
const history = revenueTermsLog.parse({
  items: [
    {
      _id: '9',
      entity_type: 'agency',
      entity_id: '3',
      field: 'agency_rate',
      before: 10,
      after: 12.5,
      actor_id: '1',
      actor_name: 'Ada Admin',
      created_at: '2026-06-01T10:00:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  limit: 10,
});

describe('revenue terms', () => {
  test('an admin sees the revenue terms history of an agency', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/agencies/3': () => json(theAgency),
      'GET /api/agencies/3/members': () => json(noMembers),
      'GET /api/revenue-terms-log': () => json(history),
    });
    renderApp('/agencies/3');
    const section = await screen.findByRole('region', { name: 'Revenue terms history' });
    expect(await within(section).findByText('10 → 12.5')).toBeInTheDocument();
    expect(within(section).getByText('Ada Admin')).toBeInTheDocument();
    expect(within(section).getByText('Agency rate')).toBeInTheDocument();
    const call = api.calls.find((c) => c.path === '/api/revenue-terms-log');
    expect(call?.query.get('entity_type')).toBe('agency');
    expect(call?.query.get('entity_id')).toBe('3');
  });

  test('an agency sees no history and its own rates only disabled in the form', async () => {
    loginAs('agency', '4');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('agency', '4')),
      'GET /api/agencies/3': () => json(theAgency),
      'GET /api/agencies/3/members': () => json(noMembers),
    });
    renderApp('/agencies/3');
    await screen.findByRole('heading', { name: /Northwind Media/ });
    expect(screen.queryByRole('region', { name: 'Revenue terms history' })).not.toBeInTheDocument();
    expect(api.calls.some((c) => c.path === '/api/revenue-terms-log')).toBe(false);

    renderApp('/agencies/3/edit');
    expect(await screen.findByRole('textbox', { name: 'Agency rate' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Phoenix rate (DSP traffic)' })).toBeDisabled();
    expect(screen.getByText('Only an administrator can change these terms')).toBeInTheDocument();
  });
});
