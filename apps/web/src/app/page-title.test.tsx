import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { campaignFixture, pageOf, stubFonts } from '../test/advertiser-fixtures.ts';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../test/fixtures.ts';
import { renderApp } from '../test/render.tsx';

/** The browser tab says what the page shows, with the same words as its heading. */
describe('document title', { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test("an admin on Ada's account reads “Ada Lovelace · Account”, and the route's title once on a page that names nothing", async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': () => json(pageOf([])),
    });
    renderApp('/users/7');
    await waitFor(() => expect(document.title).toBe('Ada Lovelace · Account · AdPlatform'), {
      timeout: 10_000,
    });
    await user.click(await screen.findByRole('link', { name: 'Edit' }));
    await screen.findByRole('heading', { name: 'Edit account' }, { timeout: 10_000 });
    await waitFor(() => expect(document.title).toBe('Edit account · AdPlatform'));
  });

  test('one’s own account reads “My account”', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
      'GET /api/users/7/payments': () => json(pageOf([])),
    });
    renderApp('/users/7');
    await screen.findByTestId('account-balance', {}, { timeout: 10_000 });
    await waitFor(() => expect(document.title).toBe('My account · AdPlatform'));
  });

  test('a campaign page names the campaign; another owner’s list names the owner as its heading does', async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', name: 'Anna' })),
      'GET /api/campaigns/5': () => json(campaignFixture()),
      'GET /api/campaigns/5/payments': () => json(pageOf([])),
      'GET /api/banners': () => json(pageOf([])),
      'GET /api/campaigns': () => json(pageOf([])),
    });
    const page = renderApp('/users/7/campaigns/5');
    await waitFor(() => expect(document.title).toBe('Campaign «Spring sale» · AdPlatform'), {
      timeout: 10_000,
    });
    page.unmount();

    renderApp('/users/7/campaigns');
    expect(
      await screen.findByRole('heading', { name: 'Campaigns of Anna' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Campaigns of Anna · AdPlatform'));
  });
});
