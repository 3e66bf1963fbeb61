import { bannerInput, targeting as targetingSchema } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { bannerFixture, campaignFixture, pageOf, stubFonts } from '../../test/advertiser-fixtures.ts';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const label = (text: string) => new RegExp(`^${text}\\s*\\*?$`);

function creativeApi(extra = {}) {
  return mockApi({
    'GET /api/auth/me': () => json(meFixture('default', '7')),
    'GET /api/campaigns/5': () => json(campaignFixture()),
    'GET /api/geo/countries': () =>
      json([
        { code: 'DE', name: 'Germany' },
        { code: 'FR', name: 'France' },
      ]),
    'GET /api/pixels': () => json(pageOf([])),
    ...extra,
  });
}

describe('creatives', { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test('the title counts its characters and stops at 60', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    creativeApi();
    renderApp('/users/7/campaigns/5/creatives/create');
    const title = await screen.findByLabelText(label('Title'), {}, { timeout: 10_000 });
    expect(screen.getByTestId('title-counter')).toHaveTextContent('0/60');
    await user.type(title, 'x'.repeat(65));
    expect(title).toHaveValue('x'.repeat(60));
    expect(screen.getByTestId('title-counter')).toHaveTextContent('60/60');
  });

  test('switching dimension states and picking values produces the targeting structure', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = creativeApi({
      'POST /api/banners': () => json(bannerFixture(), 201),
    });
    renderApp('/users/7/campaigns/5/creatives/create');
    await user.type(await screen.findByLabelText(label('Title'), {}, { timeout: 10_000 }), 'Spring sale');
    await user.type(screen.getByLabelText(label('Target URL')), 'https://shop.example/spring');

    const devices = screen.getByRole('group', { name: 'Devices' });
    await user.click(within(devices).getByRole('radio', { name: 'Only these' }));
    await user.click(within(devices).getByRole('checkbox', { name: 'Mobile' }));
    await user.click(within(devices).getByRole('checkbox', { name: 'Tablet' }));

    const os = screen.getByRole('group', { name: 'Operating systems' });
    await user.click(within(os).getByRole('radio', { name: 'All but these' }));
    await user.click(within(os).getByRole('checkbox', { name: 'Windows' }));

    const hours = screen.getByRole('group', { name: 'Hours' });
    await user.click(within(hours).getByRole('radio', { name: 'Only these' }));
    await user.click(within(hours).getByRole('checkbox', { name: '09' }));
    await user.click(within(hours).getByRole('checkbox', { name: '10' }));

    const ips = screen.getByRole('group', { name: 'IP addresses' });
    await user.click(within(ips).getByRole('radio', { name: 'All but these' }));
    await user.type(within(ips).getByRole('textbox'), '10.0.0.0/8{enter}2001:db8::1');

    // a dimension switched on and off again keeps no values
    const browsersGroup = screen.getByRole('group', { name: 'Browsers' });
    await user.click(within(browsersGroup).getByRole('radio', { name: 'Only these' }));
    await user.click(within(browsersGroup).getByRole('radio', { name: 'Off' }));

    await user.click(screen.getByRole('button', { name: 'Create creative' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/banners')).toBe(true),
    );
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/banners');
    const body = bannerInput.parse(JSON.parse(post?.body ?? '{}').banner);
    expect(body.campaign_id).toBe('5');
    expect(body.targeting.devices).toEqual({ state: 'active', values: ['mobile', 'tablet'] });
    expect(body.targeting.os).toEqual({ state: 'negative', values: ['windows'] });
    expect(body.targeting.hours).toEqual({ state: 'active', values: [9, 10] });
    expect(body.targeting.ips).toEqual({ state: 'negative', values: ['10.0.0.0/8', '2001:db8::1'] });
    expect(body.targeting.browsers.state).toBe('inactive');
    expect(body.targeting.countries).toEqual(targetingSchema.parse({}).countries);
    // a long walk through every dimension: about 25 s on a quiet 2-core machine, more beside other work
  }, 90_000);

  test('an end date before the start date is refused in the form, naming the first day it may take', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = creativeApi({ 'POST /api/banners': () => json(bannerFixture(), 201) });
    renderApp('/users/7/campaigns/5/creatives/create');
    await user.type(await screen.findByLabelText(label('Title'), {}, { timeout: 10_000 }), 'Spring sale');
    await user.type(screen.getByLabelText(label('Target URL')), 'https://shop.example/spring');
    await user.type(screen.getByLabelText(label('Start date')), '2026-12-10');
    await user.type(screen.getByLabelText(label('End date')), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Create creative' }));
    expect(await screen.findByText(/must be after 2026-12-09/)).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/banners')).toBe(false);
  });

  test("the server's refusal of a pixel id shows on the pixels dimension", async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const detail = "Only the owner's own remarketing pixels can be targeted (not: 44)";
    creativeApi({
      'POST /api/banners': () =>
        json({ errors: [{ field: 'targeting.pixels', code: 'pixel_not_owned', detail }] }, 422),
    });
    renderApp('/users/7/campaigns/5/creatives/create');
    await user.type(await screen.findByLabelText(label('Title'), {}, { timeout: 10_000 }), 'Spring sale');
    await user.type(screen.getByLabelText(label('Target URL')), 'https://shop.example/spring');
    await user.click(screen.getByRole('button', { name: /^(Save|Create)/ }));
    await screen.findAllByText(detail, {}, { timeout: 10_000 });
    const pixels = screen.getByRole('group', { name: /pixel/i });
    expect(within(pixels).getByText(detail)).toBeInTheDocument();
  });

  test("a saved creative's video is removed from its edit form; the image stays", async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const withVideo = bannerFixture({ video: '/uploads/banners/11-v.mp4' });
    const api = creativeApi({
      'GET /api/banners/11': () => json(withVideo),
      'DELETE /api/banners/11/video': () => json({ ...withVideo, video: null }),
    });
    renderApp('/users/7/campaigns/5/creatives/11/edit');
    await user.click(await screen.findByRole('button', { name: 'Remove video' }, { timeout: 10_000 }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/banners/11/video')).toBe(true),
    );
    expect(await screen.findByText('Video removed')).toBeInTheDocument();
  });

  test('a failed copy of the creative id says so in a toast', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    creativeApi({ 'GET /api/banners/11': () => json(bannerFixture()) });
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new Error('denied')) },
    });
    renderApp('/users/7/campaigns/5/creatives/11');
    await user.click(await screen.findByRole('button', { name: 'Copy id' }, { timeout: 10_000 }));
    expect(await screen.findByText('Creative id copy error')).toBeInTheDocument();
  });

  test("an admin on another user's creatives sees the owner's name linked to the user page; the owner does not", async () => {
    const list = () =>
      json(
        pageOf([{ ...bannerFixture({ _id: '9', title: 'Boots -30%', user_id: '7' }), user_name: 'Anna' }]),
      );
    loginAs('admin', '1');
    creativeApi({ 'GET /api/auth/me': () => json(meFixture('admin', '1')), 'GET /api/banners': list });
    const view = renderApp('/users/7/campaigns/5/creatives');
    const table = await screen.findByRole('table', {}, { timeout: 10_000 });
    expect(await within(table).findByRole('link', { name: 'Anna' })).toHaveAttribute('href', '/users/7');
    view.unmount();

    loginAs('default', '7');
    creativeApi({ 'GET /api/banners': list });
    renderApp('/users/7/campaigns/5/creatives');
    const own = await screen.findByRole('table', {}, { timeout: 10_000 });
    await within(own).findByRole('link', { name: 'Boots -30%' });
    expect(within(own).queryByRole('link', { name: 'Anna' })).toBeNull();
  });
});
