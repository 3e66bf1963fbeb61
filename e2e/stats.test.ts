import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { api, DESKTOP_CHROME, listen, tokenOf } from './api.ts';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

/**
 * Issue 10, "done means": after real traffic (a plain HTML page with the embed code, and the delivery
 * URLs), an advertiser opens its campaign's statistics, changes the range and the breakdown and sees the
 * chart and the table change (kept in the URL: a reload shows the same) and exports the table as CSV; the
 * admin exports the campaign's report as CSV from /reports; a publisher sees its earnings by widget; an
 * admin blocks a widget for the campaign and the widget stops receiving it.
 * Screenshots go to SHOTS_DIR (default /tmp/shots10); SHOTS=0 skips them.
 */
const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots10';
const takeShots = process.env.SHOTS !== '0';

const visitorHeaders = { 'User-Agent': DESKTOP_CHROME, 'Accept-Language': 'en-US,en;q=0.9' };

const stamp = Date.now().toString(36);
const creativeTitle = `Umbrellas ${stamp}`;
const widgetTitles = { a: `Top of article ${stamp}`, b: `Sidebar ${stamp}` };

let browser: Browser;
let publisherPages: Server;
let shop: Server;
let publisherUrl = '';
let shopUrl = '';
/** Landings at the shop (the advertiser's URL), with their UTM. */
const landed: URL[] = [];

let publisher: Awaited<ReturnType<typeof registerUser>>;
let advertiser: Awaited<ReturnType<typeof registerUser>>;
const ids = { site: '', widgetA: '', widgetB: '', campaign: '', banner: '' };

type ServeAnswer = {
  items: { title: string; url: string; sponsored?: boolean }[];
  impression_url: string | null;
  viewable_url: string | null;
};

/** What the widget answers a visitor now. */
async function serve(widgetId: string): Promise<ServeAnswer> {
  const response = await fetch(`${baseURL()}/serve/widgets/${widgetId}`, { headers: visitorHeaders });
  if (!response.ok) throw new Error(`serve ${widgetId}: ${response.status}`);
  return (await response.json()) as ServeAnswer;
}

const showsCampaign = (answer: ServeAnswer) =>
  answer.items.some((item) => item.sponsored && item.title === creativeTitle);

/** One visit through the delivery URLs: serve, the impression and view beacons, and maybe a click. */
async function visit(widgetId: string, click: boolean): Promise<void> {
  const answer = await serve(widgetId);
  const ad = answer.items.find((item) => item.sponsored && item.title === creativeTitle);
  if (!ad || !answer.impression_url || !answer.viewable_url) throw new Error('the ad was not served');
  for (const beacon of [answer.impression_url, answer.viewable_url]) {
    expect((await fetch(beacon, { headers: visitorHeaders })).status).toBe(204);
  }
  if (!click) return;
  const response = await fetch(ad.url, { headers: visitorHeaders, redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(`${shopUrl}/umbrellas`);
  expect(location.searchParams.get('utm_campaign')).toBe(ids.campaign);
}

/** A table row, named by its row header (a key or "Total"), as its cells by column header. */
async function rowOf(scope: Locator, name: string | RegExp): Promise<Record<string, string>> {
  const row = scope.getByRole('row').filter({ has: scope.page().getByRole('rowheader', { name }) });
  await row.first().waitFor();
  const headers = await scope.getByRole('table').first().locator('thead th').allTextContents();
  // body rows hold td cells, the totals row th cells
  const cells = await row.first().locator('td, th').allTextContents();
  return Object.fromEntries(headers.map((header, i) => [header.trim(), cells[i] ?? '']));
}

async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function open(
  who: { email: string; password: string },
  viewport?: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, viewport);
  await loginThroughApi(opened.page, who.email, who.password);
  return opened;
}

async function shot(page: Page, name: string): Promise<void> {
  if (!takeShots) return;
  mkdirSync(shotsDir, { recursive: true });
  // from the top: a full-page shot of a scrolled page draws the fixed header mid-page
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shotsDir}/${name}.png`, fullPage: true });
}

beforeAll(async () => {
  browser = await launchBrowser();
  publisherPages = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Weather</title></head>
<body><h1>Rain all week</h1><p>Bring an umbrella.</p>
<div data-adp-widget="${ids.widgetA}"></div><script async src="${baseURL()}/widget.js"></script>
</body></html>`);
  });
  publisherUrl = `http://localhost:${await listen(publisherPages)}/weather`;
  shop = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', shopUrl);
    if (url.pathname === '/umbrellas') landed.push(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Shop</title></head><body><h1>Umbrellas</h1></body></html>');
  });
  shopUrl = `http://127.0.0.1:${await listen(shop)}`;

  const adminToken = await tokenOf(admin().email, admin().password);
  const approve = (entity: string, id: string) =>
    api(`/${entity}/${id}/moderate`, adminToken, { method: 'POST', body: { decision: 'approve' } });

  // the publisher: an approved site with two approved widgets (each earns 50 % by default)
  publisher = await registerUser();
  const pubToken = await tokenOf(publisher.email, publisher.password);
  ids.site = (
    await api('/sites', pubToken, {
      method: 'POST',
      body: { site: { title: `Weather ${stamp}`, domain: `weather-${stamp}.example`, category: 'news' } },
    })
  )._id;
  await approve('sites', ids.site);
  for (const key of ['a', 'b'] as const) {
    const id = (
      await api('/widgets', pubToken, {
        method: 'POST',
        body: { widget: { title: widgetTitles[key], site_id: ids.site, settings: { columns: 2, rows: 1 } } },
      })
    )._id;
    await approve('widgets', id);
    ids[key === 'a' ? 'widgetA' : 'widgetB'] = id;
  }

  // the advertiser: an approved, active campaign of $0.50 a click with $20 on it
  advertiser = await registerUser();
  const advToken = await tokenOf(advertiser.email, advertiser.password);
  await api(`/users/${advertiser.id}/payments`, adminToken, {
    method: 'POST',
    body: { payment: { sum: 100, type: 'admin_payment', source: 'e2e' } },
  });
  ids.campaign = (
    await api('/campaigns', advToken, {
      method: 'POST',
      body: {
        campaign: {
          title: `Rainy days ${stamp}`,
          clickprice: 0.5,
          click_filter: 'dummy',
          utm: 'utm_source=adp&utm_campaign={campaign_id}',
        },
      },
    })
  )._id;
  await api(`/campaigns/${ids.campaign}/payments`, advToken, {
    method: 'POST',
    body: { payment: { sum: 20 } },
  });
  ids.banner = (
    await api('/banners', advToken, {
      method: 'POST',
      body: {
        banner: {
          campaign_id: ids.campaign,
          title: creativeTitle,
          text: 'Wind-proof, two for one',
          url: `${shopUrl}/umbrellas`,
        },
      },
    })
  )._id;
  await approve('campaigns', ids.campaign);
  await approve('banners', ids.banner);
  await api(`/campaigns/${ids.campaign}`, advToken, {
    method: 'PUT',
    body: { campaign: { status: 'active' } },
  });
});

afterAll(async () => {
  // the files share one server: this campaign must not show up in the next file's widgets
  if (ids.campaign && advertiser) {
    const token = await tokenOf(advertiser.email, advertiser.password);
    await api(`/campaigns/${ids.campaign}`, token, {
      method: 'PUT',
      body: { campaign: { status: 'inactive' } },
    });
  }
  await browser?.close();
  await new Promise((resolve) => publisherPages?.close(resolve));
  await new Promise((resolve) => shop?.close(resolve));
});

describe('statistics after real traffic', () => {
  test('traffic: a visitor of the HTML page clicks the ad; more views and clicks through the delivery URLs', async () => {
    // the ad index picks the campaign up a moment later
    for (const widget of [ids.widgetA, ids.widgetB]) {
      await expect
        .poll(async () => showsCampaign(await serve(widget)), { timeout: 15_000, interval: 250 })
        .toBe(true);
    }
    const context = await browser.newContext({ userAgent: DESKTOP_CHROME, locale: 'en-US' });
    try {
      const page = await context.newPage();
      const viewable = page.waitForResponse((r) => r.url().includes('/serve/v/'));
      await page.goto(publisherUrl);
      const ad = page.locator(`[data-adp-widget="${ids.widgetA}"] a.i`).filter({ hasText: creativeTitle });
      await ad.waitFor({ timeout: 15_000 });
      expect((await viewable).status()).toBe(204);
      const tab = context.waitForEvent('page');
      await ad.click();
      await (await tab).getByRole('heading', { name: 'Umbrellas' }).waitFor();
      expect(landed).toHaveLength(1);
    } finally {
      await context.close();
    }
    // widget A: 3 impressions and 2 clicks in all; widget B: 2 impressions and 1 click
    await visit(ids.widgetA, true);
    await visit(ids.widgetA, false);
    await visit(ids.widgetB, true);
    await visit(ids.widgetB, false);
    // impressions are written in batches: wait until the statistics have them all
    const advToken = await tokenOf(advertiser.email, advertiser.password);
    const day = new Date().toISOString().slice(0, 10);
    await expect
      .poll(
        async () =>
          (
            await api<{ total: object; available_at?: string }>(
              `/stats/campaigns/${ids.campaign}?from=${day}&to=${day}&group=day&tz=UTC`,
              advToken,
            )
          ).total,
        { timeout: 15_000, interval: 300 },
      )
      .toMatchObject({ impressions: 5, viewable: 5, clicks: 3, spent: 1.5 });
  });

  test("the advertiser's campaign statistics: range and breakdown change the chart and the table, stay in the URL, and export as CSV", async () => {
    const { context, page } = await open(advertiser);
    try {
      await page.goto(`/users/${advertiser.id}/campaigns/${ids.campaign}/stats`);
      const chart = page.getByRole('region', { name: 'Over time', exact: true });
      const table = page.getByRole('region', { name: /^By /i });
      // the default: the last 7 days by date, the chart over days
      await chart.locator('svg.recharts-surface').first().waitFor();
      expect(await rowOf(table, 'Total')).toMatchObject({
        Impressions: '5',
        Viewable: '5',
        Clicks: '3',
        Spent: '$1.50',
      });

      // yesterday had no traffic: both the chart and the table say so
      await choose(page, 'Period', 'Yesterday');
      await expect.poll(() => new URL(page.url()).searchParams.get('period')).toBe('yesterday');
      await chart.getByText('No stats for the chosen period').waitFor();
      await table.getByText('No stats for the chosen period').waitFor();
      expect(await chart.locator('svg.recharts-surface').count()).toBe(0);

      // today: the chart comes back (by hour), broken down by creative
      await choose(page, 'Period', 'Today');
      await chart.locator('svg.recharts-surface').first().waitFor();
      await choose(page, 'Breakdown', 'Creative');
      const byCreative = page.getByRole('region', { name: /^By creative$/i });
      expect(await rowOf(byCreative, creativeTitle)).toMatchObject({
        Impressions: '5',
        Viewable: '5',
        Clicks: '3',
        Spent: '$1.50',
      });
      const query = new URL(page.url()).searchParams;
      expect([query.get('period'), query.get('group')]).toEqual(['today', 'creative']);
      await shot(page, 'campaign-stats-today-by-creative');

      // a reload shows the same view
      await page.reload();
      expect(await page.getByLabel('Period', { exact: true }).first().inputValue()).toBe('Today');
      expect(await page.getByLabel('Breakdown', { exact: true }).first().inputValue()).toBe('Creative');
      expect((await rowOf(byCreative, creativeTitle)).Clicks).toBe('3');
      await chart.locator('svg.recharts-surface').first().waitFor();

      // the table on screen as a CSV file: today by creative, the same numbers and a total row
      const download = page.waitForEvent('download');
      await byCreative.getByRole('button', { name: 'Export CSV' }).click();
      const saved = await download;
      expect(saved.suggestedFilename()).toMatch(
        new RegExp(`^stats-campaign-${ids.campaign}-creative-.*\\.csv$`),
      );
      const [header, ...lines] = readFileSync(await saved.path(), 'utf8')
        .trim()
        .split(/\r?\n/)
        .map((line) => line.split(','));
      const at = (name: string) => header?.indexOf(name) ?? -1;
      const values = (row: string[] | undefined) =>
        ['impressions', 'viewable', 'clicks', 'spent'].map((name) => Number(row?.[at(name)]));
      expect(header?.[0]).toBe('creative');
      expect(values(lines.find((row) => row[0] === ids.banner))).toEqual([5, 5, 3, 1.5]);
      expect(values(lines.find((row) => row[0] === 'total'))).toEqual([5, 5, 3, 1.5]);
    } finally {
      await context.close();
    }
  });

  test("the admin exports the campaign's report as CSV from /reports", async () => {
    const { context, page } = await open(admin());
    try {
      await page.goto(`/reports?type=campaigns&campaign_id=${ids.campaign}`);
      await page
        .getByRole('cell', { name: `Rainy days ${stamp}` })
        .first()
        .waitFor();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const file = await (await download).path();
      const [header, ...rows] = readFileSync(file, 'utf8')
        .trim()
        .split(/\r?\n/)
        .map((line) => line.split(','));
      const at = (name: string) => header?.indexOf(name) ?? -1;
      const ours = rows.filter((row) => row[at('campaign_id')] === ids.campaign);
      expect(ours.length).toBeGreaterThan(0);
      const sum = (name: string) => ours.reduce((total, row) => total + Number(row[at(name)]), 0);
      expect([sum('impressions'), sum('clicks'), sum('spent')]).toEqual([5, 3, 1.5]);
      await shot(page, 'admin-reports-campaign');
    } finally {
      await context.close();
    }
  });

  test("the publisher's site statistics show the earnings by widget", async () => {
    const { context, page } = await open(publisher);
    try {
      await page.goto(`/sites/v2/${ids.site}`);
      const byWidget = page.getByRole('region', { name: /^By widget$/i });
      expect(await rowOf(byWidget, widgetTitles.a)).toMatchObject({
        Impressions: '3',
        Clicks: '2',
        Earned: '$0.50',
      });
      expect(await rowOf(byWidget, widgetTitles.b)).toMatchObject({
        Impressions: '2',
        Clicks: '1',
        Earned: '$0.25',
      });
      expect(await rowOf(byWidget, 'Total')).toMatchObject({
        Impressions: '5',
        Clicks: '3',
        Earned: '$0.75',
      });
      await shot(page, 'site-v2-by-widget');
    } finally {
      await context.close();
    }
  });

  test('an admin blocks widget B on the campaign page; widget B stops receiving the campaign at once', async () => {
    expect(showsCampaign(await serve(ids.widgetB))).toBe(true);
    const { context, page } = await open(admin());
    try {
      await page.goto(`/users/${advertiser.id}/campaigns/${ids.campaign}`);
      const panel = page.getByRole('region', { name: 'Blocked sources' });
      const dialog = page.getByRole('dialog', { name: 'Block a traffic source' });
      // the page may still be settling (its lazy panels loading) when the button is first pressed: press it
      // again, as a person would, until the dialog's form shows (once in many runs it did not open)
      await vi.waitFor(
        async () => {
          if (!(await dialog.isVisible()))
            await panel.getByRole('button', { name: 'Block a source' }).click();
          await dialog.getByLabel('Source type').waitFor({ timeout: 2_000 });
        },
        { timeout: 15_000, interval: 200 },
      );
      await dialog.getByLabel('Source type').click();
      await page.getByRole('option', { name: 'Widget', exact: true }).click();
      await dialog.getByLabel('Site or widget ID').fill(ids.widgetB);
      await dialog.getByLabel('Reason').fill('Accidental clicks');
      await dialog.getByRole('button', { name: 'Block', exact: true }).click();
      await panel.getByText(widgetTitles.b).waitFor();
      const blockedAt = Date.now();
      await expect
        .poll(async () => showsCampaign(await serve(ids.widgetB)), { timeout: 3_000, interval: 100 })
        .toBe(false);
      expect(Date.now() - blockedAt).toBeLessThan(2_500);
      // the other widget of the same site still receives it
      expect(showsCampaign(await serve(ids.widgetA))).toBe(true);
      await shot(page, 'campaign-blocked-sources');
    } finally {
      await context.close();
    }
  });
});
