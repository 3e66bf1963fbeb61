import { prebidPartner } from '@adp/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const slow = { timeout: 20_000 };
const partner = prebidPartner.parse({
  _id: '6',
  name: 'PBS One',
  bidder_code: 'adp',
  status: 'active',
  key: 'k'.repeat(24),
  endpoint: `http://localhost:8080/rtb/prebid/${'k'.repeat(24)}`,
  created_at: '2026-01-01T00:00:00.000Z',
});
const zero = { requests: 0, bids: 0, wins: 0, impressions: 0, spent: 0, ecpm: 0 };

describe('Prebid partners', { timeout: 60_000 }, () => {
  test('an admin creates one and sees its bidder endpoint', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    let posted: unknown = null;
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/prebidpartners': () => json({ items: [], total: 0, page: 1, limit: 20 }),
      'POST /api/prebidpartners': (req) => {
        posted = JSON.parse(req.body);
        return json(partner, 201);
      },
      'GET /api/prebidpartners/6': () => json(partner),
    });
    renderApp('/prebidpartners');
    expect(await screen.findByText('No Prebid partners yet', {}, slow)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'New Prebid partner' }));
    await user.type(await screen.findByRole('textbox', { name: /Name/ }, slow), 'PBS One');
    await user.type(screen.getByRole('textbox', { name: /Bidder code/ }), 'adp');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(posted).toEqual({ prebidpartner: { name: 'PBS One', bidder_code: 'adp', status: 'active' } }),
    );
    expect(await screen.findByTestId('prebid-endpoint', {}, slow)).toHaveTextContent(partner.endpoint);
  });

  test('v2 statistics ask the chosen breakdown', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/prebidpartners/6': () => json(partner),
      'GET /api/prebidpartners/6/v2/stats': (req) =>
        json({
          rows: [{ key: req.query.get('group') === 'country' ? 'FR' : 'x', ...zero, requests: 12 }],
          total: { ...zero, requests: 12 },
        }),
    });
    renderApp('/prebidpartners/6/v2/stats?group=country');
    expect(await screen.findByRole('cell', { name: 'FR' }, slow)).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '12' })).toBeInTheDocument();
    expect(api.calls.find((c) => c.path.endsWith('/v2/stats'))?.query.get('group')).toBe('country');
  });
});
