import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

let browser: Browser;
let publisher: Awaited<ReturnType<typeof registerUser>>;
const stamp = Date.now().toString(36);
const domain = `adsense-${stamp}.example`;

/** A report as AdSense's Reports page downloads it (CSV, by date and site), with a bad date and an unknown site. */
const report = [
  'Date,Site,Page views,Page RPM (USD),Impressions,Impression RPM (USD),Clicks,Estimated earnings (USD)',
  `2026-11-01,${domain},"1,200",8.33,"3,400",2.94,12,10.00`,
  `2026-11-02,${domain},"1,100",7.73,"3,000",2.83,10,8.50`,
  `2026-11-0x,${domain},"1,000",7.00,"2,900",2.41,9,7.00`,
  `2026-11-02,nowhere-${stamp}.example,50,8.00,100,4.00,1,0.40`,
  'Totals,,"3,350",7.72,"9,400",2.75,32,25.90',
].join('\r\n');

beforeAll(async () => {
  browser = await launchBrowser();
  publisher = await registerUser();
  const token = await fetch(`${baseURL()}/api/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: publisher.email,
      password: publisher.password,
    }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const site = await fetch(`${baseURL()}/api/sites`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${access_token}` },
    body: JSON.stringify({ site: { title: `AdSense ${stamp}`, domain, category: 'news' } }),
  });
  expect(site.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
});

test('an admin uploads an AdSense report, sees the rows and errors, approves, and the publisher is credited', async () => {
  const { page, context } = await newPage(browser);
  await loginThroughApi(page, admin().email, admin().password);
  await page.goto('/adsense-incomes');
  await page.getByRole('heading', { name: 'AdSense incomes' }).waitFor();

  // a file that is not a report: the server's message in a danger toast, nothing kept
  await page.locator('input[type=file]').setInputFiles({
    name: 'not-a-report.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Month,Ad requests\n2026-11,120000\n'),
  });
  await page.getByRole('alert').filter({ hasText: 'The file is not an AdSense report' }).waitFor();
  expect(page.url()).toMatch(/\/adsense-incomes$/);

  await page.locator('input[type=file]').setInputFiles({
    name: `report-${stamp}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(report),
  });
  await page.waitForURL(/\/adsense-incomes\/\d+$/);
  await page.getByRole('heading', { name: `report-${stamp}.csv` }).waitFor();
  const errors = page.getByTestId('row-errors');
  await expect
    .poll(() => errors.allTextContents())
    .toEqual(['The date cannot be read', 'No site matches this row: choose one']);
  // the two good rows are mapped to the publisher's site by domain and show its share before approval
  await expect
    .poll(() => page.getByLabel('Site of line 2').first().inputValue())
    .toContain(`AdSense ${stamp}`);
  expect(await page.getByText('$5.00').count()).toBeGreaterThan(0);

  // the toasts stay a minute: close them so they cover nothing (the first each time, as the list shrinks; one
  // already on its way out may be gone before the click lands)
  const toasts = page.locator('.mantine-Notification-root');
  for (let i = 0; i < 10 && (await toasts.count()) > 0; i++)
    await toasts
      .first()
      .getByRole('button', { name: 'Close' })
      .click({ timeout: 2_000 })
      .catch(() => {});
  await expect.poll(() => toasts.count()).toBe(0);
  await page.getByRole('button', { name: 'Approve and credit publishers' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve and credit publishers' }).click();
  await page.getByText('Approved: $9.25 credited to the publishers').waitFor();
  await expect
    .poll(() => page.getByRole('button', { name: 'Approve and credit publishers' }).count())
    .toBe(0);

  await page.goto(`/users/${publisher.id}`);
  await expect
    .poll(() => page.getByTestId('account-balance').textContent(), { timeout: 10_000 })
    .toBe('$9.25');

  await page.goto('/adsense-incomes');
  await page.getByRole('link', { name: `report-${stamp}.csv` }).waitFor();
  await context.close();
});
