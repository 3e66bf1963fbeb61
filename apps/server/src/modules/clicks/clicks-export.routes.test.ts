import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { campaigns, clicks, materialStats, pixelVisitors, users } from '../../db/schema/index.ts';
import { insertRollups } from '../../test/rollups.ts';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../../test/test-app.ts';
import { createClicksRepository } from './clicks.repository.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp({ STATS_DELAY_HOURS: '0' });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

let seq = 0;
/** A user with a campaign, a creative, a site (advanced statistics on) and a widget of its own. */
async function owner() {
  seq += 1;
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const post = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    expect(res.statusCode).toBe(201);
    return Number((res.json() as { _id: string })._id);
  };
  const campaign = await post('/api/campaigns', { campaign: { title: `Files ${seq}`, clickprice: 0.1 } });
  const banner = await post('/api/banners', {
    banner: { campaign_id: String(campaign), title: '=HYPERLINK("x")', url: 'https://a.example' },
  });
  const site = await post('/api/sites', {
    site: { title: 'Mag', domain: `files-${seq}-${u.user_id}.example`, category: 'news' },
  });
  const widget = await post('/api/widgets', { widget: { title: 'Below', site_id: String(site) } });
  await admin.put(`/api/sites/${site}`, { site: { advanced_stats: true } });
  return { ...u, api, campaign, banner, site, widget };
}
type Owner = Awaited<ReturnType<typeof owner>>;

let n = 0;
/** `count` clicks of `a`'s campaign on `p`'s widget, all at `at` (ties the keyset must still order). */
async function clicksAt(
  a: Owner,
  p: Owner,
  at: string,
  count: number,
  values: Partial<typeof clicks.$inferInsert> = {},
) {
  const rows = [];
  for (let i = 0; i < count; i++) {
    n += 1;
    rows.push({
      clickId: `file${String(n).padStart(8, '0')}`,
      tokenKey: `file-imp${n}:0`,
      status: 'charged',
      campaignId: a.campaign,
      bannerId: a.banner,
      siteId: p.site,
      widgetId: p.widget,
      visitorId: `visitor-${n}-abcdefghijkl`,
      ip: '203.0.113.7',
      country: 'DE',
      city: 'Berlin',
      device: 'desktop',
      os: 'Windows',
      browser: 'Chrome',
      price: 100_000n,
      publisherEarned: 60_000n,
      createdAt: new Date(at),
      ...values,
    });
  }
  await t.database.db.insert(clicks).values(rows);
}

const csvOf = (body: string) => {
  expect(body.startsWith('\uFEFF')).toBe(true);
  return parse(body, { bom: true, columns: true }) as Record<string, string>[];
};

describe('click list files', () => {
  test("a campaign's clicks: every one once, newest first across chunks, the advertiser's columns", async () => {
    const adv = await owner();
    const pub = await owner();
    // 1,200 clicks in one second (more than a chunk of 1,000, most of them tied on the time), two later
    await clicksAt(adv, pub, '2026-06-01T10:00:00Z', 1200);
    await clicksAt(adv, pub, '2026-06-02T09:00:00Z', 1, { status: 'invalid', reason: 'replayed', price: 0n });
    await clicksAt(adv, pub, '2026-06-03T09:00:00Z', 1);
    // outside the range
    await clicksAt(adv, pub, '2026-06-05T09:00:00Z', 1);
    // microseconds a JS Date would drop, still tied in threes: the keyset must compare the exact time
    await t.database.db.execute(
      sql`update clicks set created_at = created_at + (id % 3) * interval '1 microsecond' where campaign_id = ${adv.campaign}`,
    );
    const range = 'from=2026-06-01&to=2026-06-03';
    const res = await adv.api.get(`/api/campaigns/${adv.campaign}/clicks/export?${range}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="stats-campaign-${adv.campaign}-clicks-2026-06-01-2026-06-03.csv"`,
    );
    const rows = csvOf(res.body);
    expect(rows).toHaveLength(1202);
    expect(new Set(rows.map((r) => r.click_id)).size).toBe(1202);
    expect(rows.map((r) => (r.created_at ?? '').slice(0, 19)).slice(0, 3)).toEqual([
      '2026-06-03T09:00:00',
      '2026-06-02T09:00:00',
      '2026-06-01T10:00:00',
    ]);
    expect(Object.keys(rows[0]!)).toEqual([
      'created_at',
      'click_id',
      'status',
      'reason',
      'campaign_id',
      'banner_id',
      'banner_title',
      'site_id',
      'site_title',
      'widget_id',
      'widget_title',
      'country',
      'city',
      'device',
      'os',
      'browser',
      'price',
    ]);
    expect(rows[1]).toMatchObject({ status: 'invalid', reason: 'replayed', price: '0', site_title: 'Mag' });
    // a creative's title is anyone's input: never a formula in a spreadsheet
    expect(rows[0]).toMatchObject({ banner_title: `'=HYPERLINK("x")`, price: '0.1', country: 'DE' });
    // the status filter, as on the screen
    const invalid = await adv.api.get(
      `/api/campaigns/${adv.campaign}/clicks/export?${range}&status=invalid&format=csv`,
    );
    expect(csvOf(invalid.body).map((r) => r.reason)).toEqual(['replayed']);
    // admins get the IP and both money columns; XLSX is a real workbook
    const all = csvOf(
      (await admin.get(`/api/campaigns/${adv.campaign}/clicks/export?${range}&format=csv`)).body,
    );
    expect(all[0]).toMatchObject({ ip: '203.0.113.7', price: '0.1', earned: '0.06' });
    const xlsx = await adv.api.get(`/api/campaigns/${adv.campaign}/clicks/export?${range}&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(Object.keys(unzipSync(xlsx.rawPayload))).toContain('xl/worksheets/sheet1.xml');
  });

  test('hidden sites stay hidden; the postback file lists conversions with their sum', async () => {
    const adv = await owner();
    const pub = await owner();
    await t.database.db
      .update(campaigns)
      .set({ hideClicksSites: true })
      .where(eq(campaigns.id, adv.campaign));
    await clicksAt(adv, pub, '2026-06-01T10:00:00Z', 2);
    await clicksAt(adv, pub, '2026-06-01T11:00:00Z', 1, {
      convertedAt: new Date('2026-06-02T08:00:00Z'),
      conversionSum: 12_500_000n,
      conversionStatus: 'approved',
    });
    const range = 'from=2026-06-01&to=2026-06-02';
    const rows = csvOf(
      (await adv.api.get(`/api/campaigns/${adv.campaign}/clicks/export?${range}&format=csv`)).body,
    );
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0]!)).not.toContain('site_id');
    expect(Object.keys(rows[0]!)).not.toContain('widget_title');
    const postback = await adv.api.get(`/api/campaigns/${adv.campaign}/postback/export?${range}&format=csv`);
    expect(postback.headers['content-disposition']).toContain(`stats-campaign-${adv.campaign}-postback-`);
    expect(csvOf(postback.body)).toEqual([
      expect.objectContaining({
        converted_at: '2026-06-02T08:00:00.000Z',
        conversion_status: 'approved',
        conversion_sum: '12.5',
      }),
    ]);
  });

  test("a site's and a widget's clicks: the publisher's earnings; only with the advanced statistics; no foreign ids", async () => {
    const adv = await owner();
    const pub = await owner();
    await clicksAt(adv, pub, '2026-06-01T10:00:00Z', 3);
    const range = 'from=2026-06-01&to=2026-06-01';
    for (const path of [`sites/${pub.site}`, `widgets/${pub.widget}`]) {
      const res = await pub.api.get(`/api/${path}/clicks/export?${range}&format=csv`);
      expect([path, res.statusCode]).toEqual([path, 200]);
      const rows = csvOf(res.body);
      expect(rows).toHaveLength(3);
      expect(rows[0]).toMatchObject({ earned: '0.06' });
      expect(Object.keys(rows[0]!)).not.toContain('price');
      expect(Object.keys(rows[0]!)).not.toContain('ip');
    }
    // the advertiser reads neither the publisher's file nor the other way round
    expect((await adv.api.get(`/api/sites/${pub.site}/clicks/export?${range}&format=csv`)).statusCode).toBe(
      404,
    );
    expect(
      (await pub.api.get(`/api/campaigns/${adv.campaign}/clicks/export?${range}&format=csv`)).statusCode,
    ).toBe(404);
    // a bad format or range is a 422, not a file
    expect((await pub.api.get(`/api/sites/${pub.site}/clicks/export?${range}&format=pdf`)).statusCode).toBe(
      422,
    );
    await admin.put(`/api/sites/${pub.site}`, { site: { advanced_stats: false } });
    const off = await pub.api.get(`/api/sites/${pub.site}/clicks/export?${range}&format=csv`);
    expect([off.statusCode, off.json().error]).toEqual([403, 'advanced_stats_off']);
  });

  test('geo clicks, click sources and top articles: every row of the range, with the money of the side', async () => {
    const adv = await owner();
    const pub = await owner();
    const base = {
      campaignId: adv.campaign,
      bannerId: 0,
      siteId: pub.site,
      widgetId: 0,
      device: '',
      os: '',
      browser: '',
    };
    await insertRollups(t.database.db, [
      {
        ...base,
        hour: new Date('2026-06-01T10:00:00Z'),
        country: 'DE',
        city: 'Berlin',
        clicks: 2,
        spent: 200_000n,
        earned: 120_000n,
      },
      {
        ...base,
        hour: new Date('2026-06-01T10:00:00Z'),
        country: 'FR',
        clicks: 5,
        invalidClicks: 1,
        spent: 500_000n,
        earned: 300_000n,
      },
    ]);
    const range = 'from=2026-06-01&to=2026-06-01';
    const campaignGeo = await adv.api.get(
      `/api/campaigns/${adv.campaign}/geoclicks/export?${range}&format=csv`,
    );
    expect(campaignGeo.headers['content-disposition']).toContain(
      `stats-campaign-${adv.campaign}-geoclicks-2026-06-01`,
    );
    expect(csvOf(campaignGeo.body)).toEqual([
      { country: 'FR', city: '', clicks: '5', invalid_clicks: '1', spent: '0.5' },
      { country: 'DE', city: 'Berlin', clicks: '2', invalid_clicks: '0', spent: '0.2' },
    ]);
    const siteGeo = csvOf(
      (await pub.api.get(`/api/sites/${pub.site}/geoclicks/export?${range}&format=csv`)).body,
    );
    expect(siteGeo.map((r) => [r.country, r.earned])).toEqual([
      ['FR', '0.3'],
      ['DE', '0.12'],
    ]);

    await clicksAt(adv, pub, '2026-06-01T10:00:00Z', 2, { referrer: 'https://news.example/a' });
    await createClicksRepository(t.database.db).refreshSources(new Date());
    const sources = await pub.api.get(
      `/api/sites/${pub.site}/click-sources/export?${range}&group=domain&format=csv`,
    );
    expect(sources.headers['content-disposition']).toContain('-click-sources-domain-');
    expect(csvOf(sources.body)).toEqual([
      { domain: 'news.example', widget_title: '', clicks: '2', invalid_clicks: '0', earned: '0.12' },
    ]);

    await t.database.db.insert(materialStats).values([
      {
        hour: new Date('2026-06-01T10:00:00Z'),
        siteId: pub.site,
        widgetId: pub.widget,
        materialId: 901,
        impressions: 40,
        clicks: 1,
      },
      {
        hour: new Date('2026-06-01T11:00:00Z'),
        siteId: pub.site,
        widgetId: pub.widget,
        materialId: 902,
        impressions: 10,
        clicks: 2,
      },
    ]);
    const top = await pub.api.get(
      `/api/sites/${pub.site}/toparticles/export?${range}&sort=clicks&format=csv`,
    );
    expect(csvOf(top.body)).toEqual([
      { material_id: '902', title: '', url: '', impressions: '10', clicks: '2', ctr: '20' },
      { material_id: '901', title: '', url: '', impressions: '40', clicks: '1', ctr: '2.5' },
    ]);
    // the same permissions as the lists: the advertiser reads none of the publisher's
    expect(
      (await adv.api.get(`/api/sites/${pub.site}/toparticles/export?${range}&format=csv`)).statusCode,
    ).toBe(404);
  });

  test("while the owner's statistics are held back, a file has its columns and no rows; admins get them", async () => {
    const adv = await owner();
    const pub = await owner();
    await clicksAt(adv, pub, '2026-06-01T10:00:00Z', 2);
    await insertRollups(t.database.db, {
      hour: new Date('2026-06-01T10:00:00Z'),
      campaignId: adv.campaign,
      bannerId: adv.banner,
      siteId: pub.site,
      widgetId: pub.widget,
      country: 'DE',
      device: '',
      os: '',
      browser: '',
      clicks: 2,
    });
    await t.database.db
      .update(users)
      .set({ statsAvailableAt: new Date(Date.now() + 3_600_000) })
      .where(eq(users.id, Number(adv.user_id)));
    const range = 'from=2026-06-01&to=2026-06-01';
    for (const list of ['clicks', 'geoclicks']) {
      const held = await adv.api.get(`/api/campaigns/${adv.campaign}/${list}/export?${range}&format=csv`);
      expect([list, held.statusCode]).toEqual([list, 200]);
      expect([list, parse(held.body, { bom: true })]).toEqual([list, [expect.any(Array)]]);
    }
    const all = await admin.get(`/api/campaigns/${adv.campaign}/clicks/export?${range}&format=csv`);
    expect(csvOf(all.body)).toHaveLength(2);
    const geo = await admin.get(`/api/campaigns/${adv.campaign}/geoclicks/export?${range}&format=csv`);
    expect(csvOf(geo.body)).toEqual([expect.objectContaining({ country: 'DE', clicks: '2' })]);
  });

  test('impressions by widget, the impression rate by widget and day, and pixel clicks', async () => {
    const adv = await owner();
    const pub = await owner();
    const at = new Date('2026-06-02T10:00:00Z');
    const dims = { country: '', device: '', os: '', browser: '' };
    await insertRollups(t.database.db, [
      {
        hour: at,
        ...dims,
        campaignId: adv.campaign,
        bannerId: adv.banner,
        siteId: pub.site,
        widgetId: pub.widget,
        impressions: 200,
        viewable: 150,
        clicks: 4,
        spent: 400_000n,
      },
      // bought through the exchange: no site, no widget
      {
        hour: at,
        ...dims,
        campaignId: adv.campaign,
        bannerId: adv.banner,
        siteId: 0,
        widgetId: 0,
        impressions: 50,
        spent: 20_000n,
      },
    ]);
    const range = 'from=2026-06-01&to=2026-06-02';
    const impressions = csvOf(
      (await adv.api.get(`/api/campaigns/${adv.campaign}/impressions/export?${range}&format=csv`)).body,
    );
    expect(impressions).toEqual([
      expect.objectContaining({
        source: 'widget',
        site_id: String(pub.site),
        widget_title: 'Below',
        impressions: '200',
        ctr: '2',
        spent: '0.4',
      }),
      expect.objectContaining({ source: 'exchange', site_id: '', impressions: '50', spent: '0.02' }),
    ]);
    const rate = csvOf(
      (await pub.api.get(`/api/sites/${pub.site}/impression-rate/export?${range}&format=csv`)).body,
    );
    expect(rate.map((r) => [r.widget_id, r.day, r.impressions, r.viewable, r.rate])).toEqual([
      [String(pub.widget), '2026-06-01', '0', '0', '0'],
      [String(pub.widget), '2026-06-02', '200', '150', '75'],
      [String(pub.widget), 'total', '200', '150', '75'],
    ]);

    const px = (await adv.api.post('/api/pixels', { pixel: { title: 'Checkout' } })).json();
    await clicksAt(adv, pub, '2026-06-01T10:00:00Z', 1, { visitorId: 'visitor-returning-file01' });
    await clicksAt(adv, pub, '2026-06-01T11:00:00Z', 1, { visitorId: 'visitor-never-back-file' });
    await t.database.db.insert(pixelVisitors).values({
      pixelId: Number(px._id),
      visitorId: 'visitor-returning-file01',
      lastUrl: 'https://shop.example/thanks',
      visits: 2,
      lastSeen: new Date('2026-06-01T10:30:00Z'),
    });
    const pixel = csvOf(
      (await adv.api.get(`/api/campaigns/${adv.campaign}/pixelclicks/export?${range}&format=csv`)).body,
    );
    expect(pixel).toEqual([
      expect.objectContaining({
        created_at: '2026-06-01T10:00:00.000Z',
        price: '0.1',
        pixel_title: 'Checkout',
        pixel_url: 'https://shop.example/thanks',
        pixel_seen_at: '2026-06-01T10:30:00.000Z',
        pixel_visits: '2',
      }),
    ]);
    expect(Object.keys(pixel[0]!)).not.toContain('ip');
  });
});
