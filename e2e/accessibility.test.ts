import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, launchBrowser, loginThroughApi, newPage } from './browser.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Runs axe-core in the page (evaluated through DevTools, so the page's CSP does not block it). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  // the page's own content, not a loader
  await page.waitForFunction(() => !document.querySelector('[role="status"] .mantine-Loader-root'));
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const run = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe.run;
    const result = await run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
          .slice(0, 5)
          .map((node) => `  ${node.html.slice(0, 160)}: ${node.failureSummary ?? ''}`)
          .join('\n')}`,
    );
}

const guestScreens = ['/login', '/register', '/forgot-password'];
const adminScreens = (userId: string) => [
  `/users/${userId}`,
  '/users',
  '/sites',
  '/sites/create',
  '/campaigns',
  `/users/${userId}/campaigns/create`,
  '/partners',
  '/dsppartners',
  '/rtbpartners',
  '/withdrawals',
  '/moderation',
];

describe.each(['light', 'dark'] as const)(
  'axe-core finds no serious or critical violation (%s skin)',
  (skin) => {
    test('login, register and password pages', async () => {
      const { context, page } = await newPage(browser);
      try {
        await page.goto('/login');
        await page.evaluate((value) => localStorage.setItem('skin', value), skin);
        for (const path of guestScreens) {
          await page.goto(path);
          await page.getByRole('heading', { level: 1 }).waitFor();
          expect(await seriousViolations(page), path).toEqual([]);
        }
      } finally {
        await context.close();
      }
    });

    test('the admin screens: own page, users, sites, campaigns, their forms, partners, withdrawals, moderation', async () => {
      const { context, page } = await newPage(browser);
      try {
        const userId = await loginThroughApi(page, admin().email, admin().password);
        await page.evaluate((value) => localStorage.setItem('skin', value), skin);
        for (const path of adminScreens(userId)) {
          await page.goto(path);
          await page.locator('main').getByRole('heading').first().waitFor();
          expect(await seriousViolations(page), path).toEqual([]);
        }
      } finally {
        await context.close();
      }
    });

    // the System page's tables (scheduled jobs, event batches) are wider than a phone at any data
    test('a phone: the tables wider than the screen scroll from the keyboard (the System page)', async () => {
      const { context, page } = await newPage(browser, { width: 390, height: 844 });
      try {
        await loginThroughApi(page, admin().email, admin().password);
        await page.evaluate((value) => localStorage.setItem('skin', value), skin);
        await page.goto('/system');
        await page.getByRole('region', { name: 'Scheduled jobs' }).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
