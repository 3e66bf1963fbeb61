import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots-badges';
const takeShots = process.env.SHOTS !== '0';

let browser: Browser;
let owner: Awaited<ReturnType<typeof registerUser>>;
const stamp = Date.now().toString(36);
const siteTitle = `Badge site ${stamp}`;
const campaignTitle = `Badge campaign ${stamp}`;

async function token(email: string, password: string) {
  const res = await fetch(`${baseURL()}/api/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function create(t: string, path: string, body: unknown) {
  const res = await fetch(`${baseURL()}/api/${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await registerUser();
  const t = await token(owner.email, owner.password);
  // the longest labels: "inactive" and "awaiting moderation" (a new site or campaign waits for moderation)
  await create(t, 'sites', {
    site: {
      title: siteTitle,
      domain: `https://badges-${stamp}.example/news`,
      category: 'news',
      status: 'inactive',
    },
  });
  await create(t, 'campaigns', { campaign: { title: campaignTitle, clickprice: 0.2 } });
  if (takeShots) mkdirSync(shotsDir, { recursive: true });
});
afterAll(() => browser?.close());

/** Every badge in the page's tables whose text does not fit its box, with its sizes. */
function cutBadges(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('table .mantine-Badge-root')]
      .flatMap((badge) => [badge, ...badge.querySelectorAll<HTMLElement>('.mantine-Badge-label')])
      .filter((el) => el.scrollWidth > el.clientWidth)
      .map((el) => `${el.textContent}: ${el.scrollWidth} > ${el.clientWidth}`),
  );
}

const lists = [
  { path: '/sites', title: siteTitle },
  { path: '/campaigns', title: campaignTitle },
];

describe('badges in the admin tables', () => {
  for (const width of [1280, 375]) {
    test(`are never cut, in every language, at ${width} px`, async () => {
      const { page, context } = await newPage(browser, { width, height: 800 });
      try {
        await loginThroughApi(page, admin().email, admin().password);
        for (const locale of ['en', 'de', 'fr', 'pt', 'uk', 'ru']) {
          await page.evaluate((lng) => localStorage.setItem('locale', lng), locale);
          for (const list of lists) {
            await page.goto(`${list.path}?owner=${encodeURIComponent(owner.email)}`);
            const row = page.getByRole('row').filter({ hasText: list.title });
            await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
            // the status and the moderation badge of the owner's row, translated
            await expect.poll(() => row.locator('.mantine-Badge-root').count(), { timeout: 5_000 }).toBe(2);
            // fonts settle before measuring
            await page.evaluate(() => document.fonts.ready);
            expect(await cutBadges(page), `${locale} ${list.path} at ${width} px`).toEqual([]);
            if (takeShots)
              await page.screenshot({
                path: `${shotsDir}/${list.path.slice(1)}-${locale}-${width}.png`,
                fullPage: true,
              });
          }
        }
      } finally {
        await context.close();
      }
    });
  }
});
