import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { campaigns, clicks, pixelVisitors, users } from '../../db/schema/index.ts';
import { insertRollups } from '../../test/rollups.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';
import { createClicksRepository } from './clicks.repository.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
let readonly: ReturnType<typeof as>;
beforeAll(async () => {
  // the 24-hour rule is tested on its own (a user's stats_available_at set in the future)
  t = await createTestApp({ STATS_DELAY_HOURS: '0' });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const ro = await userWithRole(t, 'adminreadonly');
  readonly = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
});
afterAll(() => t.close());

/** What the `click-sources` job runs every 20 minutes (tests run without job timers). */
const refresh = () => createClicksRepository(t.database.db).refreshSources(new Date());

let seq = 0;
/** A user with a campaign, a creative, a site and a widget of its own. */
async function owner() {
  seq += 1;
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const post = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    expect(res.statusCode).toBe(201);
    return res.json() as { _id: string };
  };
  const campaign = await post('/api/campaigns', { campaign: { title: `Clicks ${seq}`, clickprice: 0.1 } });
  const banner = await post('/api/banners', {
    banner: { campaign_id: campaign._id, title: 'Boots', url: 'https://a.example' },
  });
  const site = await post('/api/sites', {
    site: { title: 'Mag', domain: `clicks-${seq}-${u.user_id}.example`, category: 'news' },
  });
  const widget = await post('/api/widgets', { widget: { title: 'Below', site_id: site._id } });
  // the click lists are advanced statistics, which an admin turns on (site-stats-access.test.ts)
  const advanced = await admin.put(`/api/sites/${site._id}`, { site: { advanced_stats: true } });
  expect(advanced.statusCode).toBe(200);
  return { ...u, api, campaign, banner, site, widget };
}
type Owner = Awaited<ReturnType<typeof owner>>;

let n = 0;
/** A click row as delivery writes it: the advertiser `a`'s campaign shown on the publisher `p`'s widget. */
async function click(a: Owner, p: Owner, at: string, values: Partial<typeof clicks.$inferInsert> = {}) {
  n += 1;
  const clickId = `click${String(n).padStart(6, '0')}`;
  await t.database.db.insert(clicks).values({
    clickId,
    tokenKey: `imp${n}:0`,
    status: 'charged',
    campaignId: Number(a.campaign._id),
    bannerId: Number(a.banner._id),
    siteId: Number(p.site._id),
    widgetId: Number(p.widget._id),
    visitorId: `visitor-${n}-abcdefghijkl`,
    ip: '203.0.113.7',
    country: 'DE',
    device: 'desktop',
    os: 'Windows',
    browser: 'Chrome',
    price: 100_000n,
    publisherEarned: 60_000n,
    createdAt: new Date(at),
    ...values,
  });
  return clickId;
}

describe('a campaign clicks', () => {
  test('the owner pages its clicks newest first, with price and reason, without the IP; status and range filter', async () => {
    const a = await owner();
    const p = await owner();
    const first = await click(a, p, '2026-05-01T10:00:00Z');
    const second = await click(a, p, '2026-05-02T10:00:00Z', {
      status: 'invalid',
      reason: 'filter_onetoone',
      price: 0n,
      publisherEarned: 0n,
    });
    const third = await click(a, p, '2026-05-02T12:00:00Z');
    await click(a, p, '2026-05-04T00:00:00Z'); // after the range
    await click(p, a, '2026-05-02T10:00:00Z'); // another campaign

    const url = `/api/campaigns/${a.campaign._id}/clicks?from=2026-05-01&to=2026-05-03`;
    const res = await a.api.get(`${url}&limit=2`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, page: 1, limit: 2, sites_hidden: false });
    expect(body.items.map((c: { _id: string }) => c._id)).toEqual([third, second]);
    expect(body.items[1]).toMatchObject({
      status: 'invalid',
      reason: 'filter_onetoone',
      price: 0,
      site_id: p.site._id,
      site_title: 'Mag',
      widget_id: p.widget._id,
      widget_title: 'Below',
      banner_title: 'Boots',
      country: 'DE',
    });
    expect(body.items[0]).toMatchObject({ status: 'valid', price: 0.1, reason: null });
    expect(body.items[0]).not.toHaveProperty('ip');
    expect(body.items[0]).not.toHaveProperty('earned');
    const page2 = (await a.api.get(`${url}&limit=2&page=2`)).json();
    expect(page2.items.map((c: { _id: string }) => c._id)).toEqual([first]);

    const invalid = (await a.api.get(`${url}&status=invalid`)).json();
    expect(invalid.items.map((c: { _id: string }) => c._id)).toEqual([second]);
    // the days of the viewer's timezone: 2026-05-02 in Tokyo ends at 15:00 UTC
    const tokyo = (
      await a.api.get(`/api/campaigns/${a.campaign._id}/clicks?from=2026-05-01&to=2026-05-01&tz=Asia/Tokyo`)
    ).json();
    expect(tokyo.items.map((c: { _id: string }) => c._id)).toEqual([first]);

    const asAdmin = (await admin.get(url)).json();
    expect(asAdmin.items[0]).toMatchObject({ ip: '203.0.113.7', price: 0.1, earned: 0.06 });
    const asReadonly = (await readonly.get(url)).json();
    expect(asReadonly.items[0]).toMatchObject({ ip: '203.0.113.7' });
  });

  test('hide_clicks_sites hides sites and widgets from the advertiser, not from admins', async () => {
    const a = await owner();
    const p = await owner();
    await click(a, p, '2026-05-01T10:00:00Z');
    await t.database.db
      .update(campaigns)
      .set({ hideClicksSites: true })
      .where(eq(campaigns.id, Number(a.campaign._id)));
    await insertRollups(t.database.db, {
      hour: new Date('2026-05-01T10:00:00Z'),
      campaignId: Number(a.campaign._id),
      bannerId: Number(a.banner._id),
      siteId: Number(p.site._id),
      widgetId: Number(p.widget._id),
      country: 'DE',
      device: '',
      os: '',
      browser: '',
      impressions: 100,
      clicks: 1,
      spent: 100_000n,
    });
    const range = '?from=2026-05-01&to=2026-05-01';
    for (const path of ['clicks', 'impressions']) {
      const own = (await a.api.get(`/api/campaigns/${a.campaign._id}/${path}${range}`)).json();
      expect(own.sites_hidden).toBe(true);
      expect(JSON.stringify(own.items)).not.toContain(p.site._id);
      const byAdmin = (await admin.get(`/api/campaigns/${a.campaign._id}/${path}${range}`)).json();
      expect(byAdmin.sites_hidden).toBe(false);
      expect(byAdmin.items[0]).toMatchObject({ site_id: p.site._id, widget_id: p.widget._id });
    }
    const own = (await a.api.get(`/api/campaigns/${a.campaign._id}/clicks${range}`)).json();
    expect(own.items[0]).toMatchObject({
      site_id: null,
      site_title: null,
      widget_id: null,
      widget_title: null,
    });
    const imps = (await a.api.get(`/api/campaigns/${a.campaign._id}/impressions${range}`)).json();
    expect(imps).toMatchObject({ items: [], totals: { impressions: 100, clicks: 1, ctr: 1, spent: 0.1 } });
    // the publisher's own list still names its site
    const pub = (await p.api.get(`/api/sites/${p.site._id}/clicks${range}`)).json();
    expect(pub.items[0]).toMatchObject({ site_id: p.site._id, earned: 0.06 });
  });

  test('postback lists converted clicks by the day of the conversion, with their count and sum', async () => {
    const a = await owner();
    const converted = await click(a, a, '2026-05-01T10:00:00Z', {
      convertedAt: new Date('2026-05-03T08:00:00Z'),
      conversionSum: 12_500_000n,
      conversionStatus: 'approved',
    });
    await click(a, a, '2026-05-03T09:00:00Z');
    const res = await a.api.get(`/api/campaigns/${a.campaign._id}/postback?from=2026-05-03&to=2026-05-03`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, conversions: 1, sum: 12.5 });
    expect(res.json().items[0]).toMatchObject({
      _id: converted,
      converted_at: '2026-05-03T08:00:00.000Z',
      conversion_sum: 12.5,
      conversion_status: 'approved',
    });
  });

  test("pixel clicks: clicks whose visitor later reached one of the advertiser's pixels", async () => {
    const a = await owner();
    const px = (await a.api.post('/api/pixels', { pixel: { title: 'Checkout' } })).json();
    const other = await owner();
    const otherPx = (await other.api.post('/api/pixels', { pixel: { title: 'Theirs' } })).json();
    const before = await click(a, a, '2026-05-01T10:00:00Z', { visitorId: 'visitor-returning-abcdef' });
    await click(a, a, '2026-05-01T11:00:00Z', { visitorId: 'visitor-gone-abcdefghij' });
    await click(a, a, '2026-05-01T12:00:00Z', { visitorId: 'visitor-other-pixel-abc' });
    await click(a, a, '2026-05-01T13:00:00Z', { visitorId: 'visitor-seen-before-abc' });
    await t.database.db.insert(pixelVisitors).values([
      {
        pixelId: Number(px._id),
        visitorId: 'visitor-returning-abcdef',
        lastUrl: 'https://shop.example/thanks',
        visits: 2,
        lastSeen: new Date('2026-05-01T10:30:00Z'),
      },
      {
        pixelId: Number(otherPx._id),
        visitorId: 'visitor-other-pixel-abc',
        lastSeen: new Date('2026-05-02T00:00:00Z'),
      },
      {
        pixelId: Number(px._id),
        visitorId: 'visitor-seen-before-abc',
        lastSeen: new Date('2026-05-01T09:00:00Z'),
      },
    ]);
    const res = await a.api.get(`/api/campaigns/${a.campaign._id}/pixelclicks?from=2026-05-01&to=2026-05-01`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1 });
    expect(res.json().items[0]).toMatchObject({
      _id: before,
      pixel_id: px._id,
      pixel_title: 'Checkout',
      pixel_url: 'https://shop.example/thanks',
      pixel_visits: 2,
      pixel_seen_at: '2026-05-01T10:30:00.000Z',
    });
  });

  test('geo clicks by country and city from the rollups, most clicks first', async () => {
    const a = await owner();
    const base = {
      campaignId: Number(a.campaign._id),
      bannerId: 0,
      siteId: Number(a.site._id),
      widgetId: 0,
      device: '',
      os: '',
      browser: '',
    };
    await insertRollups(t.database.db, [
      {
        ...base,
        hour: new Date('2026-05-01T10:00:00Z'),
        country: 'DE',
        city: 'Berlin',
        clicks: 2,
        spent: 200_000n,
        earned: 120_000n,
      },
      { ...base, hour: new Date('2026-05-01T11:00:00Z'), country: 'DE', city: 'Munich', clicks: 1 },
      { ...base, hour: new Date('2026-05-01T12:00:00Z'), country: '', invalidClicks: 1 },
      {
        ...base,
        hour: new Date('2026-05-01T10:00:00Z'),
        country: 'FR',
        clicks: 5,
        invalidClicks: 1,
        spent: 500_000n,
      },
      { ...base, hour: new Date('2026-05-01T10:00:00Z'), country: 'IT', impressions: 10 },
      // impressions the exchange sold in GB: spend without a click
      { ...base, hour: new Date('2026-05-01T10:00:00Z'), country: 'GB', impressions: 3, spent: 7_000n },
    ]);
    const res = (
      await a.api.get(`/api/campaigns/${a.campaign._id}/geoclicks?from=2026-05-01&to=2026-05-01`)
    ).json();
    expect(res).toMatchObject({ total: 5 });
    expect(res.items).toEqual([
      { country: 'FR', city: '', clicks: 5, invalid_clicks: 1, money: 0.5 },
      { country: 'DE', city: 'Berlin', clicks: 2, invalid_clicks: 0, money: 0.2 },
      { country: 'DE', city: 'Munich', clicks: 1, invalid_clicks: 0, money: 0 },
      { country: 'GB', city: '', clicks: 0, invalid_clicks: 0, money: 0.007 },
      { country: 'unknown', city: '', clicks: 0, invalid_clicks: 1, money: 0 },
    ]);
    // the money column adds up to the campaign's spend of the day
    const sum = res.items.reduce((s: number, r: { money: number }) => s + r.money, 0);
    expect(sum).toBeCloseTo(0.5 + 0.2 + 0.007, 6);
    const site = (await a.api.get(`/api/sites/${a.site._id}/geoclicks?from=2026-05-01&to=2026-05-01`)).json();
    expect(site.items[1]).toMatchObject({ country: 'DE', money: 0.12 });
  });
});

describe('a site and a widget', () => {
  test("the publisher's clicks show earned, not price, and no IP; a widget's clicks only its own", async () => {
    const a = await owner();
    const p = await owner();
    const widget2 = (
      await p.api.post('/api/widgets', { widget: { title: 'Side', site_id: p.site._id } })
    ).json();
    const one = await click(a, p, '2026-05-01T10:00:00Z');
    const two = await click(a, p, '2026-05-01T11:00:00Z', { widgetId: Number(widget2._id) });
    const site = (await p.api.get(`/api/sites/${p.site._id}/clicks?from=2026-05-01&to=2026-05-01`)).json();
    expect(site.items.map((c: { _id: string }) => c._id)).toEqual([two, one]);
    expect(site.items[0]).toMatchObject({ earned: 0.06, widget_title: 'Side' });
    expect(site.items[0]).not.toHaveProperty('price');
    expect(site.items[0]).not.toHaveProperty('ip');
    const w = (await p.api.get(`/api/widgets/${widget2._id}/clicks?from=2026-05-01&to=2026-05-01`)).json();
    expect(w.items.map((c: { _id: string }) => c._id)).toEqual([two]);
    const asAdmin = (
      await admin.get(`/api/widgets/${widget2._id}/clicks?from=2026-05-01&to=2026-05-01`)
    ).json();
    expect(asAdmin.items[0]).toMatchObject({ ip: '203.0.113.7', price: 0.1, earned: 0.06 });
  });

  test('click sources: refreshed by the job, by domain, page or widget, with the refresh time', async () => {
    const p = await owner();
    const a = await owner();
    await click(a, p, '2026-05-01T10:00:00Z', { referrer: 'https://news.example/a' });
    await click(a, p, '2026-05-01T10:10:00Z', { referrer: 'https://News.example/b' });
    await click(a, p, '2026-05-01T11:00:00Z', {
      referrer: 'https://blog.example/x',
      status: 'invalid',
      reason: 'bot',
    });
    await click(a, p, '2026-05-01T12:00:00Z');
    const url = `/api/sites/${p.site._id}/click-sources?from=2026-05-01&to=2026-05-01`;
    const before = (await p.api.get(url)).json();
    expect(before.items).toEqual([]);

    await refresh();
    const res = await p.api.get(url);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.refreshed_at).not.toBeNull();
    expect(body.items).toEqual([
      { key: 'news.example', widget_title: null, clicks: 2, invalid_clicks: 0, earned: 0.12 },
      { key: '', widget_title: null, clicks: 1, invalid_clicks: 0, earned: 0.06 },
      { key: 'blog.example', widget_title: null, clicks: 0, invalid_clicks: 1, earned: 0.06 },
    ]);
    const pages = (await p.api.get(`${url}&group=page&limit=1`)).json();
    expect(pages).toMatchObject({ total: 4, items: [{ key: '', clicks: 1 }] });
    const byWidget = (await p.api.get(`${url}&group=widget`)).json();
    expect(byWidget.items).toEqual([
      { key: p.widget._id, widget_title: 'Below', clicks: 3, invalid_clicks: 1, earned: 0.24 },
    ]);
    // a click of today appears after the next refresh; the hours already computed count once
    const today = new Date().toISOString().slice(0, 10);
    await click(a, p, new Date().toISOString(), { referrer: 'https://news.example/c' });
    await refresh();
    await refresh();
    const now = (await p.api.get(`/api/sites/${p.site._id}/click-sources?from=${today}&to=${today}`)).json();
    expect(now.items).toEqual([
      { key: 'news.example', widget_title: null, clicks: 1, invalid_clicks: 0, earned: 0.06 },
    ]);
    expect((await p.api.get(`${url}&group=widget`)).json().items[0]).toMatchObject({ clicks: 3 });
  });

  test('impression rate: answers drawn per request and viewable per impression, by widget and day', async () => {
    const p = await owner();
    await insertRollups(t.database.db, {
      hour: new Date('2026-05-02T10:00:00Z'),
      campaignId: 0,
      bannerId: 0,
      siteId: Number(p.site._id),
      widgetId: Number(p.widget._id),
      country: '',
      device: '',
      os: '',
      browser: '',
      impressions: 200,
      viewable: 150,
    });
    const res = await p.api.get(`/api/sites/${p.site._id}/impression-rate?from=2026-05-01&to=2026-05-02`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1 });
    const none = { requests: 0, rendered: 0, impression_rate: 0 };
    expect(res.json().items[0]).toEqual({
      widget_id: p.widget._id,
      widget_title: 'Below',
      ...none,
      impressions: 200,
      viewable: 150,
      rate: 75,
      days: [
        { day: '2026-05-01', ...none, impressions: 0, viewable: 0, rate: 0 },
        { day: '2026-05-02', ...none, impressions: 200, viewable: 150, rate: 75 },
      ],
    });
  });
});

describe('who may read click lists', () => {
  test('the owner, admins and read-only admins; another user and an unknown id get 404; bad ranges 422', async () => {
    const o = await owner();
    const other = await owner();
    const paths = [
      ...['clicks', 'postback', 'pixelclicks', 'impressions', 'geoclicks'].map(
        (x) => `campaigns/${o.campaign._id}/${x}`,
      ),
      ...['clicks', 'geoclicks', 'click-sources', 'impression-rate', 'toparticles'].map(
        (x) => `sites/${o.site._id}/${x}`,
      ),
      `widgets/${o.widget._id}/clicks`,
    ];
    for (const path of paths) {
      expect((await o.api.get(`/api/${path}`)).statusCode, path).toBe(200);
      expect((await admin.get(`/api/${path}`)).statusCode, path).toBe(200);
      expect((await readonly.get(`/api/${path}`)).statusCode, path).toBe(200);
      expect((await other.api.get(`/api/${path}`)).statusCode, path).toBe(404);
      expect((await o.api.get(`/api/${path.replace(/\/\d+\//, '/999999/')}`)).statusCode, path).toBe(404);
      const bad = await o.api.get(`/api/${path}?from=2026-05-03&to=2026-05-01&limit=501`);
      expect(bad.statusCode, path).toBe(422);
      expect(
        bad
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
        path,
      ).toEqual(['from', 'limit']);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/${paths[0]}` })).statusCode).toBe(401);
  });

  test("an agency reads its member's clicks, not another user's", async () => {
    seq += 1;
    const agencyUser = await userWithRole(t, 'agency');
    const agency = as(t.app, agencyUser.access_token);
    const created = await agency.post('/api/agencies', { agency: { title: `Clicks agency ${seq}` } });
    const member = {
      name: `M ${seq}`,
      email: `clicks-member${seq}@test.local`,
      password: 'member-password-1',
    };
    expect((await agency.post(`/api/agencies/${created.json()._id}/addmember`, { member })).statusCode).toBe(
      201,
    );
    const memberApi = as(t.app, (await login(t.app, member.email, member.password)).access_token);
    const campaign = (
      await memberApi.post('/api/campaigns', { campaign: { title: `M${seq}`, clickprice: 0.1 } })
    ).json();
    expect((await agency.get(`/api/campaigns/${campaign._id}/clicks`)).statusCode).toBe(200);
    const stranger = await owner();
    expect((await agency.get(`/api/campaigns/${stranger.campaign._id}/clicks`)).statusCode).toBe(404);
    expect((await agency.get(`/api/sites/${stranger.site._id}/click-sources`)).statusCode).toBe(404);
    expect((await agency.get(`/api/sites/${stranger.site._id}/toparticles`)).statusCode).toBe(404);
  });
});

describe('the 24-hour rule', () => {
  test("while the owner's statistics are held back, lists are empty with available_at; admins see them", async () => {
    const a = await owner();
    await click(a, a, '2026-05-01T10:00:00Z');
    const at = new Date(Date.now() + 3_600_000);
    await t.database.db
      .update(users)
      .set({ statsAvailableAt: at })
      .where(eq(users.id, Number(a.user_id)));
    const range = '?from=2026-05-01&to=2026-05-01';
    const paths = [
      ...['clicks', 'postback', 'pixelclicks', 'impressions', 'geoclicks'].map(
        (x) => `campaigns/${a.campaign._id}/${x}`,
      ),
      ...['clicks', 'geoclicks', 'click-sources', 'impression-rate', 'toparticles'].map(
        (x) => `sites/${a.site._id}/${x}`,
      ),
      `widgets/${a.widget._id}/clicks`,
    ];
    for (const path of paths) {
      const held = await a.api.get(`/api/${path}${range}`);
      expect(held.statusCode, path).toBe(200);
      expect(held.json(), path).toMatchObject({ items: [], total: 0, available_at: at.toISOString() });
      expect((await admin.get(`/api/${path}${range}`)).json().available_at, path).toBeUndefined();
    }
    expect((await admin.get(`/api/campaigns/${a.campaign._id}/clicks${range}`)).json().total).toBe(1);
  });
});
