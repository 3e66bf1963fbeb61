import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, launchBrowser, loginThroughApi, newPage } from './browser.ts';

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

      const inRow = await navLabels(page, 'header nav[aria-label="Menu"] a');
      await more.click();
      const inMore = await navLabels(page, '[role="menu"] [role="menuitem"]');
      expect([...inRow, ...inMore].sort()).toEqual([...all].sort());
      expect(inMore.length).toBeGreaterThan(0);

      // an entry under More opens its page
      await page.getByRole('menuitem', { name: inMore.at(-1) }).click();
      await page.waitForURL((url) => url.pathname !== `/users/${userId}`);
    } finally {
      await context.close();
    }
  });
});
