import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, launchBrowser, loginThroughApi, newPage } from './browser.ts';

const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots-layout';
const takeShots = process.env.SHOTS !== '0';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function navLabels(page: Page, selector: string): Promise<string[]> {
  return (await page.locator(selector).allInnerTexts()).map((text) => text.trim()).filter(Boolean);
}

describe('vertical layout', () => {
  test("the admin's menu, taller than the window, scrolls with the wheel to its last entry", async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 700 });
    try {
      const userId = await loginThroughApi(page, admin().email, admin().password);
      await page.goto(`/users/${userId}`);
      const links = page.locator('nav[aria-label="Menu"] a');
      await links.first().waitFor();
      const last = links.last();
      const bottom = async () => {
        const box = await last.boundingBox();
        return (box?.y ?? 0) + (box?.height ?? 0);
      };
      expect(await bottom()).toBeGreaterThan(700);
      // as a person does: the wheel over the menu (it did not move: half the admin's entries were out of reach)
      const first = await links.first().boundingBox();
      await page.mouse.move((first?.x ?? 0) + 20, (first?.y ?? 0) + 20);
      await expect
        .poll(async () => {
          await page.mouse.wheel(0, 600);
          return bottom();
        })
        .toBeLessThanOrEqual(700);
      const label = (await last.innerText()).trim();
      await last.click();
      await page.waitForURL((url) => url.pathname !== `/users/${userId}`);
      expect(label).not.toBe('');
    } finally {
      await context.close();
    }
  });
});

describe('horizontal layout', () => {
  test('at 1024 px the admin menu stays clear of the header controls and every entry is reachable', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    try {
      const userId = await loginThroughApi(page, admin().email, admin().password);
      // every entry of the admin, from the vertical layout's menu
      await page.goto(`/users/${userId}`);
      await page.locator('nav[aria-label="Menu"] a').first().waitFor();
      const all = await navLabels(page, 'nav[aria-label="Menu"] a');
      expect(all.length).toBeGreaterThan(6);

      await page.evaluate(() => localStorage.setItem('layout', 'horizontal'));
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.reload();
      const nav = page.locator('header nav[aria-label="Menu"]');
      await nav.locator('a').first().waitFor();
      const more = nav.getByRole('button', { name: 'More' });
      await more.waitFor();
      // every entry is in the row or under More (the entries come with the signed-in user's abilities, which
      // a busy machine may answer after the first render)
      let inMore: string[] = [];
      await expect
        .poll(
          async () => {
            const inRow = await navLabels(page, 'header nav[aria-label="Menu"] a');
            await more.click();
            inMore = await navLabels(page, '[role="menu"] [role="menuitem"]');
            await page.keyboard.press('Escape');
            await page.locator('[role="menu"]').waitFor({ state: 'hidden' });
            return [...inRow, ...inMore].sort();
          },
          { timeout: 15_000 },
        )
        .toEqual([...all].sort());
      expect(inMore.length).toBeGreaterThan(0);

      // no entry (nor More) reaches the language, settings and account controls
      const controls = await page.getByRole('button', { name: /Language/ }).boundingBox();
      expect(controls).not.toBeNull();
      for (const box of [
        ...(await Promise.all((await nav.locator('a').all()).map((link) => link.boundingBox()))),
        await more.boundingBox(),
      ]) {
        expect(box).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(controls?.x ?? 0);
      }

      // an entry under More opens its page (under load a click in the opening menu was once lost: the menu is
      // opened and the entry clicked again until the page changes, each try with its own short limit)
      const away = (url: URL) => url.pathname !== `/users/${userId}`;
      await expect
        .poll(
          async () => {
            if (!(await page.getByRole('menu').isVisible())) await more.click({ timeout: 5_000 });
            await page.getByRole('menuitem', { name: inMore.at(-1), exact: true }).click({ timeout: 5_000 });
            await page.waitForURL(away, { timeout: 5_000, waitUntil: 'commit' }).catch(() => {});
            return away(new URL(page.url()));
          },
          { timeout: 30_000, message: 'the entry under More opens its page' },
        )
        .toBe(true);
    } finally {
      await context.close();
    }
  });

  test.runIf(takeShots)(
    'screenshots: login and the horizontal layout, light, dark, Russian, at 1280, 1024 and 375 px',
    async () => {
      mkdirSync(shotsDir, { recursive: true });
      for (const width of [1280, 1024, 375]) {
        for (const variant of ['light', 'dark', 'ru'] as const) {
          const { context, page } = await newPage(browser, { width, height: 800 });
          try {
            await page.goto('/login');
            await page.evaluate((v) => {
              localStorage.setItem('skin', v === 'dark' ? 'dark' : 'light');
              localStorage.setItem('locale', v === 'ru' ? 'ru' : 'en');
              localStorage.setItem('layout', 'horizontal');
            }, variant);
            await page.reload();
            await page.getByRole('heading', { level: 1 }).waitFor();
            await page.screenshot({ path: `${shotsDir}/login-${variant}-${width}.png` });
            const userId = await loginThroughApi(page, admin().email, admin().password);
            await page.goto(`/users/${userId}`);
            await page.locator('main').getByRole('heading').first().waitFor();
            await page.waitForLoadState('networkidle');
            await page.screenshot({ path: `${shotsDir}/horizontal-${variant}-${width}.png` });
            if (width > 768) {
              await page.locator('header nav').getByRole('button').last().click();
              await page.getByRole('menu').waitFor();
              await page.waitForTimeout(400); // the opening transition
              await page.screenshot({ path: `${shotsDir}/horizontal-more-${variant}-${width}.png` });
            } else {
              await page.locator('header .mantine-Burger-root').click();
              await page.getByRole('dialog').waitFor();
              await page.waitForTimeout(400); // the opening transition
              await page.screenshot({ path: `${shotsDir}/drawer-${variant}-${width}.png` });
            }
          } finally {
            await context.close();
          }
        }
      }
    },
    300_000,
  );
});
