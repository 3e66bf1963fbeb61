import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clicks, ledger, rollups, users } from '../../db/schema/index.ts';
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
import { createStatsRepository } from '../stats/stats.repository.ts';
import { csvFile, xlsxFile } from './report-files.ts';
import { createReportsRepository } from './reports.repository.ts';
import { createReportsService, EXPORT_CHUNK } from './reports.service.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

let seq = 0;
/** A user with a campaign (of an ads type), a creative, a site and a widget of its own. */
async function owner(adstype = 'default') {
  seq += 1;
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const post = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    expect(res.statusCode).toBe(201);
    return Number((res.json() as { _id: string })._id);
  };
  const campaign = await post('/api/campaigns', {
    campaign: { title: `Report ${seq} ${u.user_id}`, clickprice: 0.1 },
  });
  if (adstype !== 'default')
    await t.database.db.execute(sql`update campaigns set adstype = ${adstype} where id = ${campaign}`);
  const banner = await post('/api/banners', {
    banner: { campaign_id: String(campaign), title: 'Boots', url: 'https://a.example' },
  });
  const site = await post('/api/sites', {
    site: { title: `=Mag ${seq}`, domain: `reports-${seq}-${u.user_id}.example`, category: 'news' },
  });
  const widget = await post('/api/widgets', { widget: { title: `Below ${seq}`, site_id: String(site) } });
  return { ...u, api, campaign, banner, site, widget };
}

let key = 0;
async function rollup(hour: string, values: Partial<typeof rollups.$inferInsert>) {
  key += 1;
  await insertRollups(t.database.db, {
    hour: new Date(hour),
    campaignId: 0,
    bannerId: 0,
    siteId: 0,
    widgetId: 0,
    country: `R${key}`,
    device: '',
    os: '',
    browser: '',
    ...values,
  });
}

let clickSeq = 0;
async function click(values: Partial<typeof clicks.$inferInsert>) {
  clickSeq += 1;
  const [row] = await t.database.db
    .insert(clicks)
    .values({
      clickId: `rc${clickSeq}`,
      tokenKey: `rt${clickSeq}`,
      status: 'charged',
      campaignId: 0,
      bannerId: 0,
      siteId: 0,
      widgetId: 0,
      ...values,
    })
    .returning({ id: clicks.id });
  return row?.id ?? 0;
}

const get = async (query: string) => {
  const res = await admin.get(`/api/reports?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { rows: Record<string, unknown>[]; total: number };
};

describe('who may read reports', () => {
  test('admins and adminreadonly read; every other role is a 403; no token is a 401', async () => {
    const readonly = await userWithRole(t, 'adminreadonly');
    const url = '/api/reports?type=sites&from=2026-01-01&to=2026-01-02';
    expect((await as(t.app, readonly.access_token).get(url)).statusCode).toBe(200);
    expect(
      (await as(t.app, readonly.access_token).get(`/api/reportsexport?type=sites&format=csv`)).statusCode,
    ).toBe(200);
    for (const role of ['default', 'defaultreadonly', 'agency', 'agencymember', 'dummy']) {
      const u = await userWithRole(t, role);
      expect((await as(t.app, u.access_token).get(url)).statusCode, role).toBe(403);
      expect(
        (await as(t.app, u.access_token).get(`/api/reportsexport?type=clicks&format=xlsx`)).statusCode,
      ).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  test('bad filters are 422 on their field; an unknown id is a 404', async () => {
    const bad = async (query: string, field: string) => {
      const res = await admin.get(`/api/reports?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    await bad('type=nope', 'type');
    await bad('type=sites&from=2026-03-05&to=2026-03-01', 'from');
    await bad('type=sites&from=2024-01-01&to=2026-03-01', 'from');
    await bad('type=sites&from=2026-02-30', 'from');
    await bad('type=sites&tz=Mars/Base', 'tz');
    // a retired alias that Node's Intl still knows and the database's tz data does not: a 422 too, on the
    // report and on both files (the report was a 500, the CSV a header row and a cut connection, the XLSX a
    // 500), as soon as a row is read in it
    const o = await owner();
    // yesterday's noon (UTC): the morning of the same day in Los Angeles, whatever the hour of the run
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await rollup(`${yesterday}T12:00:00Z`, {
      campaignId: o.campaign,
      bannerId: o.banner,
      siteId: o.site,
      widgetId: o.widget,
      impressions: 10,
    });
    const retired = `type=sites&group=day&tz=US/Pacific-New&from=${yesterday}&to=${yesterday}`;
    await bad(retired, 'tz');
    for (const format of ['csv', 'xlsx']) {
      const file = await admin.get(`/api/reportsexport?${retired}&format=${format}`);
      expect(file.statusCode, format).toBe(422);
      expect(file.json().errors[0].field).toBe('tz');
    }
    await bad('type=sites&limit=501', 'limit');
    await bad('type=sites&group=week', 'group');
    const res = await admin.get('/api/reportsexport?type=sites&format=pdf');
    expect(res.statusCode).toBe(422);
    expect((await admin.get('/api/reports?type=sites&site_id=999999999')).statusCode).toBe(404);
    expect((await admin.get('/api/reportsexport?type=clicks&format=csv&user_id=999999999')).statusCode).toBe(
      404,
    );
  });
});

describe('statistics reports', () => {
  test('sites: per site in total and per day of the timezone, with owner, CTR, earned and eCPM; paged; by user', async () => {
    const a = await owner();
    const b = await owner();
    await rollup('2025-05-01T10:00:00Z', {
      siteId: a.site,
      widgetId: a.widget,
      impressions: 1000,
      clicks: 3,
      earned: 1_500_000n,
    });
    // 23:00 UTC is already May 2 in Berlin
    await rollup('2025-05-01T23:00:00Z', {
      siteId: a.site,
      widgetId: a.widget,
      impressions: 500,
      clicks: 1,
      earned: 250_000n,
    });
    await rollup('2025-05-02T10:00:00Z', { siteId: b.site, impressions: 3, clicks: 1, earned: 100_000n });
    // outside the range, and material without a site
    await rollup('2025-05-03T10:00:00Z', { siteId: a.site, impressions: 7 });
    await rollup('2025-05-01T12:00:00Z', { campaignId: a.campaign, impressions: 9 });

    const total = await get('type=sites&from=2025-05-01&to=2025-05-02');
    expect(total.total).toBe(2);
    expect(total.rows).toEqual([
      {
        site_id: String(a.site),
        site: `=Mag ${seq - 1}`,
        domain: expect.stringMatching(/^reports-/),
        user_id: a.user_id,
        user: a.email,
        impressions: 1500,
        clicks: 4,
        ctr: 0.27,
        earned: 1.75,
        ecpm: 1.166667,
      },
      expect.objectContaining({
        site_id: String(b.site),
        impressions: 3,
        clicks: 1,
        ctr: 33.33,
        earned: 0.1,
        ecpm: 33.333333,
      }),
    ]);

    const byDay = await get('type=sites&from=2025-05-01&to=2025-05-02&group=day&tz=Europe/Berlin');
    expect(byDay.total).toBe(3);
    expect(byDay.rows.map((r) => [r.day, r.site_id, r.impressions])).toEqual([
      ['2025-05-01', String(a.site), 1000],
      ['2025-05-02', String(a.site), 500],
      ['2025-05-02', String(b.site), 3],
    ]);
    const page2 = await get(
      'type=sites&from=2025-05-01&to=2025-05-02&group=day&tz=Europe/Berlin&limit=1&page=2',
    );
    expect(page2).toEqual({ total: 3, rows: [byDay.rows[1]] });

    const mine = await get(`type=sites&from=2025-05-01&to=2025-05-02&user_id=${b.user_id}`);
    expect(mine.rows.map((r) => r.site_id)).toEqual([String(b.site)]);
    const bySite = await get(`type=sites&from=2025-05-01&to=2025-05-02&site_id=${a.site}`);
    expect(bySite.rows.map((r) => r.site_id)).toEqual([String(a.site)]);
    // a user with no sites has no rows
    const none = await register(t.app);
    expect(await get(`type=sites&from=2025-05-01&to=2025-05-02&user_id=${none.user_id}`)).toEqual({
      rows: [],
      total: 0,
    });
  });

  test('campaigns, criteo and eCPMs', async () => {
    const a = await owner();
    const c = await owner('criteo');
    await rollup('2025-06-01T10:00:00Z', {
      campaignId: a.campaign,
      siteId: c.site,
      widgetId: c.widget,
      impressions: 200,
      clicks: 2,
      conversions: 1,
      spent: 400_000n,
      earned: 200_000n,
    });
    await rollup('2025-06-02T10:00:00Z', {
      campaignId: c.campaign,
      siteId: c.site,
      widgetId: c.widget,
      impressions: 100,
      clicks: 1,
      spent: 300_000n,
      earned: 100_000n,
    });

    const campaigns = await get('type=campaigns&from=2025-06-01&to=2025-06-02');
    expect(campaigns.rows).toEqual([
      {
        campaign_id: String(a.campaign),
        campaign: expect.stringMatching(/^Report /),
        user_id: a.user_id,
        user: a.email,
        impressions: 200,
        clicks: 2,
        ctr: 1,
        spent: 0.4,
        conversions: 1,
      },
      expect.objectContaining({
        campaign_id: String(c.campaign),
        impressions: 100,
        spent: 0.3,
        conversions: 0,
      }),
    ]);

    // criteo: only criteo campaigns, by day unless asked otherwise
    const criteo = await get('type=criteo&from=2025-06-01&to=2025-06-02');
    expect(criteo).toEqual({
      total: 1,
      rows: [
        {
          day: '2025-06-02',
          campaign_id: String(c.campaign),
          campaign: expect.any(String),
          user_id: c.user_id,
          user: c.email,
          impressions: 100,
          clicks: 1,
          ctr: 1,
          spent: 0.3,
          ecpm: 3,
        },
      ],
    });
    expect((await get(`type=criteo&from=2025-06-01&to=2025-06-02&campaign_id=${a.campaign}`)).total).toBe(0);

    const ecpms = await get(`type=ecpms&from=2025-06-01&to=2025-06-02&site_id=${c.site}`);
    expect(ecpms.rows).toEqual([
      {
        day: '2025-06-01',
        site_id: String(c.site),
        site: expect.any(String),
        widget_id: String(c.widget),
        widget: `Below ${seq}`,
        impressions: 200,
        earned: 0.2,
        ecpm: 1,
      },
      expect.objectContaining({
        day: '2025-06-02',
        widget_id: String(c.widget),
        impressions: 100,
        earned: 0.1,
        ecpm: 1,
      }),
    ]);
    const ecpmTotal = await get(`type=ecpms&from=2025-06-01&to=2025-06-02&site_id=${c.site}&group=total`);
    expect(ecpmTotal.rows).toEqual([
      expect.objectContaining({ widget_id: String(c.widget), impressions: 300, earned: 0.3, ecpm: 1 }),
    ]);
    expect(ecpmTotal.rows[0]).not.toHaveProperty('day');
  });
  test('reports read the smallest rollup table that answers them, and every table answers the same', async () => {
    const a = await owner();
    const b = await owner();
    for (const [hour, site, widget, campaign] of [
      ['2025-08-01T10:00:00Z', a.site, a.widget, a.campaign],
      ['2025-08-01T22:00:00Z', a.site, a.widget, b.campaign],
      ['2025-08-02T09:00:00Z', b.site, b.widget, a.campaign],
    ] as const)
      await rollup(hour, {
        siteId: site,
        widgetId: widget,
        campaignId: campaign,
        impressions: 10,
        clicks: 1,
      });
    const range = 'from=2025-08-01&to=2025-08-02&tz=Europe/Berlin';
    const queries = [
      `type=campaigns&${range}&group=day`,
      `type=campaigns&${range}&campaign_id=${a.campaign}`,
      `type=sites&${range}&group=day`,
      `type=ecpms&${range}&site_id=${b.site}`,
      `type=campaigns&${range}&site_id=${a.site}`,
      `type=sites&${range}&campaign_id=${a.campaign}`,
    ];
    const before = await Promise.all(queries.map(get));
    expect(before.map((r) => r.total)).toEqual([3, 1, 3, 1, 2, 2]);
    const mine = sql`campaign_id in (${a.campaign}, ${b.campaign}) or site_id in (${a.site}, ${b.site})`;
    // without their rows in the finest table the reports by campaign or by site alone answer the same
    const saved = await t.database.db.execute(
      sql`delete from ${rollups} where ${mine} and hour >= '2025-08-01' and hour < '2025-08-03' returning *`,
    );
    const after = await Promise.all(queries.slice(0, 4).map(get));
    expect(after).toEqual(before.slice(0, 4));
    // a report by campaign filtered by site (or the other way round) reads the finest table
    expect((await get(queries[4] as string)).total).toBe(0);
    expect((await get(queries[5] as string)).total).toBe(0);
    expect((saved as unknown as { rows: unknown[] }).rows).toHaveLength(3);
  });
});

describe('clicks, postback and affiliates', () => {
  test('raw clicks newest first with status and reason; conversions by their time; filters', async () => {
    const a = await owner();
    const old = await click({
      campaignId: a.campaign,
      siteId: a.site,
      price: 100_000n,
      publisherEarned: 50_000n,
      createdAt: new Date('2025-07-01T10:00:00Z'),
      convertedAt: new Date('2025-07-03T10:00:00Z'),
      conversionSum: 2_500_000n,
      conversionStatus: 'approved',
    });
    const bad = await click({
      campaignId: a.campaign,
      siteId: a.site,
      status: 'invalid',
      reason: 'bot',
      createdAt: new Date('2025-07-02T10:00:00Z'),
    });
    await click({ campaignId: a.campaign, createdAt: new Date('2025-07-05T10:00:00Z') });

    const all = await get(`type=clicks&from=2025-07-01&to=2025-07-02&campaign_id=${a.campaign}`);
    expect(all.total).toBe(2);
    expect(all.rows.map((r) => [r.status, r.reason])).toEqual([
      ['invalid', 'bot'],
      ['charged', null],
    ]);
    expect(all.rows[1]).toMatchObject({
      created_at: '2025-07-01T10:00:00.000Z',
      price: 0.1,
      publisher_earned: 0.05,
      site_id: String(a.site),
    });
    const invalid = await get(
      `type=clicks&from=2025-07-01&to=2025-07-02&status=invalid&user_id=${a.user_id}`,
    );
    expect(invalid.rows.map((r) => r.click_id)).toEqual([`rc${clickSeq - 1}`]);
    expect(bad).toBeGreaterThan(old);

    const postback = await get(`type=postback&from=2025-07-03&to=2025-07-03&campaign_id=${a.campaign}`);
    expect(postback).toEqual({
      total: 1,
      rows: [
        {
          converted_at: '2025-07-03T10:00:00.000Z',
          click_id: `rc${clickSeq - 2}`,
          conversion_status: 'approved',
          conversion_sum: 2.5,
          campaign_id: String(a.campaign),
          site_id: String(a.site),
          widget_id: '0',
          price: 0.1,
          created_at: '2025-07-01T10:00:00.000Z',
        },
      ],
    });
  });

  test('affiliates: referred users and the referral earnings of the range', async () => {
    const ref = await register(t.app);
    const friend = await register(t.app);
    const id = Number(ref.user_id);
    const late = await register(t.app);
    // the friend signed up in the range; the late one after it (counted in its own period only)
    await t.database.db.execute(
      sql`update ${users} set referrer_id = ${id}, earn_percent = 5, created_at = '2025-08-10T10:00:00Z'
        where id = ${Number(friend.user_id)}`,
    );
    await t.database.db.execute(
      sql`update ${users} set referrer_id = ${id}, created_at = '2025-09-10T10:00:00Z'
        where id = ${Number(late.user_id)}`,
    );
    await t.database.db.execute(sql`update ${users} set earn_percent = 10 where id = ${id}`);
    const earn = (sum: bigint, at: string) =>
      t.database.db
        .insert(ledger)
        .values({ userId: id, type: 'referral_earning', sum, balanceAfter: sum, createdAt: new Date(at) });
    await earn(1_250_000n, '2025-08-01T10:00:00Z');
    await earn(250_000n, '2025-08-02T10:00:00Z');
    await earn(9_000_000n, '2025-09-01T10:00:00Z');
    const res = await get(`type=affiliates&from=2025-08-01&to=2025-08-31&user_id=${id}`);
    expect(res).toEqual({
      total: 1,
      rows: [
        {
          user_id: String(id),
          user: ref.email,
          name: expect.any(String),
          earn_percent: 10,
          referred: 1,
          earned: 1.5,
        },
      ],
    });
    const september = await get(`type=affiliates&from=2025-09-01&to=2025-09-30&user_id=${id}`);
    expect(september.rows[0]).toMatchObject({ referred: 1, earned: 9 });
    // a period with neither referrals nor earnings lists no one
    expect((await get(`type=affiliates&from=2025-10-01&to=2025-10-31&user_id=${id}`)).total).toBe(0);
  });
});

/** The cells of an XLSX file's sheets, as their text, read back with a ZIP and an XML reader. */
function readXlsx(bytes: Uint8Array): { sheets: string[]; rows: (string | number)[][][] } {
  const files = unzipSync(bytes);
  const text = (name: string) => new TextDecoder().decode(files[name]);
  expect(Object.keys(files)).toEqual(
    expect.arrayContaining([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
    ]),
  );
  const xml = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => ['sheet', 'row', 'c'].includes(name),
    parseTagValue: false,
  });
  const sheets = (xml.parse(text('xl/workbook.xml')).workbook.sheets.sheet as { '@_name': string }[]).map(
    (s) => s['@_name'],
  );
  const rows = sheets.map((_, i) => {
    const doc = xml.parse(text(`xl/worksheets/sheet${i + 1}.xml`));
    return (
      (doc.worksheet.sheetData.row ?? []) as {
        c?: { '@_t'?: string; v?: string; is?: { t: string | { '#text': string } } }[];
      }[]
    ).map((row) =>
      (row.c ?? []).map((c) => {
        if (c['@_t'] === 'inlineStr')
          return typeof c.is?.t === 'object' ? c.is.t['#text'] : String(c.is?.t ?? '');
        return Number(c.v);
      }),
    );
  });
  return { sheets, rows };
}

describe('exports', () => {
  test('CSV and XLSX carry the same rows as the report, a header of the column keys and a file name', async () => {
    const a = await owner();
    await rollup('2025-10-01T10:00:00Z', {
      siteId: a.site,
      impressions: 1000,
      clicks: 3,
      earned: 1_500_000n,
    });
    await rollup('2025-10-02T10:00:00Z', { siteId: a.site, impressions: 10, clicks: 0, earned: 1n });
    const query = `type=sites&from=2025-10-01&to=2025-10-02&group=day&site_id=${a.site}`;
    const report = await get(query);

    const csv = await admin.get(`/api/reportsexport?${query}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="report-sites-2025-10-01-2025-10-02.csv"',
    );
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    const parsed = parse(csv.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(Object.keys(parsed[0] ?? {})).toEqual([
      'day',
      'site_id',
      'site',
      'domain',
      'user_id',
      'user',
      'impressions',
      'clicks',
      'ctr',
      'earned',
      'ecpm',
    ]);
    // the site's title starts with '=': a spreadsheet must not run it as a formula
    expect(parsed.map((r) => r.site)).toEqual([`'${report.rows[0]?.site}`, `'${report.rows[0]?.site}`]);
    expect(parsed.map(({ site: _, ...r }) => r)).toEqual(
      report.rows.map(({ site: _, ...r }) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)])),
      ),
    );

    const xlsx = await admin.get(`/api/reportsexport?${query}&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsx.headers['content-disposition']).toContain('report-sites-2025-10-01-2025-10-02.xlsx');
    const book = readXlsx(new Uint8Array(xlsx.rawPayload));
    expect(book.sheets).toEqual(['Report']);
    const [header, ...rows] = book.rows[0] ?? [];
    expect(header).toEqual(Object.keys(parsed[0] ?? {}));
    expect(rows).toEqual(report.rows.map((r) => (header ?? []).map((k) => r[k as string])));
  });

  test('exports read in keyset chunks give the same rows as the pages, across days, ids and equal times', async () => {
    const a = await owner();
    const b = await owner();
    for (const day of ['2025-12-01', '2025-12-02']) {
      await rollup(`${day}T10:00:00Z`, {
        siteId: a.site,
        widgetId: a.widget,
        impressions: 10,
        earned: 1000n,
      });
      await rollup(`${day}T11:00:00Z`, {
        siteId: b.site,
        widgetId: b.widget,
        impressions: 20,
        earned: 2000n,
      });
    }
    const at = new Date('2025-12-01T12:00:00Z');
    for (let i = 0; i < 5; i += 1) await click({ campaignId: a.campaign, createdAt: at });
    const service = createReportsService({
      repo: createReportsRepository(t.database.db),
      store: createStatsRepository(t.database.db),
      chunk: 2,
    });
    const all = async (filters: Parameters<typeof service.rows>[0]) => {
      const rows = [];
      for await (const chunk of await service.rows(filters)) rows.push(...chunk);
      return rows;
    };
    const range = { from: '2025-12-01', to: '2025-12-02', tz: 'UTC' };
    for (const [type, extra] of [
      ['sites', `&user_id=${a.user_id}`],
      ['sites', ''],
      ['ecpms', ''],
    ] as const) {
      for (const group of ['day', 'total'] as const) {
        const filters = { type, ...range, group, ...(extra ? { user_id: a.user_id } : {}) };
        const page = await get(`type=${type}&from=2025-12-01&to=2025-12-02&group=${group}${extra}&limit=500`);
        expect(await all(filters), `${type} ${group} ${extra}`).toEqual(page.rows);
      }
    }
    const clicksPage = await get(`type=clicks&from=2025-12-01&to=2025-12-01&campaign_id=${a.campaign}`);
    expect(clicksPage.total).toBe(5);
    expect(await all({ type: 'clicks', ...range, campaign_id: String(a.campaign) })).toEqual(clicksPage.rows);
  });

  test('an XLSX longer than a sheet goes on to the next sheet', async () => {
    const columns = [
      { key: 'n', kind: 'int' as const },
      { key: 'name', kind: 'text' as const },
    ];
    async function* chunks() {
      yield [
        { n: 1, name: 'a <b> & "c"' },
        { n: 2, name: null },
      ];
      yield [{ n: 3, name: 'x\u0001y' }];
    }
    const parts: Buffer[] = [];
    for await (const part of xlsxFile(columns, chunks(), 3)) parts.push(part as Buffer);
    const book = readXlsx(new Uint8Array(Buffer.concat(parts)));
    expect(book.sheets).toEqual(['Report', 'Report 2']);
    expect(book.rows).toEqual([
      [['n', 'name'], [1, 'a <b> & "c"'], [2]],
      [
        ['n', 'name'],
        [3, 'xy'],
      ],
    ]);
  });

  test('a click id is written as it is, though it starts like a formula: postbacks are matched on it', async () => {
    const a = await owner();
    await t.database.db.execute(sql`
      insert into clicks (click_id, token_key, status, campaign_id, banner_id, site_id, widget_id, price, created_at)
      values ('-dash1', 'dasht1', 'charged', ${a.campaign}, 0, ${a.site}, 0, 1000, timestamptz '2025-09-01T10:00:00Z')`);
    const res = await admin.get(
      `/api/reportsexport?type=clicks&format=csv&from=2025-09-01&to=2025-09-01&campaign_id=${a.campaign}`,
    );
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((r) => r.click_id)).toEqual(['-dash1']);
  });

  test('a big export streams: 100,000 clicks come out whole, read in chunks, the file starting before the reading ends', async () => {
    const a = await owner();
    await t.database.db.execute(sql`
      insert into clicks (click_id, token_key, status, campaign_id, banner_id, site_id, widget_id, price, created_at)
      select 'big' || n, 'bigt' || n, 'charged', ${a.campaign}, 0, ${a.site}, 0, 1000 * n,
        timestamptz '2025-11-01T00:00:00Z' + n * interval '1 second'
      from generate_series(1, 100000) n`);

    // through the service: the first bytes of the file are there after a few chunks of the 100
    const repo = createReportsRepository(t.database.db);
    let reads = 0;
    const counting = {
      ...repo,
      clicks: (...args: Parameters<typeof repo.clicks>) => {
        reads += 1;
        return repo.clicks(...args);
      },
    };
    const service = createReportsService({
      repo: counting,
      store: createStatsRepository(t.database.db),
    });
    const filters = {
      type: 'clicks' as const,
      from: '2025-11-01',
      to: '2025-11-03',
      tz: 'UTC',
      campaign_id: String(a.campaign),
    };
    const file = csvFile(service.columns(filters), await service.rows(filters));
    const reader = file[Symbol.asyncIterator]();
    let head = '';
    while (!head.includes('big')) head += String((await reader.next()).value);
    expect(head).toMatch(/^\uFEFFcreated_at,click_id,.*\n.*,big100000,/);
    // one chunk read (perhaps the next one under way), not the hundred of the whole file
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(2);
    file.destroy();

    // through HTTP: every row, newest first, once
    const res = await admin.get(
      `/api/reportsexport?type=clicks&format=csv&from=2025-11-01&to=2025-11-03&campaign_id=${a.campaign}`,
    );
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toHaveLength(100_000);
    expect(rows[0]).toMatchObject({
      click_id: 'big100000',
      price: '100',
      created_at: '2025-11-02T03:46:40.000Z',
    });
    expect(rows[99_999]).toMatchObject({ click_id: 'big1', price: '0.001' });
    expect(new Set(rows.map((r) => r.click_id)).size).toBe(100_000);
    expect(100_000 / EXPORT_CHUNK).toBe(100);
  }, 120_000);
});
