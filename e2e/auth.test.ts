import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, launchBrowser, loginThroughApi, loginThroughForm, newPage, registerUser } from './browser.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('authentication flows', () => {
  test('the admin logs in through the form and lands on their user page', async () => {
    const { context, page } = await newPage(browser);
    try {
      await loginThroughForm(page, admin().email, admin().password);
      await page.waitForURL(/\/users\/\d+$/);
      const userId = await page.evaluate(() => localStorage.getItem('user_id'));
      expect(new URL(page.url()).pathname).toBe(`/users/${userId}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('role'))).toBe('admin');
      expect(
        await page.evaluate(() => JSON.parse(localStorage.getItem('ability') ?? '[]').length),
      ).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  test('wrong credentials show the authorization error toast', async () => {
    const { context, page } = await newPage(browser);
    try {
      await loginThroughForm(page, admin().email, 'definitely-wrong-password');
      await page.getByText('Authorization error').waitFor();
      await page.getByText('Check that the username and password are correct').waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
    } finally {
      await context.close();
    }
  });

  test('a rejected access token is refreshed once and both queued requests are replayed', async () => {
    const { context, page } = await newPage(browser);
    try {
      const userId = await loginThroughApi(page, admin().email, admin().password);
      await page.evaluate(() => localStorage.setItem('access_token', 'corrupted-token'));
      const refreshes: string[] = [];
      const answers: { url: string; status: number; auth: string | undefined }[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/auth/token') && request.method() === 'POST') {
          refreshes.push(new URLSearchParams(request.postData() ?? '').get('grant_type') ?? '');
        }
      });
      page.on('response', (response) => {
        const url = new URL(response.url()).pathname;
        if (url === '/api/auth/me' || url === `/api/users/${userId}`) {
          answers.push({ url, status: response.status(), auth: response.request().headers().authorization });
        }
      });

      await page.goto(`/users/${userId}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForFunction(() => localStorage.getItem('access_token') !== 'corrupted-token');

      expect(refreshes).toEqual(['refresh_token']);
      const rejected = answers.filter((a) => a.status === 401);
      const replayed = answers.filter((a) => a.status === 200);
      expect(rejected.map((a) => a.url).sort()).toEqual(['/api/auth/me', `/api/users/${userId}`]);
      expect(replayed.map((a) => a.url).sort()).toEqual(['/api/auth/me', `/api/users/${userId}`]);
      expect(rejected.every((a) => a.auth === 'Bearer corrupted-token')).toBe(true);
      expect(replayed.every((a) => a.auth && a.auth !== 'Bearer corrupted-token')).toBe(true);
      expect(new URL(page.url()).pathname).toBe(`/users/${userId}`);
    } finally {
      await context.close();
    }
  });

  test('logout revokes the refresh token and ends the session', async () => {
    const { context, page } = await newPage(browser);
    try {
      const userId = await loginThroughApi(page, admin().email, admin().password);
      const refreshToken = await page.evaluate(() => localStorage.getItem('refresh_token'));
      await page.goto(`/users/${userId}`);
      const revoke = page.waitForRequest(
        (r) => r.url().endsWith('/api/auth/revoke') && r.method() === 'POST',
      );
      await page.getByRole('button', { name: /Account menu$/ }).click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      const request = await revoke;
      expect(new URLSearchParams(request.postData() ?? '').get('token')).toBe(refreshToken);
      await page.waitForURL(/\/login$/);
      expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
      expect(await page.evaluate(() => localStorage.getItem('ability'))).toBeNull();

      await page.goto(`/users/${userId}`);
      await page.waitForURL(/\/login\?redirect=/);
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/users/${userId}`);
    } finally {
      await context.close();
    }
  });

  test('a new user registers and lands on their own page', async () => {
    const { context, page } = await newPage(browser);
    try {
      const email = `e2e-register-${Date.now()}@example.com`;
      await page.goto('/register');
      await page.getByLabel('Name').fill('Grace Hopper');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Phone').fill('+1 555 0100');
      await page.getByLabel('Password', { exact: false }).first().fill('grace-password-1');
      await page.getByLabel('I agree to the privacy policy').check();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL(/\/users\/\d+$/);
      await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
      expect(await page.getByText(email).count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => localStorage.getItem('role'))).toBe('default');
    } finally {
      await context.close();
    }
  });

  test('a default user opening an admin route sees not-authorized', async () => {
    const user = await registerUser();
    const { context, page } = await newPage(browser);
    try {
      await loginThroughForm(page, user.email, user.password);
      await page.waitForURL(`**/users/${user.id}`);
      await page.goto('/users');
      await page.waitForURL(/\/pages\/miscellaneous\/not-authorized$/);
      await page.getByRole('heading', { name: 'You are not authorized' }).waitFor();
      // The admin entry is not in this user's menu either.
      await page.goto(`/users/${user.id}`);
      await page.getByRole('heading', { name: user.name, exact: true }).waitFor();
      expect(
        await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Users' }).count(),
      ).toBe(0);
    } finally {
      await context.close();
    }
  });
});
