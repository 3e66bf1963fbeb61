import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** This worker's server (global-setup.ts starts one per worker; VITEST_POOL_ID counts workers from 1). */
export const baseURL = () => {
  const urls = inject('baseURLs');
  return urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length] as string;
};
export const admin = () => ({ email: inject('adminEmail'), password: inject('adminPassword') });

/** Debian's Chromium; the suite never downloads a browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: baseURL() });
  const page = await context.newPage();
  return { context, page };
}

export async function loginThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: false }).first().fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

let counter = 0;

/** A fresh `default` user, registered through the API. */
export async function registerUser(): Promise<{ email: string; password: string; name: string; id: string }> {
  counter += 1;
  const stamp = `${Date.now()}-${process.pid}-${counter}`;
  const user = {
    name: `E2E User ${counter}`,
    email: `e2e-${stamp}@example.com`,
    password: 'e2e-user-password-1',
  };
  const response = await fetch(`${baseURL()}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...user, privacy_policy_agreed: true }),
  });
  if (response.status !== 201)
    throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user_id: string };
  return { ...user, id: body.user_id };
}

/** Fills localStorage the way a form login does, to start a flow already logged in. */
export async function loginThroughApi(page: Page, email: string, password: string): Promise<string> {
  const token = await fetch(`${baseURL()}/api/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  if (!token.ok) throw new Error(`login failed: ${token.status}`);
  const tokens = (await token.json()) as Record<string, string>;
  const me = await fetch(`${baseURL()}/api/auth/me`, {
    headers: { Authorization: `Bearer ${tokens.access_token}` },
  });
  const { ability } = (await me.json()) as { ability: unknown };
  await page.goto('/login');
  await page.evaluate(
    ([stored, rules]) => {
      for (const key of ['access_token', 'refresh_token', 'user_id', 'role'] as const) {
        localStorage.setItem(key, stored[key] ?? '');
      }
      localStorage.setItem('ability', JSON.stringify(rules));
    },
    [tokens, ability] as const,
  );
  return tokens.user_id ?? '';
}

/**
 * The label around a switch (Mantine's switch body), clicked with Playwright's checks: visible, stable and
 * not covered. The switch's own input is visually hidden, and a forced click on it, at coordinates taken
 * before something moved the page (the admin's maintenance banner, say), could land beside it (seen under load).
 */
export const switchLabel = (sw: Locator): Locator => sw.page().locator('label').filter({ has: sw });
