import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, tokenOf } from './api.ts';
import { admin, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

/** Screenshots of the notifications page for looking at (issue 12); SHOTS=0 skips them. */
const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots12';
const takeShots = process.env.SHOTS !== '0';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  if (takeShots) mkdirSync(shotsDir, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

// the header's bell: a button that opens the newest notifications (the menu has a Notifications link too)
const bell = (page: Page) =>
  page.getByTestId('notification-count').getByRole('button', { name: /^Notifications/ });

test('an admin rejects a campaign: the advertiser sees the bell count and the notification, and reads it', async () => {
  const advertiser = await registerUser();
  const own = await tokenOf(advertiser.email, advertiser.password);
  const adminToken = await tokenOf(admin().email, admin().password);
  const campaign = await api('/campaigns', own, {
    method: 'POST',
    body: { campaign: { title: 'Spring sale', clickprice: 0.5 } },
  });
  const site = await api('/sites', own, {
    method: 'POST',
    body: { site: { title: 'Garden news', domain: `garden-${advertiser.id}.example`, category: 'news' } },
  });

  const { context, page } = await newPage(browser);
  await loginThroughApi(page, advertiser.email, advertiser.password);
  await page.goto(`/users/${advertiser.id}`);
  await expect.poll(async () => bell(page).getAttribute('aria-label')).toBe('Notifications');

  await api(`/campaigns/${campaign._id}/moderate`, adminToken, {
    method: 'POST',
    body: { decision: 'reject', reason: 'The landing page does not open' },
  });
  await api(`/sites/${site._id}/moderate`, adminToken, { method: 'POST', body: { decision: 'approve' } });
  // the bell asks again when the window regains focus
  await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
  await expect
    .poll(async () => bell(page).getAttribute('aria-label'), { timeout: 10_000 })
    .toBe('Notifications, unread: 2');

  await bell(page).click();
  const dropdown = page.getByRole('dialog', { name: 'Notifications' });
  await expect.poll(() => dropdown.getByRole('link', { name: 'Open' }).count()).toBe(2);
  expect(await dropdown.getByRole('link', { name: 'Open' }).nth(1).getAttribute('href')).toBe(
    `/users/${advertiser.id}/campaigns/${campaign._id}`,
  );
  await dropdown.getByRole('link', { name: 'All notifications' }).click();
  await page.waitForURL('**/notifications');
  const rows = page.getByTestId('notification');
  await expect.poll(() => rows.count()).toBe(2);
  expect(await rows.nth(1).innerText()).toContain(
    'Your campaign “Spring sale” was rejected. Reason: The landing page does not open',
  );
  expect(await rows.nth(0).innerText()).toContain(
    `Your site “garden-${advertiser.id}.example” was approved.`,
  );

  if (takeShots) {
    await page.screenshot({ path: `${shotsDir}/notifications-light.png`, fullPage: true });
    await page.evaluate(() => localStorage.setItem('skin', 'dark'));
    await page.reload();
    await rows.first().waitFor();
    await page.screenshot({ path: `${shotsDir}/notifications-dark.png`, fullPage: true });
    await page.evaluate(() => {
      localStorage.setItem('skin', 'light');
      localStorage.setItem('locale', 'de');
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Benachrichtigungen' }).waitFor();
    await page.screenshot({ path: `${shotsDir}/notifications-de.png`, fullPage: true });
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    const phone = await newPage(browser, { width: 390, height: 844 });
    await loginThroughApi(phone.page, advertiser.email, advertiser.password);
    await phone.page.goto('/notifications');
    await phone.page.getByTestId('notification').first().waitFor();
    await phone.page.screenshot({ path: `${shotsDir}/notifications-phone.png`, fullPage: true });
    await phone.context.close();
    await page.reload();
    await rows.first().waitFor();
  }

  await rows.nth(1).getByRole('button', { name: 'Mark as read' }).click();
  await expect.poll(async () => bell(page).getAttribute('aria-label')).toBe('Notifications, unread: 1');
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect.poll(async () => bell(page).getAttribute('aria-label')).toBe('Notifications');
  const count = await api<{ count: number }>('/notifications/unread-count', own);
  expect(count.count).toBe(0);
  await context.close();
});
