import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots-owner-names';
const takeShots = process.env.SHOTS !== '0';

let browser: Browser;
let anna: Awaited<ReturnType<typeof registerUser>>;
let other: Awaited<ReturnType<typeof registerUser>>;
const title = `Anna winter sale ${Date.now().toString(36)}`;
let campaignId = '';

async function token(email: string, password: string) {
  const res = await fetch(`${baseURL()}/api/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  browser = await launchBrowser();
  anna = await registerUser();
  other = await registerUser();
  const t = await token(anna.email, anna.password);
  await fetch(`${baseURL()}/api/users/${anna.id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ user: { name: 'Anna' } }),
  });
  const res = await fetch(`${baseURL()}/api/campaigns`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ campaign: { title, clickprice: 0.2 } }),
  });
  if (res.status !== 201) throw new Error(`campaign: ${res.status} ${await res.text()}`);
  campaignId = ((await res.json()) as { _id: string })._id;
  if (takeShots) mkdirSync(shotsDir, { recursive: true });
});
afterAll(() => browser?.close());

describe("owners' names", () => {
  test('the admin campaigns list shows the owner name linked to the user page; the owner filter takes a name', async () => {
    const { page, context } = await newPage(browser);
    await loginThroughApi(page, admin().email, admin().password);
    await page.goto('/campaigns?owner=Anna');
    const row = page.getByRole('row').filter({ hasText: title });
    const owner = row.getByRole('link', { name: 'Anna', exact: true });
    await expect.poll(() => owner.count(), { timeout: 15_000 }).toBe(1);
    expect(await owner.getAttribute('href')).toBe(`/users/${anna.id}`);
    if (takeShots) await page.screenshot({ path: `${shotsDir}/campaigns-admin-light.png`, fullPage: true });
    await owner.click();
    await page.waitForURL(`**/users/${anna.id}`);
    await context.close();
  });

  test("an admin on Anna's campaigns reads “Campaigns of Anna”, in German too", async () => {
    const { page, context } = await newPage(browser);
    await loginThroughApi(page, admin().email, admin().password);
    await page.goto(`/users/${anna.id}/campaigns`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Campaigns of Anna' }).count(), { timeout: 15_000 })
      .toBe(1);
    // the browser tab says the same as the heading
    await expect.poll(() => page.title()).toBe('Campaigns of Anna · AdPlatform');
    await page.evaluate(() => localStorage.setItem('locale', 'de'));
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Kampagnen von Anna' }).count(), { timeout: 15_000 })
      .toBe(1);
    await expect.poll(() => page.title()).toBe('Kampagnen von Anna · AdPlatform');
    if (takeShots)
      await page.screenshot({ path: `${shotsDir}/campaigns-of-anna-de-375.png`, fullPage: true });
    await context.close();
  });

  test("an admin on Anna's payments and profile reads “Payments of Anna”, in Ukrainian too", async () => {
    const { page, context } = await newPage(browser);
    await loginThroughApi(page, admin().email, admin().password);
    await page.goto(`/users/${anna.id}/payments`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Payments of Anna' }).count(), { timeout: 15_000 })
      .toBe(1);
    await page.goto(`/users/${anna.id}`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Recent payments of Anna' }).count(), { timeout: 15_000 })
      .toBe(1);
    await expect.poll(() => page.title()).toBe('Anna · Account · AdPlatform');
    if (takeShots) await page.screenshot({ path: `${shotsDir}/profile-of-anna.png`, fullPage: true });
    await page.evaluate(() => localStorage.setItem('locale', 'uk'));
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`/users/${anna.id}/payments`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Платежі користувача Anna' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    if (takeShots) await page.screenshot({ path: `${shotsDir}/payments-of-anna-uk-375.png`, fullPage: true });
    await context.close();
  });

  test('the browser tab names the campaign shown, and says “My account” on one’s own account', async () => {
    const { page, context } = await newPage(browser);
    await loginThroughApi(page, admin().email, admin().password);
    await page.goto(`/users/${anna.id}/campaigns/${campaignId}`);
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(`Campaign «${title}» · AdPlatform`);
    await page.getByRole('link', { name: /Campaigns of Anna/ }).click();
    await page.waitForURL(`**/users/${anna.id}/campaigns`);
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Campaigns of Anna · AdPlatform');
    await context.close();

    const own = await newPage(browser);
    await loginThroughApi(own.page, anna.email, anna.password);
    await own.page.goto(`/users/${anna.id}`);
    await expect.poll(() => own.page.title(), { timeout: 15_000 }).toBe('My account · AdPlatform');
    await own.context.close();
  });

  test("the moderation queue's widget row names its site, not #<site_id>", async () => {
    const t = await token(anna.email, anna.password);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${baseURL()}/api/${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { _id: string };
    };
    const siteTitle = `Anna's daily ${Date.now().toString(36)}`;
    const site = await post('sites', {
      site: {
        title: siteTitle,
        domain: `https://anna-${Date.now().toString(36)}.example/`,
        category: 'news',
      },
    });
    const widgetTitle = `Anna's sidebar ${Date.now().toString(36)}`;
    await post('widgets', { widget: { title: widgetTitle, site_id: site._id } });

    const { page, context } = await newPage(browser);
    await loginThroughApi(page, admin().email, admin().password);
    await page.goto('/moderation');
    await page.getByRole('tab', { name: /Widgets/ }).click();
    const row = page.getByRole('row').filter({ hasText: widgetTitle });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain(siteTitle);
    expect(await row.textContent()).not.toContain(`#${site._id}`);
    if (takeShots) await page.screenshot({ path: `${shotsDir}/moderation-widgets.png`, fullPage: true });
    await context.close();
  });

  test("a user opening another user's campaigns gets not-authorized once, with no error toast", async () => {
    const { page, context } = await newPage(browser);
    await loginThroughApi(page, other.email, other.password);
    await page.goto(`/users/${anna.id}/campaigns`);
    await page.waitForURL('**/pages/miscellaneous/not-authorized');
    await page.waitForTimeout(500);
    expect(await page.getByText('Data not found.').count()).toBe(0);
    if (takeShots) await page.screenshot({ path: `${shotsDir}/not-authorized.png` });
    await context.close();
  });
});
