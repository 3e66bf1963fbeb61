import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { bannerFixture, campaignFixture, pageOf, stubFonts } from '../../test/advertiser-fixtures.ts';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { widgetFixture } from '../../test/publisher-fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('moderation queue', { timeout: 60_000 }, () => {
  test('admins decide on pending campaigns and creatives too', async () => {
    stubFonts();
    loginAs('admin', '1');
    const pendingCampaign = campaignFixture({ _id: '5', title: 'Winter boots', moderation: 'pending' });
    const pendingBanner = bannerFixture({
      _id: '9',
      title: 'Boots -30%',
      moderation: 'pending',
      images: {
        thumb: '/uploads/b/9-thumb.webp',
        square: '/uploads/b/9-s.webp',
        landscape: '/uploads/b/9-l.webp',
        wide: '/uploads/b/9-w.webp',
      },
    });
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/sites': () => json(pageOf([])),
      'GET /api/widgets': () => json(pageOf([])),
      'GET /api/campaigns': () => json(pageOf([pendingCampaign])),
      'GET /api/banners': () => json(pageOf([pendingBanner])),
      'POST /api/campaigns/5/moderate': () => json({ ...pendingCampaign, moderation: 'approved' }),
      'POST /api/banners/9/moderate': () =>
        json({ ...pendingBanner, moderation: 'rejected', moderation_reason: 'Misleading' }),
    });
    renderApp('/moderation');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Campaigns/ }, { timeout: 20_000 }));
    await user.click(await screen.findByRole('button', { name: /Approve.*Winter boots/ }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/campaigns/5/moderate')).toBe(true),
    );
    const approve = api.calls.find((c) => c.path === '/api/campaigns/5/moderate');
    expect(JSON.parse(approve?.body ?? '{}')).toEqual({ decision: 'approve' });
    expect(
      api.calls.find((c) => c.method === 'GET' && c.path === '/api/banners')?.query.get('moderation'),
    ).toBe('pending');

    await user.click(screen.getByRole('tab', { name: /Creatives/ }));
    const reject = await screen.findByRole('button', { name: /Reject.*Boots -30%/ });
    // the creative's picture is in its row, to judge it without opening it
    const row = reject.closest('tr') as HTMLElement;
    expect(row.querySelector('img')?.getAttribute('src')).toBe('/uploads/b/9-thumb.webp');
    await user.click(reject);
    await user.type(await screen.findByLabelText(/Reason/), 'Misleading');
    await user.click(screen.getByRole('button', { name: /^Reject$/ }));
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/banners/9/moderate')).toBe(true));
    expect(JSON.parse(api.calls.find((c) => c.path === '/api/banners/9/moderate')?.body ?? '{}')).toEqual({
      decision: 'reject',
      reason: 'Misleading',
    });
  });

  test("a pending widget's row names its site through the name cache, not #<site_id>", async () => {
    stubFonts();
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/sites': () => json(pageOf([])),
      'GET /api/widgets': () =>
        json(
          pageOf([
            widgetFixture({ _id: '9', site_id: '5', title: 'Below the article', moderation: 'pending' }),
          ]),
        ),
      'GET /api/campaigns': () => json(pageOf([])),
      'GET /api/banners': () => json(pageOf([])),
      'POST /api/sites/names': () => json({ items: [{ _id: '5', name: 'Daily Planet' }] }),
    });
    renderApp('/moderation');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Widgets/ }, { timeout: 20_000 }));
    const row = (await screen.findByRole('link', { name: 'Below the article' })).closest('tr');
    await waitFor(() => expect(row?.textContent).toContain('Daily Planet'));
    expect(row?.textContent).not.toContain('#5');
    const lookup = api.calls.find((c) => c.method === 'POST' && c.path === '/api/sites/names');
    expect(JSON.parse(lookup?.body ?? '{}')).toEqual({ ids: ['5'] });
  });
});
