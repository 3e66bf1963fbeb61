import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { materials } from '../../db/schema/index.ts';
import {
  chrome,
  publisherWithWidget,
  runningCampaign,
  settle,
} from '../../delivery/delivery-fixtures.test-helper.ts';
import {
  ADMIN,
  as,
  createTestApp,
  liftStatsDelay,
  login,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

/**
 * What delivery counts besides ads, and the screens that read it: widget answers served and drawn (the
 * impression rate), the site's own articles shown and clicked (top articles), and clicks inside advertiser
 * markup (criteo), all through the delivery URLs a visitor's browser calls.
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = chrome) =>
  t.app.inject({ method: 'GET', url: url.replace('http://localhost:8080', ''), headers });
interface Item {
  id: string;
  title: string;
  url: string;
  sponsored: boolean;
  html?: string;
}
interface Answer {
  items: Item[];
  impression_url: string | null;
}
const serve = async (widgetId: string) => {
  const res = await get(`/serve/widgets/${widgetId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Answer;
};
const today = () => new Date().toISOString().slice(0, 10);
const flush = () => contextOf(t.app).delivery.engine.flush();

async function addArticles(siteId: string, titles: string[]) {
  const rows = await t.database.db
    .insert(materials)
    .values(
      titles.map((title, i) => ({
        siteId: Number(siteId),
        url: `https://mag.example/${i + 1}`,
        title,
        description: '',
        image: '',
        publishedAt: new Date(Date.now() - (i + 1) * 3_600_000),
        expiresAt: new Date(Date.now() + 30 * 86_400_000),
      })),
    )
    .returning({ id: materials.id });
  contextOf(t.app).widgetItems.forgetSite(Number(siteId));
  return rows.map((r) => String(r.id));
}

/** A publisher whose widget (4 slots, newest articles) shows its three articles. */
async function magazine(processor = 'articlerandom') {
  const p = await publisherWithWidget(t, admin, { processor, settings: { columns: 4, rows: 1 } });
  await liftStatsDelay(t, p.user_id);
  const ids = await addArticles(p.site._id, ['Alpha', 'Beta', 'Gamma']);
  await settle(t);
  return { ...p, ids };
}

describe('top articles', () => {
  test("impressions come with the answer's beacon, clicks through the material beacon, once each", async () => {
    const p = await magazine();
    const first = await serve(p.widget._id);
    expect(first.items.map((i) => i.title).sort()).toEqual(['Alpha', 'Beta', 'Gamma']);
    // an answer of the site's own articles has beacons too (no ad in it)
    expect(first.impression_url).toMatch(/\/serve\/i\//);
    const second = await serve(p.widget._id);
    for (const a of [first, second]) {
      expect((await get(a.impression_url as string)).statusCode).toBe(204);
      expect((await get(a.impression_url as string)).statusCode).toBe(204);
    }
    const clickOf = (a: Answer, title: string) => {
      const id = a.items.find((i) => i.title === title)?.id.slice(1);
      return `${(a.impression_url as string).replace('/serve/i/', '/serve/m/')}.${id}`;
    };
    expect((await get(clickOf(first, 'Beta'))).statusCode).toBe(204);
    expect((await get(clickOf(first, 'Beta'))).statusCode).toBe(204); // a repeat counts nothing
    expect((await get(clickOf(second, 'Beta'))).statusCode).toBe(204);
    expect((await get(clickOf(second, 'Gamma'))).statusCode).toBe(204);
    // a material the answer did not show, a forged token, no id: 400
    const token = (first.impression_url as string).split('/serve/i/')[1] as string;
    expect((await get(`/serve/m/${token}.999999`)).statusCode).toBe(400);
    expect((await get(`/serve/m/${token.slice(0, -2)}xx.${p.ids[0]}`)).statusCode).toBe(400);
    expect((await get(`/serve/m/${token}`)).statusCode).toBe(400);
    await flush();

    const url = `/api/sites/${p.site._id}/toparticles?from=${today()}&to=${today()}`;
    const res = await p.api.get(url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.totals).toEqual({ impressions: 6, clicks: 3, ctr: 50 });
    // impressions tie (2 each): then by id; the sort by clicks and by CTR puts Beta first
    expect(body.items.map((r: { title: string }) => r.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(body.items[1]).toEqual({
      material_id: p.ids[1],
      title: 'Beta',
      url: 'https://mag.example/2',
      impressions: 2,
      clicks: 2,
      ctr: 100,
    });
    const sorted = async (q: string) =>
      (await p.api.get(`${url}&${q}`)).json().items.map((r: { title: string }) => r.title);
    expect(await sorted('sort=clicks')).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect(await sorted('sort=ctr&order=asc')).toEqual(['Alpha', 'Gamma', 'Beta']);
    expect(await sorted('sort=title&order=desc')).toEqual(['Gamma', 'Beta', 'Alpha']);
    const paged = (await p.api.get(`${url}&limit=2&page=2`)).json();
    expect(paged).toMatchObject({ total: 3, page: 2, limit: 2, totals: { impressions: 6, clicks: 3 } });
    expect(paged.items.map((r: { title: string }) => r.title)).toEqual(['Gamma']);
    const beyond = (await p.api.get(`${url}&limit=2&page=3`)).json();
    expect(beyond).toMatchObject({ items: [], total: 3, totals: { impressions: 6, clicks: 3, ctr: 50 } });
    // another day has no data
    const empty = (
      await p.api.get(`/api/sites/${p.site._id}/toparticles?from=2026-01-01&to=2026-01-02`)
    ).json();
    expect(empty).toMatchObject({ items: [], total: 0, totals: { impressions: 0, clicks: 0, ctr: 0 } });
    expect((await p.api.get(`${url}&sort=price`)).statusCode).toBe(422);
  });

  test("other sites' articles (exchange) are not the site's top articles; an ad answer counts its articles", async () => {
    const p = await magazine('default');
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    await settle(t);
    const a = await serve(p.widget._id);
    expect(a.items.filter((i) => i.sponsored)).toHaveLength(1);
    expect((await get(a.impression_url as string)).statusCode).toBe(204);
    const other = await publisherWithWidget(t, admin, { processor: 'exchangerandom' });
    await settle(t);
    const ex = await serve(other.widget._id);
    if (ex.impression_url) expect((await get(ex.impression_url)).statusCode).toBe(204);
    await flush();
    const range = `from=${today()}&to=${today()}`;
    const own = (await p.api.get(`/api/sites/${p.site._id}/toparticles?${range}`)).json();
    expect(own.totals.impressions).toBe(3);
    const theirs = (await other.api.get(`/api/sites/${other.site._id}/toparticles?${range}`)).json();
    expect(theirs).toMatchObject({ items: [], total: 0 });
  });

  test('the publisher and admins read them; another publisher and an unknown site get 404', async () => {
    const p = await magazine();
    const path = `/api/sites/${p.site._id}/toparticles`;
    expect((await p.api.get(path)).statusCode).toBe(200);
    expect((await admin.get(path)).statusCode).toBe(200);
    const readonly = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await readonly.get(path)).statusCode).toBe(200);
    const other = await publisherWithWidget(t, admin);
    expect((await other.api.get(path)).statusCode).toBe(404);
    expect((await p.api.get('/api/sites/999999/toparticles')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
  });
});

describe('impression rate', () => {
  test('widget answers served and drawn per widget and day; bots are not counted', async () => {
    const p = await magazine();
    const answers = [await serve(p.widget._id), await serve(p.widget._id), await serve(p.widget._id)];
    await get(`/serve/widgets/${p.widget._id}`, {
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    expect((await get(answers[0]?.impression_url as string)).statusCode).toBe(204);
    await flush();
    const res = await p.api.get(`/api/sites/${p.site._id}/impression-rate?from=${today()}&to=${today()}`);
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().items[0];
    expect(row).toMatchObject({ requests: 3, rendered: 1, impression_rate: 33.33 });
    expect(row.days).toEqual([
      expect.objectContaining({ day: today(), requests: 3, rendered: 1, impression_rate: 33.33 }),
    ]);
  });
});

describe('criteo', () => {
  test('a click inside the markup counts through the click beacon and shows in the criteo stats', async () => {
    const p = await publisherWithWidget(t, admin, { processor: 'criteo', settings: { columns: 2, rows: 1 } });
    const markup =
      '<div id="criteo-zone"><script src="https://static.criteo.net/js/ld/publishertag.js"></script></div>';
    const c = await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id, adstype: 'criteo', src_code: markup },
      banner: { title: 'Criteo zone' },
    });
    await liftStatsDelay(t, c.user_id);
    await settle(t);
    const a = await serve(p.widget._id);
    const item = a.items[0] as Item;
    expect(item.html).toBe(markup);
    expect((await get(a.impression_url as string)).statusCode).toBe(204);
    const beacon = item.url.replace('/click/', '/serve/c/');
    expect((await get(beacon)).statusCode).toBe(204);
    expect((await get(beacon)).statusCode).toBe(204); // a repeat: counted as invalid, not charged again
    expect((await get('/serve/c/not-a-token.0')).statusCode).toBe(400);
    await flush();
    const stats = await c.api.get(
      `/api/criteo/stats?from=${today()}&to=${today()}&campaign_id=${c.campaign._id}`,
    );
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json().total).toMatchObject({ impressions: 1, clicks: 1, invalid_clicks: 1, spent: 0.5 });
  });
});
