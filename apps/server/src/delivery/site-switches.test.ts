import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../app.ts';
import { materials } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { chrome, publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';
import { markTraffic } from './engine.ts';

/**
 * The site's switches that change how its widgets serve (ad-index.ts SiteSwitches), through both ways an
 * answer is written: the framework's route (inject) and the fast path before it (a real socket).
 */

let t: TestApp;
let admin: ReturnType<typeof as>;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t?.close());

interface Answer {
  widget: { _id: string; settings: Record<string, unknown> };
  items: { id: string; url: string; sponsored: boolean }[];
  impression_url: string | null;
}

/** The widget's answer as the route writes it and as the fast path does: the same in what is checked. */
async function both(widgetId: string, query = ''): Promise<[Answer, Answer]> {
  const routed = await t.app.inject({
    method: 'GET',
    url: `/serve/widgets/${widgetId}${query}`,
    headers: chrome,
  });
  expect(routed.statusCode, routed.body).toBe(200);
  const fast = await fetch(`${base}/serve/widgets/${widgetId}${query}`, { headers: chrome });
  expect(fast.status).toBe(200);
  return [routed.json(), (await fast.json()) as Answer];
}

async function addMaterials(siteId: string, urls: string[]) {
  await t.database.db.insert(materials).values(
    urls.map((url, i) => ({
      siteId: Number(siteId),
      url,
      title: `Article ${i}`,
      description: '',
      image: `https://img.example/${i}.jpg`,
      publishedAt: new Date(Date.now() - (i + 1) * 3_600_000),
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
    })),
  );
  // as the parser does after a run: the widgets read the site's materials again
  contextOf(t.app).widgetItems.forgetSite(Number(siteId));
}

describe("a site's switches", () => {
  test('infinite feed, NoIndex and views on scroll reach the answer’s settings; off, nothing is added', async () => {
    const p = await publisherWithWidget(t, admin, { settings: { columns: 2, rows: 1 } });
    const on = await p.api.put(`/api/sites/${p.site._id}`, {
      site: { is_infinite: true, use_noindex: true, stats_on_scroll: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    // a slider keeps sliding: the infinite feed is the grid widgets'
    const slider = (
      await p.api.post('/api/widgets', {
        widget: { title: 'Slider', site_id: p.site._id, settings: { type: 'slide' } },
      })
    ).json();
    await admin.post(`/api/widgets/${slider._id}/moderate`, { decision: 'approve' });
    await settle(t);
    for (const a of await both(slider._id)) {
      expect(a.widget.settings).toMatchObject({ type: 'slide', noindex: true, count_on_scroll: true });
      expect(Object.keys(a.widget.settings)).not.toContain('is_infinite');
    }
    for (const a of await both(p.widget._id)) {
      expect(a.widget.settings).toMatchObject({
        columns: 2,
        is_infinite: true,
        noindex: true,
        count_on_scroll: true,
      });
    }
    await p.api.put(`/api/sites/${p.site._id}`, {
      site: { is_infinite: false, use_noindex: false, stats_on_scroll: false },
    });
    await settle(t);
    for (const a of await both(p.widget._id)) {
      expect(a.widget.settings.columns).toBe(2);
      expect(Object.keys(a.widget.settings)).not.toContain('is_infinite');
      expect(Object.keys(a.widget.settings)).not.toContain('noindex');
      expect(Object.keys(a.widget.settings)).not.toContain('count_on_scroll');
    }
  });

  test("mark traffic: links to the site's own articles name the widget in UTM marks; marks of their own stay alone", async () => {
    const p = await publisherWithWidget(t, admin, {
      processor: 'articlerandom',
      settings: { columns: 3, rows: 1 },
    });
    const d = p.site.domain;
    await addMaterials(p.site._id, [
      `https://${d}/plain`,
      `https://${d}/tagged?utm_source=newsletter&x=a%20b#top`,
      `https://${d}/query?page=2`,
    ]);
    await settle(t);
    const urls = (a: Answer) => a.items.map((i) => i.url).sort();
    const [before] = await both(p.widget._id);
    expect(urls(before)).toEqual(
      [
        `https://${d}/plain`,
        `https://${d}/query?page=2`,
        `https://${d}/tagged?utm_source=newsletter&x=a%20b#top`,
      ].sort(),
    );
    await p.api.put(`/api/sites/${p.site._id}`, { site: { mark_traffic: true } });
    await settle(t);
    const marks = `utm_source=adplatform&utm_medium=widget&utm_campaign=widget_${p.widget._id}`;
    for (const a of await both(p.widget._id)) {
      expect(urls(a)).toEqual(
        [
          `https://${d}/plain?${marks}`,
          // the rest of the URL as it was written
          `https://${d}/query?page=2&${marks}`,
          // a link with marks of its own: a mix of two sources' marks would tell the site's analytics neither
          `https://${d}/tagged?utm_source=newsletter&x=a%20b#top`,
        ].sort(),
      );
    }
    // the visitor the marked link brought reads that article: it is not offered again
    const reading = encodeURIComponent(`https://${d}/plain?${marks}`);
    for (const a of await both(p.widget._id, `?url=${reading}`)) {
      expect(urls(a)).toEqual(
        [
          `https://${d}/query?page=2&${marks}`,
          `https://${d}/tagged?utm_source=newsletter&x=a%20b#top`,
        ].sort(),
      );
    }
  });

  test('strict items amount: a widget that cannot fill every slot shows nothing, and counts nothing', async () => {
    const p = await publisherWithWidget(t, admin, { settings: { columns: 4, rows: 1 } });
    await runningCampaign(t, admin);
    await addMaterials(p.site._id, [`https://${p.site.domain}/1`]);
    await p.api.put(`/api/sites/${p.site._id}`, { site: { strict_items_amount: true } });
    await settle(t);
    // one creative and one article for four slots
    for (const a of await both(p.widget._id)) {
      expect(a.items).toEqual([]);
      expect(a.impression_url).toBeNull();
    }
    await addMaterials(p.site._id, [`https://${p.site.domain}/2`, `https://${p.site.domain}/3`]);
    await settle(t);
    for (const a of await both(p.widget._id)) {
      expect(a.items).toHaveLength(4);
      expect(a.items.filter((i) => i.sponsored)).toHaveLength(1);
      expect(a.impression_url).toMatch(/\/serve\/i\//);
    }
    // without the switch, a short answer shows what there is
    const q = await publisherWithWidget(t, admin, { settings: { columns: 4, rows: 1 } });
    await settle(t);
    for (const a of await both(q.widget._id)) expect(a.items.filter((i) => i.sponsored)).toHaveLength(1);
  });
});

test('markTraffic: only http(s) URLs without marks of their own, an empty query and a fragment kept in place', () => {
  expect(markTraffic('https://a.example/x', 7)).toBe(
    'https://a.example/x?utm_source=adplatform&utm_medium=widget&utm_campaign=widget_7',
  );
  expect(markTraffic('https://a.example/x?', 7)).toBe(
    'https://a.example/x?utm_source=adplatform&utm_medium=widget&utm_campaign=widget_7',
  );
  expect(markTraffic('https://a.example/x?a=1&#f', 7)).toBe(
    'https://a.example/x?a=1&utm_source=adplatform&utm_medium=widget&utm_campaign=widget_7#f',
  );
  const full = 'https://a.example/?utm_source=s&utm_medium=m&utm_campaign=c';
  expect(markTraffic(full, 7)).toBe(full);
  expect(markTraffic('https://a.example/?utm_term=shoes', 7)).toBe('https://a.example/?utm_term=shoes');
  // a fragment route's query is the fragment's, not the URL's
  expect(markTraffic('https://a.example/#/r?utm_source=x', 7)).toBe(
    'https://a.example/?utm_source=adplatform&utm_medium=widget&utm_campaign=widget_7#/r?utm_source=x',
  );
  expect(markTraffic('mailto:x@a.example', 7)).toBe('mailto:x@a.example');
  expect(markTraffic('not a url', 7)).toBe('not a url');
});
