import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { rollups } from '../../db/schema/index.ts';
import { insertRollups } from '../../test/rollups.ts';
import {
  ADMIN,
  as,
  createTestApp,
  liftStatsDelay,
  login,
  register,
  type TestApp,
} from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

let seq = 0;
/** A user (its first 24 hours over) with a campaign and a site. */
async function owner() {
  seq += 1;
  const u = await register(t.app);
  await liftStatsDelay(t, u.user_id);
  const api = as(t.app, u.access_token);
  const post = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    expect(res.statusCode).toBe(201);
    return res.json() as { _id: string };
  };
  const campaign = await post('/api/campaigns', { campaign: { title: `Export ${seq}`, clickprice: 0.1 } });
  const site = await post('/api/sites', {
    site: { title: 'Mag', domain: `export-${seq}-${u.user_id}.example`, category: 'news' },
  });
  return { ...u, api, campaign, site };
}

async function rollup(hour: string, values: Partial<typeof rollups.$inferInsert>) {
  await insertRollups(t.database.db, {
    hour: new Date(hour),
    campaignId: 0,
    bannerId: 0,
    siteId: 0,
    widgetId: 0,
    country: '',
    device: '',
    os: '',
    browser: '',
    ...values,
  });
}

/** A CSV answer's rows, numbers as numbers. */
function csvRows(body: string): (string | number)[][] {
  // the UTF-8 byte order mark first (Excel reads the file as UTF-8), then the rows
  expect(body.startsWith('\uFEFF')).toBe(true);
  const rows = parse(body, { bom: true }) as string[][];
  return rows.map((row, i) => (i === 0 ? row : row.map((v, j) => (j === 0 || v === '' ? v : Number(v)))));
}

/** The cells of an XLSX file's first sheet, read back with a ZIP and an XML reader. */
function xlsxRows(bytes: Uint8Array): (string | number)[][] {
  const files = unzipSync(bytes);
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['xl/workbook.xml', 'xl/worksheets/sheet1.xml']));
  const xml = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => ['row', 'c'].includes(name),
    parseTagValue: false,
  });
  const doc = xml.parse(new TextDecoder().decode(files['xl/worksheets/sheet1.xml']));
  return (
    doc.worksheet.sheetData.row as {
      c: { '@_t'?: string; v?: string; is?: { t: string | { '#text': string } } }[];
    }[]
  ).map((row) =>
    row.c.map((c) => {
      if (c['@_t'] === 'inlineStr')
        return typeof c.is?.t === 'object' ? c.is.t['#text'] : String(c.is?.t ?? '');
      return Number(c.v);
    }),
  );
}

const campaignHeader = [
  'country',
  'impressions',
  'viewable',
  'clicks',
  'invalid_clicks',
  'ctr',
  'spent',
  'ecpm',
  'vcpm',
  'conversions',
];

describe('statistics files', () => {
  test('a campaign by country as CSV and XLSX: the JSON answer’s rows in its order and a total row', async () => {
    const o = await owner();
    const c = Number(o.campaign._id);
    await rollup('2026-03-01T10:00:00Z', {
      campaignId: c,
      country: 'DE',
      impressions: 1000,
      viewable: 500,
      clicks: 4,
      invalidClicks: 1,
      conversions: 1,
      spent: 2_000_000n,
    });
    await rollup('2026-03-02T10:00:00Z', {
      campaignId: c,
      country: 'FR',
      impressions: 200,
      clicks: 1,
      spent: 500_000n,
    });
    // a day outside the range and another campaign: not in the file
    await rollup('2026-03-05T10:00:00Z', { campaignId: c, country: 'DE', impressions: 9, spent: 9_000_000n });
    await rollup('2026-03-01T10:00:00Z', { campaignId: c + 1000, country: 'DE', impressions: 7 });

    const query = 'from=2026-03-01&to=2026-03-03&group=country&tz=Europe/Berlin&sort=impressions&order=asc';
    const json = await o.api.get(`/api/stats/campaigns/${c}?${query}`);
    expect(json.statusCode).toBe(200);
    expect(json.json().rows.map((r: { key: string }) => r.key)).toEqual(['FR', 'DE']);

    const csv = await o.api.get(`/api/stats/campaigns/${c}/export?${query}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="stats-campaign-${c}-country-2026-03-01-2026-03-03.csv"`,
    );
    const rows = csvRows(csv.body);
    expect(rows).toEqual([
      campaignHeader,
      ['FR', 200, 0, 1, 0, 0.5, 0.5, 2.5, 0, 0],
      ['DE', 1000, 500, 4, 1, 0.4, 2, 2, 4, 1],
      ['total', 1200, 500, 5, 1, 0.42, 2.5, 2.083333, 5, 1],
    ]);

    const xlsx = await o.api.get(`/api/stats/campaigns/${c}/export?${query}&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsx.headers['content-disposition']).toContain('.xlsx"');
    expect(xlsxRows(new Uint8Array(xlsx.rawPayload))).toEqual(rows);
  });

  test('the same permissions as the JSON call: a stranger’s campaign is a 404, the platform a 403', async () => {
    const o = await owner();
    const other = await owner();
    const url = (id: string) => `/api/stats/campaigns/${id}/export?from=2026-03-01&to=2026-03-01&format=csv`;
    expect((await other.api.get(url(o.campaign._id))).statusCode).toBe(404);
    expect((await o.api.get(url('999999999'))).statusCode).toBe(404);
    expect((await admin.get(url(o.campaign._id))).statusCode).toBe(200);
    expect((await o.api.get('/api/stats/platform/export?format=csv')).statusCode).toBe(403);
    expect((await other.api.get(`/api/stats/users/${o.user_id}/export?format=csv`)).statusCode).toBe(404);
    // a format is needed, and only these two
    const bad = await o.api.get(`/api/stats/campaigns/${o.campaign._id}/export?format=pdf`);
    expect(bad.statusCode).toBe(422);
    expect((await o.api.get(`/api/stats/campaigns/${o.campaign._id}/export`)).statusCode).toBe(422);
  });

  test('the platform file has spent, earned and revenue; a site by day earned; the 24-hour rule a zero total', async () => {
    const o = await owner();
    const s = Number(o.site._id);
    await rollup('2026-03-02T05:00:00Z', {
      siteId: s,
      impressions: 100,
      clicks: 2,
      spent: 1_000_000n,
      earned: 600_000n,
    });

    const site = await o.api.get(
      `/api/stats/sites/${s}/export?from=2026-03-01&to=2026-03-02&group=day&format=csv`,
    );
    expect(csvRows(site.body)).toEqual([
      [
        'day',
        'impressions',
        'viewable',
        'clicks',
        'invalid_clicks',
        'ctr',
        'earned',
        'ecpm',
        'vcpm',
        'conversions',
      ],
      ['2026-03-01', 0, 0, 0, 0, 0, 0, 0, 0, 0],
      ['2026-03-02', 100, 0, 2, 0, 2, 0.6, 6, 0, 0],
      ['total', 100, 0, 2, 0, 2, 0.6, 6, 0, 0],
    ]);

    const platform = await admin.get(
      '/api/stats/platform/export?from=2026-03-02&to=2026-03-02&group=country&format=csv',
    );
    expect(platform.statusCode).toBe(200);
    expect(csvRows(platform.body)[0]).toEqual([
      'country',
      'impressions',
      'viewable',
      'clicks',
      'invalid_clicks',
      'ctr',
      'spent',
      'earned',
      'revenue',
      'ecpm',
      'vcpm',
      'conversions',
    ]);

    // a fresh self-registered user: its first 24 hours show nothing, in the file too
    const fresh = await register(t.app);
    const api = as(t.app, fresh.access_token);
    const campaign = await api.post('/api/campaigns', {
      campaign: { title: `Fresh ${seq}`, clickprice: 0.1 },
    });
    const id = campaign.json()._id as string;
    await rollup('2026-03-02T05:00:00Z', { campaignId: Number(id), impressions: 100 });
    const held = await api.get(`/api/stats/campaigns/${id}/export?from=2026-03-02&to=2026-03-02&format=csv`);
    expect(csvRows(held.body).slice(1)).toEqual([['total', 0, 0, 0, 0, 0, 0, 0, 0, 0]]);
  });

  test('the second tree: a site by day, unpaged, and by domain with names; rtb-stats: the total only', async () => {
    const o = await owner();
    const s = Number(o.site._id);
    await rollup('2026-03-01T05:00:00Z', { siteId: s, impressions: 10, earned: 100_000n });
    await rollup('2026-03-03T05:00:00Z', { siteId: s, impressions: 30, clicks: 3, earned: 300_000n });

    const days = await o.api.get(
      `/api/stats2/sites/revenue/export?id=${s}&from=2026-03-01&to=2026-03-03&limit=1&format=csv`,
    );
    expect(days.statusCode).toBe(200);
    expect(days.headers['content-disposition']).toBe(
      `attachment; filename="stats-sites-${s}-day-2026-03-01-2026-03-03.csv"`,
    );
    const rows = csvRows(days.body);
    expect(rows[0]?.[0]).toBe('day');
    // the file lists the days as the screen does: the newest first
    expect(rows.map((r) => [r[0], r[1]])).toEqual([
      ['day', 'impressions'],
      ['2026-03-03', 30],
      ['2026-03-02', 0],
      ['2026-03-01', 10],
      ['total', 40],
    ]);

    const bySite = await o.api.get(
      `/api/stats2/sites/site/export?id=${s}&from=2026-03-01&to=2026-03-03&format=xlsx`,
    );
    const sheet = xlsxRows(new Uint8Array(bySite.rawPayload));
    expect(sheet[0]?.slice(0, 3)).toEqual(['site', 'name', 'impressions']);
    expect(sheet[1]?.slice(0, 3)).toEqual([String(s), 'Mag', 40]);

    const other = await owner();
    expect((await other.api.get(`/api/stats2/sites/revenue/export?id=${s}&format=csv`)).statusCode).toBe(404);

    const rtb = await o.api.get(`/api/stats/campaigns/${o.campaign._id}/rtb/sources/export?format=csv`);
    expect(rtb.statusCode).toBe(200);
    expect(csvRows(rtb.body).map((r) => r[0])).toEqual(['source', 'total']);
    expect(
      (await other.api.get(`/api/stats/campaigns/${o.campaign._id}/rtb/export?format=csv`)).statusCode,
    ).toBe(404);
  });
  test('site, widget and creative keys carry their names where the viewer may read them', async () => {
    const adv = await owner();
    const pub = await owner();
    const c = Number(adv.campaign._id);
    const s = Number(pub.site._id);
    const made = async (api: typeof adv.api, url: string, body: unknown) => {
      const res = await api.post(url, body);
      expect(res.statusCode, res.body).toBe(201);
      return Number((res.json() as { _id: string })._id);
    };
    const boots = await made(adv.api, '/api/banners', {
      banner: { campaign_id: String(c), title: 'Boots, red', url: 'https://a.example/boots' },
    });
    const hats = await made(adv.api, '/api/banners', {
      banner: { campaign_id: String(c), title: 'Hats', url: 'https://a.example/hats' },
    });
    const below = await made(pub.api, '/api/widgets', {
      widget: { title: 'Below the article', site_id: String(s) },
    });
    for (const [bannerId, impressions] of [
      [boots, 30],
      [hats, 10],
    ] as const)
      await rollup('2026-04-01T10:00:00Z', {
        campaignId: c,
        bannerId,
        siteId: s,
        widgetId: below,
        impressions,
      });
    const range = 'from=2026-04-01&to=2026-04-01&format=csv';
    const keys = (body: string) => (parse(body, { bom: true }) as string[][]).map((r) => r.slice(0, 3));

    // the advertiser: its creatives named, the publisher's site by its id only (as on its screen)
    const creatives = await adv.api.get(`/api/stats/campaigns/${c}/export?${range}&group=creative`);
    expect(keys(creatives.body)).toEqual([
      ['creative', 'name', 'impressions'],
      [String(boots), 'Boots, red', '30'],
      [String(hats), 'Hats', '10'],
      ['total', '', '40'],
    ]);
    const sites = await adv.api.get(`/api/stats/campaigns/${c}/export?${range}&group=site`);
    expect(keys(sites.body)).toEqual([
      ['site', 'impressions', 'viewable'],
      [String(s), '40', '0'],
      ['total', '40', '0'],
    ]);
    // an admin reads every name
    const adminSites = await admin.get(`/api/stats/campaigns/${c}/export?${range}&group=site`);
    expect(keys(adminSites.body)).toEqual([
      ['site', 'name', 'impressions'],
      [String(s), 'Mag', '40'],
      ['total', '', '40'],
    ]);
    // the publisher: its widgets by name, in XLSX too; its user file by site
    const widgets = await pub.api.get(
      `/api/stats/sites/${s}/export?from=2026-04-01&to=2026-04-01&format=xlsx&group=widget`,
    );
    // (the reader leaves empty cells out: the total row has no name cell)
    expect(xlsxRows(new Uint8Array(widgets.rawPayload)).map((r) => r.slice(0, 3))).toEqual([
      ['widget', 'name', 'impressions'],
      [String(below), 'Below the article', 40],
      ['total', 40, 0],
    ]);
    const mine = await pub.api.get(`/api/stats/users/${pub.user_id}/export?${range}&group=site&as=publisher`);
    expect(keys(mine.body)).toEqual([
      ['site', 'name', 'impressions'],
      [String(s), 'Mag', '40'],
      ['total', '', '40'],
    ]);
    // the platform file by creative: every creative's name
    const platform = await admin.get(`/api/stats/platform/export?${range}&group=creative`);
    expect(keys(platform.body)).toContainEqual([String(boots), 'Boots, red', '30']);
  });
});
