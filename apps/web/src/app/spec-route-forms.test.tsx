import { promotion, promotionPage } from '@adp/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { landingFixture, pageOf, pixelFixture, stubFonts } from '../test/advertiser-fixtures.ts';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../test/fixtures.ts';
import { siteFixture, stubEmbedScript, widgetFixture } from '../test/publisher-fixtures.ts';
import { renderApp } from '../test/render.tsx';

const slow = { timeout: 20_000 };

const promotionFixture = () =>
  promotion.parse({
    _id: '1',
    user_id: '7',
    site_id: '5',
    title: 'Black Friday',
    url: 'https://planet.example/bf',
    pages_count: 1,
    created_at: '2026-01-01T00:00:00.000Z',
  });

const pageFixture = () =>
  promotionPage.parse({
    _id: '2',
    user_id: '7',
    site_id: '5',
    promotion_id: '1',
    title: 'Subscribe now',
    text: 'Half price',
    url: 'https://planet.example/s',
    status: 'active',
    image: null,
    created_at: '2026-01-01T00:00:00.000Z',
  });

function publisherApi() {
  const site = siteFixture();
  return mockApi({
    'GET /api/auth/me': () => json(meFixture('default', '7')),
    'GET /api/sites/5': () => json(site),
    'GET /api/sites': () => json(pageOf([site])),
    'GET /api/widgets/9': () => json(widgetFixture()),
    'GET /api/promotions/1': () => json(promotionFixture()),
    'GET /api/promotionpages': () => json(pageOf([pageFixture()])),
    'GET /api/promotionpages/2': () => json(pageFixture()),
  });
}

/** The 404 page is not what a SPEC.md section 2 route shows. */
async function notThe404(router: { state: { location: { pathname: string } } }, path: string) {
  expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
  expect(router.state.location.pathname).toBe(path);
}

describe('the route forms of SPEC.md section 2 under their site and user', { timeout: 60_000 }, () => {
  beforeAll(stubFonts);
  afterEach(() => {
    delete window.AdpWidget;
  });

  test.each([
    ['/sites/5/widgets/9', () => screen.findByRole('button', { name: 'Copy code' }, slow)],
    ['/sites/5/widgets/9/edit', () => screen.findByRole('button', { name: 'Save' }, slow)],
    ['/sites/5/promotions/create', () => screen.findByRole('button', { name: 'Create' }, slow)],
    ['/sites/5/promotions/1', () => screen.findByRole('heading', { name: 'Black Friday' }, slow)],
    ['/sites/5/promotions/1/edit', () => screen.findByRole('button', { name: 'Save' }, slow)],
    ['/sites/5/promotions/1/pages/create', () => screen.findByRole('button', { name: 'Create' }, slow)],
    ['/sites/5/promotions/1/pages/2', () => screen.findByRole('heading', { name: 'Subscribe now' }, slow)],
    ['/sites/5/promotions/1/pages/2/edit', () => screen.findByRole('button', { name: 'Save' }, slow)],
  ] as const)('%s renders its page', async (path, find) => {
    loginAs('default', '7');
    stubEmbedScript();
    publisherApi();
    const { router, unmount } = renderApp(path);
    await find();
    await notThe404(router, path);
    unmount();
  });

  test.each([
    [
      '/pixels/create',
      '/users/7/pixels/create',
      () => screen.findByRole('button', { name: 'Create pixel' }, slow),
    ],
    ['/pixels/3', '/pixels/3', () => screen.findByRole('button', { name: 'Copy code' }, slow)],
    ['/pixels/3/edit', '/pixels/3/edit', () => screen.findByRole('button', { name: 'Save changes' }, slow)],
    [
      '/users/7/agencies/create',
      '/agencies/create',
      () => screen.findByRole('button', { name: 'Create agency' }, slow),
    ],
  ] as const)('%s, a path SPEC.md names too, leads to %s', async (path, landed, find) => {
    loginAs('agency', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('agency', '7')),
      'GET /api/pixels/3': () => json(pixelFixture()),
    });
    const { router, unmount } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe(landed), slow);
    await find();
    await notThe404(router, landed);
    unmount();
  });

  test.each([
    ['/users/7/agencies/4', '/agencies/4'],
    ['/users/7/agencies/4/edit', '/agencies/4/edit'],
    ['/users/7/agencies/4/3/edit', '/agencies/4/3/edit'],
  ] as const)('%s leads to the agency page %s', async (path, landed) => {
    loginAs('agency', '7');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('agency', '7')) });
    const { router, unmount } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe(landed), slow);
    unmount();
  });

  test('/sites/{id}/promotions/create has no site picker and creates on that site', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites/5': () => json(siteFixture()),
      'POST /api/promotions': () => json(promotionFixture(), 201),
      'GET /api/promotions/1': () => json(promotionFixture()),
      'GET /api/promotionpages': () => json(pageOf([])),
    });
    const { router, unmount } = renderApp('/sites/5/promotions/create');
    await user.type(await screen.findByLabelText(/^Title/, {}, slow), 'Black Friday');
    await user.type(screen.getByLabelText(/^URL/), 'https://planet.example/bf');
    expect(screen.queryAllByLabelText(/^Site/)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/promotions/1'), slow);
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/promotions');
    expect(JSON.parse(post!.body).promotion).toMatchObject({ site_id: '5', title: 'Black Friday' });
    unmount();
  });

  test('/promotions/create shows a site picker first; the chosen site gets the promotion', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites': () =>
        json(
          // the admin's list carries each owner's name
          pageOf(
            [siteFixture(), siteFixture({ _id: '6', title: 'Daily Globe', domain: 'globe.example' })].map(
              (s) => ({ ...s, user_name: 'Ada Lovelace' }),
            ),
          ),
        ),
      'GET /api/sites/6': () =>
        json(siteFixture({ _id: '6', title: 'Daily Globe', domain: 'globe.example' })),
      'POST /api/promotions': () => json({ ...promotionFixture(), site_id: '6' }, 201),
      'GET /api/promotions/1': () => json(promotionFixture()),
      'GET /api/promotionpages': () => json(pageOf([])),
    });
    const { router, unmount } = renderApp('/promotions/create');
    const picker = (await screen.findAllByLabelText(/^Site/, {}, slow)).find((el) => el.tagName === 'INPUT')!;
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Daily Globe (globe.example)' }, slow));
    await user.type(await screen.findByLabelText(/^Title/, {}, slow), 'Spring');
    await user.type(screen.getByLabelText(/^URL/), 'https://globe.example/spring');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/promotions/1'), slow);
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/promotions');
    expect(JSON.parse(post!.body).promotion).toMatchObject({ site_id: '6', title: 'Spring' });
    unmount();
  });

  test('/users/{id}/landings/create: an admin creates a landing for that user', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/8': () => json(accountFixture({ _id: '8', name: 'Grace Hopper' })),
      'POST /api/landings': () => json(landingFixture({ _id: '9', user_id: '8' }), 201),
      'GET /api/landings/9': () => json(landingFixture({ _id: '9', user_id: '8' })),
      'GET /api/landings/9/leads': () => json(pageOf([])),
    });
    const { router, unmount } = renderApp('/users/8/landings/create');
    const title = await screen.findByLabelText(/^Title/, {}, slow);
    await notThe404(router, '/users/8/landings/create');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    await user.type(title, 'Free trial');
    await user.click(screen.getByRole('button', { name: 'Create landing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/landings/9/edit'), slow);
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/landings');
    expect(JSON.parse(post!.body).landing).toMatchObject({ user_id: '8', title: 'Free trial' });
    unmount();
  });

  test('/users/{id}/landings/{landingId}/edit renders the landing editor', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/landings/9': () => json(landingFixture()),
      'GET /api/landings/9/leads': () => json(pageOf([])),
    });
    const { router, unmount } = renderApp('/users/7/landings/9/edit');
    await screen.findByDisplayValue('Free trial', {}, slow);
    await notThe404(router, '/users/7/landings/9/edit');
    unmount();
  });
});
