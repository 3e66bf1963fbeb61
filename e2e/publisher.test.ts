import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listen } from './api.ts';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

const feedXml = readFileSync(
  new URL('../apps/server/src/modules/sites/fixtures/rss2-utf8.xml', import.meta.url),
);
const firstStory = 'City council approves new bike lanes downtown';

let browser: Browser;
let feeds: Server;
let hostPages: Server;
let feedUrl: string;
let hostUrl: string;
/** What the host page embeds: set by the copy-embed flow. */
let hostSnippet = '';

let publisher: Awaited<ReturnType<typeof registerUser>>;
const stamp = Date.now().toString(36);
const siteTitle = `Planet ${stamp}`;
let siteId = '';
const widgetIds: Record<string, string> = {};

async function asPublisher(viewport?: { width: number; height: number }) {
  const opened = await newPage(browser, viewport);
  await loginThroughApi(opened.page, publisher.email, publisher.password);
  return opened;
}

async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const previewHtml = (page: Page) =>
  page.evaluate(
    () => document.querySelector('[data-testid="widget-preview-host"]')?.shadowRoot?.innerHTML ?? '',
  );

async function previewChanges(page: Page, before: string) {
  await expect
    .poll(
      async () => {
        const now = await previewHtml(page);
        return now !== '' && now !== before;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return previewHtml(page);
}

beforeAll(async () => {
  browser = await launchBrowser();
  feeds = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
    res.end(feedXml);
  });
  feedUrl = `http://127.0.0.1:${await listen(feeds)}/feed.xml`;
  hostPages = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Publisher page</title></head><body>
<h1>Publisher article</h1><p>Some text of the article.</p>${hostSnippet}</body></html>`);
  });
  hostUrl = `http://127.0.0.1:${await listen(hostPages)}`;
  publisher = await registerUser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => feeds?.close(resolve));
  await new Promise((resolve) => hostPages?.close(resolve));
});

describe('publisher inventory', () => {
  test('a publisher creates a site, sets its feed, runs the RSS test and parses materials', async () => {
    const { context, page } = await asPublisher();
    try {
      await page.goto('/sites/create');
      await page.getByLabel(/^Title\s*\*?$/).fill(siteTitle);
      await page.getByLabel(/^Domain/).fill(`https://www.Planet-${stamp}.example/news`);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/sites\/\d+$/);
      siteId = new URL(page.url()).pathname.split('/').pop() ?? '';
      await page.getByRole('heading', { name: siteTitle }).waitFor();
      await page.getByText(`planet-${stamp}.example`).first().waitFor();
      await page.getByText('Awaiting moderation').first().waitFor();

      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByLabel('RSS feed URL').fill(feedUrl);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(new RegExp(`/sites/${siteId}$`));

      await page.goto(`/sites/${siteId}/edit`);
      await page.getByRole('button', { name: 'RSS test' }).click();
      const preview = page.getByTestId('parser-preview');
      await preview.getByText(firstStory).waitFor();
      await preview.getByText('No title or image (OG tags) found', { exact: false }).waitFor();
      await page.getByLabel('Category mask').fill('^Business$');
      await page.getByRole('button', { name: 'Parser test' }).click();
      await preview
        .getByText('The category does not match the category mask', { exact: false })
        .first()
        .waitFor();

      await page.goto(`/sites/${siteId}`);
      await page.getByRole('button', { name: 'Parse now' }).click();
      const materials = page.getByRole('region', { name: 'Materials' });
      await materials.getByRole('link', { name: firstStory }).waitFor();
      expect(await materials.getByRole('row').count()).toBeGreaterThan(2);
    } finally {
      await context.close();
    }
  });

  test('a widget of each type is created while the live preview follows the settings', async () => {
    expect(siteId).not.toBe('');
    const { context, page } = await asPublisher();
    try {
      const types = [
        ['default', 'Grid'],
        ['infinite', 'Infinite scroll'],
        ['slide', 'Slider'],
        ['position_fixed', 'Fixed position'],
        ['builder', 'Builder'],
      ] as const;
      for (const [type, label] of types) {
        await page.goto(`/sites/${siteId}/widgets/create`);
        await page.getByLabel(/^Title\s*\*?$/).fill(`${label} ${stamp}`);
        const host = page.getByTestId('widget-preview-host');
        await expect.poll(() => host.getAttribute('data-rendered-type'), { timeout: 10_000 }).toBe('default');
        let before = await previewHtml(page);
        if (type === 'default') {
          await page.getByLabel('Columns', { exact: true }).fill('2');
          before = await previewChanges(page, before);
        } else {
          await choose(page, 'Type', label);
          await expect.poll(() => host.getAttribute('data-rendered-type'), { timeout: 10_000 }).toBe(type);
          before = await previewChanges(page, before);
        }
        if (type === 'builder') {
          await page.getByRole('button', { name: 'Add block' }).click();
          before = await previewChanges(page, before);
          await choose(page, 'Block 1 format', '8: Mosaic');
          await previewChanges(page, before);
        }
        if (type === 'position_fixed') {
          await choose(page, 'Position', 'Top left');
          await previewChanges(page, before);
        }
        // the frame preview renders the same unsaved settings through preview v2
        await page.getByText('In a frame', { exact: true }).click();
        const frame = page.frameLocator('[data-testid="widget-preview-frame"]');
        await frame.locator('body').waitFor();
        await page.getByText('Live', { exact: true }).click();
        await page.getByRole('button', { name: 'Create', exact: true }).click();
        await page.waitForURL(/\/widgets\/\d+$/);
        widgetIds[type] = new URL(page.url()).pathname.split('/').pop() ?? '';
        await page.getByRole('heading', { name: `${label} ${stamp}` }).waitFor();
      }
      expect(Object.keys(widgetIds)).toHaveLength(5);
    } finally {
      await context.close();
    }
  });

  test('an admin approves the site and the widget in the moderation queue', async () => {
    expect(widgetIds.default).toBeTruthy();
    const { context, page } = await newPage(browser);
    try {
      await loginThroughApi(page, admin().email, admin().password);
      await page.goto('/moderation');
      await page.getByRole('button', { name: `Approve ${siteTitle}` }).click();
      await page.getByText(`${siteTitle} is approved`).waitFor();
      await page.getByRole('tab', { name: /Widgets/ }).click();
      const widgetTitle = `Grid ${stamp}`;
      await page.getByRole('button', { name: `Reject Slider ${stamp}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Reason').fill('Too many slides for this layout');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await page.getByText(`Slider ${stamp} is rejected`).waitFor();
      await page.getByRole('button', { name: `Approve ${widgetTitle}` }).click();
      await page.getByText(`${widgetTitle} is approved`).waitFor();
    } finally {
      await context.close();
    }
    // the owner sees the rejection reason
    const owner = await asPublisher();
    try {
      await owner.page.goto(`/widgets/${widgetIds.slide}`);
      await owner.page.getByText('Reason: Too many slides for this layout').waitFor();
    } finally {
      await owner.context.close();
    }
  });

  test('the copied embed code renders the widget on a plain HTML page', async () => {
    expect(widgetIds.default).toBeTruthy();
    const { context, page } = await asPublisher();
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
      await page.goto(`/widgets/${widgetIds.default}`);
      await page.getByRole('button', { name: 'Copy code' }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      hostSnippet = await page.evaluate(() => navigator.clipboard.readText());
      expect(hostSnippet).toBe(
        `<div data-adp-widget="${widgetIds.default}"></div><script async src="${baseURL()}/widget.js"></script>`,
      );

      const host = await context.newPage();
      await host.goto(hostUrl);
      const container = host.locator(`[data-adp-widget="${widgetIds.default}"]`);
      await expect.poll(() => container.getAttribute('data-adp-state'), { timeout: 15_000 }).toBe('done');
      // open shadow root: Playwright's locators pierce it
      await expect.poll(() => container.locator('a[href]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await expect.poll(() => container.getByText(firstStory).count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});
