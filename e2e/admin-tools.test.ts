import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, DESKTOP_CHROME, tokenOf } from './api.ts';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

/**
 * Issue 12, "done means": the maintenance switch (an admin turns it on, an advertiser sees the
 * under-maintenance page, the admin turns it off) and an admin decoding a click URL copied from a widget.
 */
const stamp = Date.now().toString(36);
let browser: Browser;
let adminToken = '';
const ids = { widget: '', campaign: '' };
let advertiserLogin = { email: '', password: '' };

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await tokenOf(admin().email, admin().password);
});

afterAll(async () => {
  // the files share one server: maintenance must never outlive this file, nor the campaign serve elsewhere
  await api('/system/maintenance', adminToken, { method: 'PUT', body: { maintenance: { enabled: false } } });
  if (ids.campaign)
    await api(`/campaigns/${ids.campaign}`, adminToken, {
      method: 'PUT',
      body: { campaign: { status: 'inactive' } },
    }).catch(() => {});
  await browser?.close();
});

describe('maintenance switch', () => {
  test('an admin turns it on, an advertiser sees the under-maintenance page, the admin turns it off', async () => {
    const advertiser = await registerUser();
    advertiserLogin = advertiser;
    const adv = await newPage(browser);
    await loginThroughApi(adv.page, advertiser.email, advertiser.password);
    const adm = await newPage(browser);
    await loginThroughApi(adm.page, admin().email, admin().password);

    await adm.page.goto('/system');
    const sw = adm.page.getByRole('switch', { name: 'Under maintenance' });
    // a forced click skips the actionability wait: the switch must have loaded its state first (off)
    await expect.poll(() => sw.isEnabled(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => sw.isChecked(), { timeout: 20_000 }).toBe(false);
    await sw.click({ force: true });
    await adm.page.getByRole('dialog').getByRole('button', { name: 'Turn on' }).click();
    await adm.page.getByTestId('maintenance-banner').waitFor();

    await adv.page.goto(`/users/${advertiser.id}`);
    await adv.page.getByRole('heading', { name: 'Under maintenance' }).waitFor();
    // the admin keeps working
    await adm.page.goto('/users');
    await adm.page.getByTestId('maintenance-banner').waitFor();

    await adm.page.goto('/system');
    const on = adm.page.getByRole('switch', { name: 'Under maintenance' });
    await expect.poll(() => on.isEnabled(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => on.isChecked(), { timeout: 20_000 }).toBe(true);
    await on.click({ force: true });
    await adm.page.getByText('Maintenance mode is off: everyone can work again').waitFor();
    expect(await adm.page.getByTestId('maintenance-banner').count()).toBe(0);

    // the advertiser's page comes back (its own check, or the button)
    await adv.page.getByRole('button', { name: 'Check again' }).click();
    await adv.page.waitForURL(`**/users/${advertiser.id}`);
    await expect
      .poll(() => adv.page.getByRole('heading', { name: 'Under maintenance' }).count(), { timeout: 15_000 })
      .toBe(0);
    await adv.context.close();
    await adm.context.close();
  });

  test('a visitor without a session: page loads one after another take the answer from the browser cache', async () => {
    const visitor = await newPage(browser);
    const cdp = await visitor.context.newCDPSession(visitor.page);
    await cdp.send('Network.enable');
    // the page's maintenance asks, and those the browser answered from its cache
    const asked = new Set<string>();
    const cached = new Set<string>();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url.endsWith('/api/system/maintenance')) asked.add(e.requestId);
    });
    cdp.on('Network.requestServedFromCache', (e) => cached.add(e.requestId));
    cdp.on('Network.responseReceived', (e) => {
      if (e.response.fromDiskCache) cached.add(e.requestId);
    });
    for (const path of ['/login', '/register', '/forgot-password']) {
      await visitor.page.goto(path);
      await visitor.page.getByLabel(/Email/).first().waitFor();
    }
    await expect.poll(() => asked.size).toBe(3);
    // only the first went to the server
    await expect.poll(() => [...asked].filter((id) => !cached.has(id)).length).toBe(1);
    await visitor.context.close();
  });
});

describe('decode-URL', () => {
  test("an admin decodes a click URL copied from a widget's answer: the campaign, and valid", async () => {
    const publisher = await registerUser();
    const pubToken = await tokenOf(publisher.email, publisher.password);
    const moderate = (entity: string, id: string) =>
      api(`/${entity}/${id}/moderate`, adminToken, { method: 'POST', body: { decision: 'approve' } });
    const site = await api('/sites', pubToken, {
      method: 'POST',
      body: { site: { title: `Decode ${stamp}`, domain: `decode-${stamp}.example`, category: 'news' } },
    });
    await moderate('sites', site._id);
    ids.widget = (
      await api('/widgets', pubToken, {
        method: 'POST',
        body: { widget: { title: `Decode widget ${stamp}`, site_id: site._id } },
      })
    )._id;
    await moderate('widgets', ids.widget);
    const advertiser = advertiserLogin.email ? advertiserLogin : await registerUser();
    const advToken = await tokenOf(advertiser.email, advertiser.password);
    const me = await api<{ account: { _id: string } }>('/auth/me', advToken);
    await api(`/users/${me.account._id}/payments`, adminToken, {
      method: 'POST',
      body: { payment: { sum: 50, type: 'admin_payment', source: 'e2e' } },
    });
    const campaignTitle = `Decoded boots ${stamp}`;
    ids.campaign = (
      await api('/campaigns', advToken, {
        method: 'POST',
        body: { campaign: { title: campaignTitle, clickprice: 0.5, click_filter: 'dummy' } },
      })
    )._id;
    await api(`/campaigns/${ids.campaign}/payments`, advToken, {
      method: 'POST',
      body: { payment: { sum: 20 } },
    });
    const banner = await api('/banners', advToken, {
      method: 'POST',
      body: {
        banner: {
          campaign_id: ids.campaign,
          title: `Boots ${stamp}`,
          text: 'Half price',
          url: 'https://shop.example/boots',
        },
      },
    });
    await moderate('campaigns', ids.campaign);
    await moderate('banners', banner._id);
    await api(`/campaigns/${ids.campaign}`, advToken, {
      method: 'PUT',
      body: { campaign: { status: 'active' } },
    });

    // the widget's served answer, as a page gets it: its click_url
    let clickUrl = '';
    await expect
      .poll(
        async () => {
          const response = await fetch(`${baseURL()}/serve/widgets/${ids.widget}`, {
            headers: { 'User-Agent': DESKTOP_CHROME, 'Accept-Language': 'en-US,en;q=0.9' },
          });
          if (!response.ok) return `HTTP ${response.status}`;
          const body = (await response.json()) as {
            items: { url: string; title: string; sponsored?: boolean }[];
          };
          clickUrl = body.items.find((i) => i.sponsored && i.title === `Boots ${stamp}`)?.url ?? '';
          return clickUrl !== '';
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe(true);

    const { context, page } = await newPage(browser);
    await loginThroughApi(page, admin().email, admin().password);
    await page.goto('/decode-url');
    await page.getByRole('textbox', { name: /URL/ }).fill(clickUrl);
    await page.getByRole('button', { name: 'Decode' }).click();
    await page.getByText('Click URL').waitFor();
    await page.getByText('Valid', { exact: true }).waitFor();
    const items = page.getByRole('table', { name: 'Items shown' });
    await items.getByText(new RegExp(`${campaignTitle} \\(#${ids.campaign}\\)`)).waitFor();
    await context.close();
  });
});
