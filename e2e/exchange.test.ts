import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, DESKTOP_CHROME, listen, tokenOf } from './api.ts';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

/**
 * Issue 11, "done means": an admin creates a DSP partner (pointing to a local DSP started here), a Prebid
 * partner and an agency group through the UI, traffic goes through the delivery URLs and the Prebid bidder
 * endpoint, and the admin sees each one's statistics. Screenshots go to SHOTS_DIR (default /tmp/shots11);
 * SHOTS=0 skips them.
 */
const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots11';
const takeShots = process.env.SHOTS !== '0';

const visitorHeaders = { 'User-Agent': DESKTOP_CHROME, 'Accept-Language': 'en-US,en;q=0.9' };

const stamp = Date.now().toString(36);
const domain = `exchange-${stamp}.example`;
const creativeTitle = `Kettles ${stamp}`;
const names = { dsp: `E2E DSP ${stamp}`, prebid: `E2E Prebid ${stamp}`, group: `E2E Group ${stamp}` };

let browser: Browser;
/** The local DSP: bids on every second request, answers no bid (204) to the others. */
let dsp: Server;
let dspUrl = '';
const dspSeen = { requests: 0, bids: 0, wins: 0 };
let adminToken = '';
let publisher: Awaited<ReturnType<typeof registerUser>>;
let advertiser: Awaited<ReturnType<typeof registerUser>>;
const ids = { site: '', widget: '', campaign: '' };

type ServeAnswer = {
  items: { title: string; url: string; sponsored?: boolean }[];
  impression_url: string | null;
  viewable_url: string | null;
};

async function serve(): Promise<ServeAnswer> {
  const response = await fetch(`${baseURL()}/serve/widgets/${ids.widget}?url=https://${domain}/a`, {
    headers: visitorHeaders,
  });
  if (!response.ok) throw new Error(`serve: ${response.status}`);
  return (await response.json()) as ServeAnswer;
}

/** A native bid with markup the platform can draw. */
function bidOf(request: { id: string; imp: { id: string }[] }) {
  const adm = {
    native: {
      ver: '1.2',
      assets: [
        { id: 1, title: { text: `Local DSP ad ${stamp}` } },
        { id: 2, img: { url: `${dspUrl}/i.png`, w: 300, h: 250 } },
      ],
      link: { url: 'https://dsp-landing.example/' },
    },
  };
  return {
    id: request.id,
    cur: 'USD',
    seatbid: [
      {
        seat: 'e2e',
        bid: [
          {
            id: `${request.id}-1`,
            impid: request.imp[0]?.id ?? '1',
            price: 40,
            adm: JSON.stringify(adm),
            nurl: `${dspUrl}/win?p=\${AUCTION_PRICE}`,
          },
        ],
      },
    ],
  };
}

/** The sum of one column of the page's first table (numbers as the UI formats them). */
async function columnSum(page: Page, header: string): Promise<number> {
  const table = page.getByRole('table').first();
  await table.locator('tbody tr').first().waitFor();
  const headers = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  const at = headers.indexOf(header);
  if (at < 0) throw new Error(`no column ${header} in ${headers.join(' | ')}`);
  let sum = 0;
  for (const row of await table.locator('tbody tr').all()) {
    const cell = (await row.locator('td, th').nth(at).textContent()) ?? '';
    sum += Number(cell.replace(/[^\d]/g, '')) || 0;
  }
  return sum;
}

async function shot(page: Page, name: string): Promise<void> {
  if (!takeShots) return;
  mkdirSync(shotsDir, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shotsDir}/${name}.png`, fullPage: true });
}

beforeAll(async () => {
  browser = await launchBrowser();
  dsp = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://dsp.local');
    if (url.pathname === '/win') {
      dspSeen.wins += 1;
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      dspSeen.requests += 1;
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (dspSeen.requests % 2 === 0) {
        res.writeHead(204).end();
        return;
      }
      dspSeen.bids += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(bidOf(request)));
    });
  });
  dspUrl = `http://127.0.0.1:${await listen(dsp)}`;

  adminToken = await tokenOf(admin().email, admin().password);
  const approve = (entity: string, id: string) =>
    api(`/${entity}/${id}/moderate`, adminToken, { method: 'POST', body: { decision: 'approve' } });

  // the agency account that will own the group: an approved site with one approved widget
  publisher = await registerUser();
  await api(`/users/${publisher.id}/changeroles`, adminToken, { method: 'POST', body: { role: 'agency' } });
  const pubToken = await tokenOf(publisher.email, publisher.password);
  ids.site = (
    await api('/sites', pubToken, {
      method: 'POST',
      body: { site: { title: `Kitchen ${stamp}`, domain, category: 'food_drink' } },
    })
  )._id;
  await approve('sites', ids.site);
  ids.widget = (
    await api('/widgets', pubToken, {
      method: 'POST',
      body: {
        widget: { title: `Kitchen widget ${stamp}`, site_id: ids.site, settings: { columns: 2, rows: 1 } },
      },
    })
  )._id;
  await approve('widgets', ids.widget);

  // an advertiser's campaign the widget serves (the DSPs are asked to outbid it)
  advertiser = await registerUser();
  const advToken = await tokenOf(advertiser.email, advertiser.password);
  await api(`/users/${advertiser.id}/payments`, adminToken, {
    method: 'POST',
    body: { payment: { sum: 100, type: 'admin_payment', source: 'e2e' } },
  });
  ids.campaign = (
    await api('/campaigns', advToken, {
      method: 'POST',
      body: { campaign: { title: `Kettles ${stamp}`, clickprice: 0.3, click_filter: 'dummy' } },
    })
  )._id;
  await api(`/campaigns/${ids.campaign}/payments`, advToken, {
    method: 'POST',
    body: { payment: { sum: 20 } },
  });
  const banner = await api('/banners', advToken, {
    method: 'POST',
    body: {
      banner: {
        campaign_id: ids.campaign,
        title: creativeTitle,
        text: 'Boils in a minute',
        url: 'https://kettles.example/',
      },
    },
  });
  await approve('campaigns', ids.campaign);
  await approve('banners', banner._id);
  await api(`/campaigns/${ids.campaign}`, advToken, {
    method: 'PUT',
    body: { campaign: { status: 'active' } },
  });
});

afterAll(async () => {
  // the files share one server: neither the campaign nor the DSP partner may reach other files' widgets
  if (ids.campaign && advertiser) {
    const token = await tokenOf(advertiser.email, advertiser.password);
    await api(`/campaigns/${ids.campaign}`, token, {
      method: 'PUT',
      body: { campaign: { status: 'inactive' } },
    });
  }
  const dsps = await api<{ items: { _id: string; name: string }[] }>(
    `/dsppartners?q=${encodeURIComponent(names.dsp)}`,
    adminToken,
  ).catch(() => ({ items: [] }));
  for (const p of dsps.items)
    await api(`/dsppartners/${p._id}`, adminToken, {
      method: 'PUT',
      body: { dsppartner: { status: 'inactive' } },
    });
  await browser?.close();
  await new Promise((resolve) => dsp?.close(resolve));
});

describe('exchange partners', () => {
  test('an admin creates a DSP partner, a Prebid partner and an agency group and sees their stats after traffic', async () => {
    // the ad index picks the campaign up a moment later
    await expect
      .poll(async () => (await serve()).items.some((i) => i.sponsored && i.title === creativeTitle), {
        timeout: 20_000,
        interval: 250,
      })
      .toBe(true);

    const { context, page } = await newPage(browser);
    try {
      await loginThroughApi(page, admin().email, admin().password);

      // a DSP partner offered only this site, pointing to the local DSP
      await page.goto('/dsppartners');
      await page.getByRole('link', { name: 'Add DSP partner' }).click();
      await page.getByLabel(/^Name/).fill(names.dsp);
      await page.getByLabel('Endpoint URL').fill(`${dspUrl}/openrtb2/bid`);
      await page.getByLabel('Max request time (ms)').fill('500');
      const whitelist = page.getByRole('combobox', { name: 'Whitelist' });
      await whitelist.fill(domain);
      await whitelist.press('Enter');
      await page.getByRole('button', { name: 'Create DSP partner' }).click();
      await page.waitForURL(/\/dsppartners\/\d+$/);
      const dspId = page.url().split('/').pop();
      await page.getByRole('heading', { name: names.dsp }).waitFor();

      // a Prebid partner: its page shows the bidder endpoint to configure in the Prebid Server
      await page.goto('/prebidpartners');
      await page.getByRole('link', { name: 'New Prebid partner' }).click();
      await page.getByLabel(/^Name/).fill(names.prebid);
      await page.getByLabel('Bidder code').fill('adp');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/prebidpartners\/\d+$/);
      const prebidId = page.url().split('/').pop();
      const endpoint = (await page.getByTestId('prebid-endpoint').textContent())?.trim() ?? '';
      expect(endpoint).toMatch(/\/rtb\/prebid\/[^/]+$/);

      // the agency group of the account that owns the site
      await page.goto('/partners');
      await page.getByRole('link', { name: 'New group' }).click();
      await page.getByLabel(/^Title/).fill(names.group);
      await page.getByLabel('Agency account (user id)').fill(publisher.id);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/partners\/\d+$/);
      const groupId = page.url().split('/').pop();
      await page.getByRole('heading', { name: names.group }).waitFor();

      // traffic: widget answers with their impression beacons (the DSP is asked once it is loaded) …
      let impressions = 0;
      for (let i = 0; i < 60 && (dspSeen.requests < 4 || impressions < 4); i++) {
        const answer = await serve();
        if (answer.impression_url) {
          expect((await fetch(answer.impression_url, { headers: visitorHeaders })).status).toBe(204);
          impressions += 1;
        }
        if (dspSeen.requests < 4) await new Promise((r) => setTimeout(r, 250));
      }
      expect(dspSeen.requests).toBeGreaterThanOrEqual(4);
      expect(impressions).toBeGreaterThanOrEqual(4);
      // … and a Prebid Server calling us as a bidder
      for (let n = 0; n < 3; n++) {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'User-Agent': DESKTOP_CHROME },
          body: JSON.stringify({
            id: `e2e-prebid-${stamp}-${n}`,
            imp: [
              {
                id: '1',
                tagid: ids.widget,
                native: {
                  ver: '1.2',
                  request: JSON.stringify({
                    ver: '1.2',
                    assets: [
                      { id: 1, required: 1, title: { len: 90 } },
                      { id: 2, required: 1, img: { type: 3, wmin: 100, hmin: 100 } },
                    ],
                  }),
                },
                ext: { bidder: {} },
              },
            ],
            site: { domain, page: `https://${domain}/a` },
            device: { ua: DESKTOP_CHROME, ip: '8.8.8.8' },
            tmax: 500,
            cur: ['USD'],
          }),
        });
        expect([200, 204]).toContain(response.status);
      }

      // the DSP partner's statistics: requests and bids of the local DSP (written a moment later)
      await page.goto(`/dsppartners/${dspId}/stats`);
      await expect
        .poll(
          async () => {
            await page.reload();
            return columnSum(page, 'Requests');
          },
          { timeout: 20_000, interval: 1000 },
        )
        .toBeGreaterThanOrEqual(4);
      expect(await columnSum(page, 'Bids')).toBeGreaterThanOrEqual(2);
      await shot(page, 'dsp-partner-stats');

      // the Prebid partner's statistics by date: the bidder endpoint's requests
      await page.goto(`/prebidpartners/${prebidId}/stats`);
      await expect
        .poll(
          async () => {
            await page.reload();
            return columnSum(page, 'Bid requests');
          },
          { timeout: 20_000, interval: 1000 },
        )
        .toBeGreaterThanOrEqual(3);
      await shot(page, 'prebid-partner-stats');

      // the agency group's statistics: its site's impressions
      await page.goto(`/partners/${groupId}/stats/revenue`);
      await expect
        .poll(
          async () => {
            await page.reload();
            const total = (await page.getByText(/^Total: /).textContent()) ?? '';
            return Number(/Total: impressions ([\d,]+)/.exec(total)?.[1]?.replace(/,/g, '') ?? 0);
          },
          { timeout: 20_000, interval: 1000 },
        )
        .toBeGreaterThanOrEqual(4);
      await shot(page, 'agency-group-stats');
    } finally {
      await context.close();
    }
  });
});
