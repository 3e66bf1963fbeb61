import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, launchBrowser, loginThroughApi, newPage } from './browser.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('interface flows', () => {
  test('switching to Russian translates the page and survives a reload', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.getByRole('button', { name: /Language/ }).click();
      await page.getByRole('menuitem', { name: 'Русский' }).click();
      await page.getByRole('button', { name: 'Войти' }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('ru');
      await page.reload();
      await page.getByRole('button', { name: 'Войти' }).waitFor();
      expect(await page.getByText('С возвращением').count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    } finally {
      await context.close();
    }
  });

  test('unknown paths and /error-404 show the 404 page', async () => {
    const { context, page } = await newPage(browser);
    try {
      for (const path of ['/this/does/not/exist', '/error-404']) {
        await page.goto(path);
        await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        await page.getByRole('link', { name: 'Back to home' }).waitFor();
        expect(new URL(page.url()).pathname).toBe(path);
      }
    } finally {
      await context.close();
    }
  });

  test('layout and skin chosen in the customizer persist after a reload', async () => {
    const { context, page } = await newPage(browser);
    try {
      const userId = await loginThroughApi(page, admin().email, admin().password);
      await page.goto(`/users/${userId}`);
      await page.locator('[data-layout="vertical"]').waitFor();
      await page.getByRole('button', { name: 'Theme settings' }).click();
      await page.getByRole('radio', { name: 'Horizontal', exact: true }).check();
      await page.getByRole('radio', { name: 'Dark', exact: true }).check();
      await page.locator('[data-layout="horizontal"]').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe('dark');

      await page.reload();
      await page.locator('[data-layout="horizontal"]').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe('dark');
      expect(
        await page.evaluate(() => [localStorage.getItem('layout'), localStorage.getItem('skin')]),
      ).toEqual(['horizontal', 'dark']);
      // The horizontal layout shows the menu in the header; entries that do not fit are under More.
      await page.getByRole('banner').getByRole('button', { name: 'More' }).click();
      await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    } finally {
      await context.close();
    }
  });

  test('at 375 px the navigation is behind a burger that opens a drawer', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 812 });
    try {
      const userId = await loginThroughApi(page, admin().email, admin().password);
      await page.goto(`/users/${userId}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const burger = page.getByRole('button', { name: 'Open the menu' });
      await burger.waitFor();
      // The side navbar is not rendered at this width (not merely pushed off-screen).
      expect(await page.locator('nav.mantine-AppShell-navbar').isVisible()).toBe(false);

      await burger.click();
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await drawer.waitFor();
      await drawer.getByRole('link', { name: 'Users' }).click();
      await page.waitForURL(/\/users$/);
      await drawer.waitFor({ state: 'hidden' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
});
