import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, DESKTOP_CHROME, listen, tokenOf } from './api.ts';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

/**
 * Issue 9, "done means": a plain HTML page with the embed code shows the ad, a click lands on the
 * advertiser's URL with the UTM filled, and the money and the statistics on both sides change.
 * Screenshots go to SHOTS_DIR (default /tmp/shots9); SHOTS=0 skips them.
 */
const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots9';
const takeShots = process.env.SHOTS !== '0';

const stamp = Date.now().toString(36);
const creativeTitle = `Rain boots ${stamp}`;
const siteTitle = `Daily ${stamp}`;

let browser: Browser;
let publisherPages: Server;
let shop: Server;
/** The publisher's page, on another origin (localhost rather than 127.0.0.1) than the ad server. */
let publisherUrl = '';
let shopUrl = '';
/** What the publisher pasted: copied from the widget page of the dashboard. */
let snippet = '';
/** Requests the shop received (the advertiser's landing). */
const landed: URL[] = [];
let onLanding: ((url: URL) => void) | null = null;

let publisher: Awaited<ReturnType<typeof registerUser>>;
let advertiser: Awaited<ReturnType<typeof registerUser>>;
const ids = { site: '', widget: '', campaign: '', banner: '' };

const today = () => new Date().toISOString().slice(0, 10);

type StatsTotal = { impressions: number; viewable: number; clicks: number; spent: number; earned: number };
async function statsOf(entity: string, id: string, token: string): Promise<StatsTotal> {
  const day = today();
  const answer = await api<{ total: StatsTotal }>(
    `/stats/${entity}/${id}?from=${day}&to=${day}&group=day`,
    token,
  );
  return answer.total;
}

/** A visitor's browser: a normal desktop Chrome, no dashboard login. */
async function visitor(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  return browser.newContext({ viewport, userAgent: DESKTOP_CHROME, locale: 'en-US' });
}

/** The "Today" cell of a metric's row in a StatsPanel. */
function todayOf(panel: Locator, page: Page, metric: string): Locator {
  return panel
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: metric, exact: true }) })
    .getByRole('cell')
    .first();
}

async function open(
  who: { email: string; password: string },
  viewport?: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, viewport);
  await loginThroughApi(opened.page, who.email, who.password);
  return opened;
}

beforeAll(async () => {
  browser = await launchBrowser();
  publisherPages = createServer((req, res) => {
    if (req.url === '/style.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(
        'body { font-family: sans-serif; max-width: 760px; margin: 0 auto; padding: 16px } .long { height: 3000px }',
      );
      return;
    }
    // a long article: the widget far below the fold
    const spacer = req.url === '/long' ? '<div class="long">A long article.</div>' : '';
    // a strict page: no inline styles (the widget's own rules must still apply, as a constructed sheet)
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "style-src 'self'",
    });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Daily news</title>
<link rel="stylesheet" href="/style.css"></head>
<body>
<h1>Local news</h1><p>The river rose by a metre overnight; the council opened two shelters.</p>
${spacer}${snippet}
<p>More stories below the widget.</p></body></html>`);
  });
  publisherUrl = `http://localhost:${await listen(publisherPages)}/article`;
  shop = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', shopUrl);
    if (url.pathname === '/boots') {
      landed.push(url);
      onLanding?.(url);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Shop</title></head><body><h1>Rain boots</h1></body></html>');
  });
  shopUrl = `http://127.0.0.1:${await listen(shop)}`;

  const adminToken = await tokenOf(admin().email, admin().password);
  const moderate = (entity: string, id: string) =>
    api(`/${entity}/${id}/moderate`, adminToken, { method: 'POST', body: { decision: 'approve' } });

  // the publisher: an approved site and an approved widget (earns 50 % by default)
  publisher = await registerUser();
  const pubToken = await tokenOf(publisher.email, publisher.password);
  ids.site = (
    await api('/sites', pubToken, {
      method: 'POST',
      body: { site: { title: siteTitle, domain: `daily-${stamp}.example`, category: 'news' } },
    })
  )._id;
  await moderate('sites', ids.site);
  ids.widget = (
    await api('/widgets', pubToken, {
      method: 'POST',
      body: {
        widget: { title: `Below article ${stamp}`, site_id: ids.site, settings: { columns: 2, rows: 1 } },
      },
    })
  )._id;
  await moderate('widgets', ids.widget);

  // the advertiser: $100 paid in, $20 of it on an approved, active campaign of $0.50 a click
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
          title: `Autumn boots ${stamp}`,
          clickprice: 0.5,
          click_filter: 'dummy',
          utm: 'utm_source=adp&utm_campaign={campaign_id}&utm_content={banner_id}',
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
          text: 'Waterproof, half price this week',
          url: `${shopUrl}/boots`,
        },
      },
    })
  )._id;
  await moderate('campaigns', ids.campaign);
  await moderate('banners', ids.banner);
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

describe('delivery through the embed code', () => {
  test('the widget answers with the campaign once the ad index has it', async () => {
    // the ad index picks the campaign up a moment later: ask the widget until it answers with it
    await expect
      .poll(
        async () => {
          const response = await fetch(`${baseURL()}/serve/widgets/${ids.widget}`, {
            headers: { 'User-Agent': DESKTOP_CHROME, 'Accept-Language': 'en-US,en;q=0.9' },
          });
          if (!response.ok) return `HTTP ${response.status}`;
          const body = (await response.json()) as { items: { title: string; sponsored?: boolean }[] };
          return body.items.some((item) => item.sponsored && item.title === creativeTitle);
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe(true);
  });

  test('the widget page shows the embed code the publisher pastes', async () => {
    const { context, page } = await open(publisher);
    try {
      await page.goto(`/widgets/${ids.widget}`);
      snippet = (await page.getByTestId('embed-code').textContent()) ?? '';
      expect(snippet).toBe(
        `<div data-adp-widget="${ids.widget}"></div><script async src="${baseURL()}/widget.js"></script>`,
      );
    } finally {
      await context.close();
    }
  });

  test('a plain HTML page shows the labelled ad; a click lands on the shop with the UTM filled', async () => {
    expect(snippet).not.toBe('');
    const context = await visitor();
    try {
      const page = await context.newPage();
      const impression = page.waitForResponse((r) => r.url().includes('/serve/i/'));
      const viewable = page.waitForResponse((r) => r.url().includes('/serve/v/'));
      await page.goto(publisherUrl);
      const widget = page.locator(`[data-adp-widget="${ids.widget}"]`);
      await expect.poll(() => widget.getAttribute('data-adp-state'), { timeout: 15_000 }).toBe('done');
      // the open shadow root: Playwright's locators pierce it
      const ad = widget.locator('a.i').filter({ hasText: creativeTitle });
      await ad.waitFor();
      expect(await ad.locator('.ad').textContent()).toBe('Ad');
      expect(await ad.getAttribute('rel')).toBe('sponsored noopener');
      expect(await ad.getAttribute('href')).toMatch(new RegExp(`^${baseURL()}/click/`));
      // laid out by the widget's rules despite the page's Content-Security-Policy (a <style> was blocked)
      expect(
        await widget
          .locator('.g')
          .first()
          .evaluate((el) => getComputedStyle(el).display),
      ).toBe('grid');
      // a widget without a font of its own writes in the page's
      expect(await ad.locator('.t').evaluate((el) => getComputedStyle(el).fontFamily)).toBe('sans-serif');
      expect((await impression).status()).toBe(204);
      expect((await viewable).status()).toBe(204);

      const arrived = new Promise<URL>((resolve) => {
        onLanding = resolve;
      });
      // the widget opens ads in a new tab (open_in_new_tab is on by default)
      const tab = context.waitForEvent('page');
      await ad.click();
      const landing = await arrived;
      expect(landing.searchParams.get('utm_source')).toBe('adp');
      expect(landing.searchParams.get('utm_campaign')).toBe(ids.campaign);
      expect(landing.searchParams.get('utm_content')).toBe(ids.banner);
      const shopTab = await tab;
      await shopTab.getByRole('heading', { name: 'Rain boots' }).waitFor();
      expect(new URL(shopTab.url()).origin).toBe(shopUrl);
      expect(landed).toHaveLength(1);
    } finally {
      onLanding = null;
      await context.close();
    }
  });

  test("the advertiser's campaign page shows the charge and the click", async () => {
    expect(landed).toHaveLength(1);
    // impressions and views are written in batches: wait until the statistics have them
    const advToken = await tokenOf(advertiser.email, advertiser.password);
    await expect
      .poll(() => statsOf('campaigns', ids.campaign, advToken), { timeout: 15_000, interval: 300 })
      .toMatchObject({ impressions: 1, viewable: 1, clicks: 1, spent: 0.5 });

    const { context, page } = await open(advertiser);
    try {
      await page.goto(`/users/${advertiser.id}/campaigns/${ids.campaign}`);
      const balance = page.getByRole('region', { name: 'Balance', exact: true });
      await balance.getByText('$19.50', { exact: true }).waitFor();
      const stats = page.getByRole('region', { name: 'Statistics' });
      await expect.poll(() => todayOf(stats, page, 'Clicks').textContent()).toBe('1');
      expect(await todayOf(stats, page, 'Impressions').textContent()).toBe('1');
      expect(await todayOf(stats, page, 'Viewable impressions').textContent()).toBe('1');
      expect(await todayOf(stats, page, 'Invalid clicks').textContent()).toBe('0');
      expect(await todayOf(stats, page, 'Spend').textContent()).toBe('$0.50');
    } finally {
      await context.close();
    }
  });

  test("the publisher's balance and the widget's and site's statistics show the earning", async () => {
    expect(landed).toHaveLength(1);
    const pubToken = await tokenOf(publisher.email, publisher.password);
    await expect
      .poll(() => statsOf('widgets', ids.widget, pubToken), { timeout: 15_000, interval: 300 })
      .toMatchObject({ impressions: 1, clicks: 1, earned: 0.25 });

    const { context, page } = await open(publisher);
    try {
      await page.goto(`/users/${publisher.id}`);
      await expect.poll(() => page.getByTestId('account-balance').textContent()).toBe('$0.25');

      await page.goto(`/widgets/${ids.widget}`);
      const widgetStats = page.getByRole('region', { name: 'Statistics' });
      await expect.poll(() => todayOf(widgetStats, page, 'Clicks').textContent()).toBe('1');
      expect(await todayOf(widgetStats, page, 'Impressions').textContent()).toBe('1');
      expect(await todayOf(widgetStats, page, 'Earnings').textContent()).toBe('$0.25');

      await page.goto(`/sites/${ids.site}`);
      const siteStats = page.getByRole('region', { name: 'Statistics' });
      await expect.poll(() => todayOf(siteStats, page, 'Clicks').textContent()).toBe('1');
      expect(await todayOf(siteStats, page, 'Earnings').textContent()).toBe('$0.25');
    } finally {
      await context.close();
    }
  });

  test("the site's NoIndex and views-on-scroll switches: nofollow links, and the impression counts when scrolled to", async () => {
    const pubToken = await tokenOf(publisher.email, publisher.password);
    await api(`/sites/${ids.site}`, pubToken, {
      method: 'PUT',
      body: { site: { use_noindex: true, stats_on_scroll: true } },
    });
    // every instance's ad index hears of the change a moment later
    await expect
      .poll(
        async () => {
          const res = await fetch(`${baseURL()}/serve/widgets/${ids.widget}`, {
            headers: { 'user-agent': DESKTOP_CHROME },
          });
          return ((await res.json()) as { widget: { settings: { count_on_scroll?: boolean } } }).widget
            .settings.count_on_scroll;
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
    const context = await visitor();
    try {
      const page = await context.newPage();
      const beacons: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/serve/i/')) beacons.push(r.url());
      });
      await page.goto(new URL('/long', publisherUrl).toString());
      const widget = page.locator(`[data-adp-widget="${ids.widget}"]`);
      await expect.poll(() => widget.getAttribute('data-adp-state'), { timeout: 15_000 }).toBe('done');
      expect(await widget.getAttribute('data-nosnippet')).toBe('');
      const ad = widget.locator('a.i').filter({ hasText: creativeTitle });
      expect(await ad.getAttribute('rel')).toBe('sponsored nofollow noopener');
      // drawn 3000 px below the fold: not counted while the visitor reads the top of the page
      await page.waitForTimeout(1_000);
      expect(beacons).toEqual([]);
      const impression = page.waitForResponse((r) => r.url().includes('/serve/i/'));
      await widget.scrollIntoViewIfNeeded();
      expect((await impression).status()).toBe(204);
      expect(beacons).toHaveLength(1);
    } finally {
      await context.close();
      await api(`/sites/${ids.site}`, pubToken, {
        method: 'PUT',
        body: { site: { use_noindex: false, stats_on_scroll: false } },
      });
    }
  });

  test.runIf(takeShots)(
    'screenshots: the publisher page with the ad, the campaign and widget pages (light, dark, German, 390 px)',
    async () => {
      mkdirSync(shotsDir, { recursive: true });
      for (const width of [1280, 390]) {
        const context = await visitor({ width, height: 800 });
        try {
          const page = await context.newPage();
          await page.goto(publisherUrl);
          const widget = page.locator(`[data-adp-widget="${ids.widget}"]`);
          await widget.locator('a.i').filter({ hasText: creativeTitle }).waitFor({ timeout: 15_000 });
          await page.screenshot({ path: `${shotsDir}/publisher-page-${width}.png`, fullPage: true });
        } finally {
          await context.close();
        }
      }
      const variants = [
        { skin: 'light', locale: 'en', width: 1280 },
        { skin: 'dark', locale: 'en', width: 1280 },
        { skin: 'light', locale: 'de', width: 1280 },
        { skin: 'light', locale: 'en', width: 390 },
        { skin: 'dark', locale: 'de', width: 390 },
      ] as const;
      for (const v of variants) {
        for (const [who, path, name] of [
          [advertiser, `/users/${advertiser.id}/campaigns/${ids.campaign}`, 'campaign'],
          [publisher, `/widgets/${ids.widget}`, 'widget'],
          [publisher, `/users/${publisher.id}`, 'publisher-account'],
        ] as const) {
          const { context, page } = await open(who, { width: v.width, height: 900 });
          try {
            await page.evaluate(({ skin, locale }) => {
              localStorage.setItem('skin', skin);
              localStorage.setItem('locale', locale);
            }, v);
            await page.goto(path);
            await page.getByRole('heading', { level: 1 }).first().waitFor();
            await page.waitForLoadState('networkidle');
            await page.screenshot({
              path: `${shotsDir}/${name}-${v.skin}-${v.locale}-${v.width}.png`,
              fullPage: true,
            });
          } finally {
            await context.close();
          }
        }
      }
    },
    180_000,
  );
});
