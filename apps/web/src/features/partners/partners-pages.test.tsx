import { partner as partnerSchema } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const slow = { timeout: 20_000 };
const group = partnerSchema.parse({
  _id: '4',
  user_id: '9',
  title: 'North Group',
  name: 'North Group',
  owner_name: 'Nora Agency',
  logo: null,
  agency_rate: 12.5,
  phoenix_rate: 2,
  campaign_rate: 3,
  showlogo: true,
  showamount: true,
  status: 'active',
  members_count: 1,
  created_at: '2026-01-01T00:00:00.000Z',
});
const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, limit: 20 });
const zero = {
  impressions: 0,
  viewable: 0,
  clicks: 0,
  invalid_clicks: 0,
  conversions: 0,
  ctr: 0,
  ecpm: 0,
  spent: 0,
  earned: 0,
};

describe('agency groups (/partners)', { timeout: 60_000 }, () => {
  test('an admin lists groups and creates one; the owner error from the server shows under its field', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    let posted: Record<string, unknown> | null = null;
    let attempts = 0;
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/partners': () => json(page([group])),
      'POST /api/partners': (req) => {
        attempts += 1;
        posted = JSON.parse(req.body).partner;
        if (attempts === 1)
          return validationFailure([{ field: 'user_id', detail: 'This user is not an agency' }]);
        return json({ ...group, _id: '5' }, 201);
      },
      'GET /api/partners/5': () => json({ ...group, _id: '5' }),
      'POST /api/partners/5/preview': () =>
        json({ title: 'North Group', logo: null, showlogo: true, showamount: true, members: [] }),
    });
    renderApp('/partners');
    expect(await screen.findByRole('link', { name: 'North Group' }, slow)).toHaveAttribute(
      'href',
      '/partners/4',
    );
    expect(screen.getByText('12.5%')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'New group' }));
    await user.type(await screen.findByRole('textbox', { name: /Title/ }, slow), 'South Group');
    await user.type(screen.getByRole('textbox', { name: /Agency account/ }), '12');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    // under its field (and in the toast every 422 entry gets)
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /Agency account/ })).toHaveAttribute('aria-invalid', 'true'),
    );
    expect((await screen.findAllByText('This user is not an agency')).length).toBeGreaterThan(0);
    expect(posted).toMatchObject({ title: 'South Group', user_id: '12', agency_rate: 0, showlogo: true });
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(attempts).toBe(2));
    expect(await screen.findByRole('heading', { name: 'North Group' }, slow)).toBeInTheDocument();
  });

  test('the group page previews what members see, with the switches applied', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    const drafts: unknown[] = [];
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/partners/4': () => json(group),
      'POST /api/partners/4/preview': (req) => {
        const draft = JSON.parse(req.body).partner;
        drafts.push(draft);
        return json({
          title: 'North Group',
          logo: null,
          showlogo: draft.showlogo,
          showamount: draft.showamount,
          members: [{ _id: '11', name: 'Mia Member', balance: draft.showamount ? 7 : null }],
        });
      },
    });
    renderApp('/partners/4');
    const preview = await screen.findByTestId('partner-preview', {}, slow);
    expect(await within(preview).findByText('Mia Member')).toBeInTheDocument();
    expect(within(preview).queryByText('hidden')).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Show amount' }));
    expect(await within(screen.getByTestId('partner-preview')).findByText('hidden')).toBeInTheDocument();
    expect(drafts.at(-1)).toEqual({ showlogo: true, showamount: false });
    expect(screen.getByRole('link', { name: 'Change log' })).toHaveAttribute('href', '/partners/4/logs');
  });

  test('statistics: a drill-down route opens its breakdown and asks the group call', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/partners/4': () => json(group),
      'GET /api/partners/4/stats/country': () =>
        json({
          rows: [{ key: 'DE', ...zero, impressions: 40, clicks: 2, ctr: 5 }],
          total: { ...zero, impressions: 40, clicks: 2, ctr: 5 },
          count: 1,
          page: 1,
          limit: 20,
        }),
    });
    renderApp('/partners/4/stats/geo/country/DE?period=last_7_days');
    expect(await screen.findByRole('cell', { name: 'Germany' }, slow)).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '40' })).toBeInTheDocument();
    // the drill-down asks for that country only, over the period of the URL
    const call = api.calls.find((c) => c.path === '/api/partners/4/stats/country');
    expect(call?.query.get('key')).toBe('DE');
    expect(call?.query.get('source')).toBeNull();
    expect(
      Number(new Date(call?.query.get('to') ?? '')) - Number(new Date(call?.query.get('from') ?? '')),
    ).toBe(6 * 86_400_000);
    expect(screen.getByText('Country: Germany')).toBeInTheDocument();
  });

  test("statistics: the exchange branches read the group's DSP traffic; a partner row drills down by day", async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    const answer = (rows: unknown[]) =>
      json({ rows, total: { ...zero, impressions: 5 }, count: rows.length, page: 1, limit: 20 });
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/partners/4': () => json(group),
      'GET /api/dsppartners/9': () => json({ _id: '9', name: 'Bidder Nine' }),
      'GET /api/partners/4/stats/partner': () =>
        answer([{ key: '9', name: 'Bidder Nine', ...zero, impressions: 5, spent: 0.01, earned: 0.01 }]),
      'GET /api/partners/4/stats/revenue': () => answer([{ key: '2026-11-20', ...zero, impressions: 5 }]),
    });
    renderApp('/partners/4/stats/phoenix');
    // what the partners paid, in one column named so (not as the sites' earnings)
    expect(screen.getByRole('columnheader', { name: 'Paid by DSP partners' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Earnings' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('link', { name: 'Bidder Nine' }, slow));
    expect(await screen.findByText('DSP partner Bidder Nine, by day', {}, slow)).toBeInTheDocument();
    const byPartner = api.calls.find((c) => c.path === '/api/partners/4/stats/partner');
    expect(byPartner?.query.get('source')).toBe('dsp');
    const byDay = api.calls.find((c) => c.path === '/api/partners/4/stats/revenue');
    expect(byDay?.query.get('source')).toBe('dsp');
    expect(byDay?.query.get('partner_id')).toBe('9');
  });

  test('a non-admin is kept out', async () => {
    loginAs('default', '7');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('default', '7')) });
    renderApp('/partners');
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Agency groups' })).not.toBeInTheDocument(),
    );
  });
});
