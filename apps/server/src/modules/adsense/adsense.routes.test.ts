import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adsenseCredits, agencies, agencyMembers, sites, users } from '../../db/schema/index.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

let t: TestApp;
let admin: ReturnType<typeof as>;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).access_token;
  admin = as(t.app, adminToken);
});
afterAll(() => t.close());

function upload(file: Buffer, token = adminToken, filename = 'adsense.csv', lang = 'en') {
  const boundary = 'adsenseb0undary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/adsense/upload',
    payload,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'accept-language': lang,
    },
  });
}

async function publisherWithSite(domain: string) {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (await api.post('/api/sites', { site: { title: domain, domain, category: 'news' } })).json();
  return { ...u, api, site };
}
const balanceOf = async (userId: string) =>
  (await admin.get(`/api/users/${userId}`)).json().balance as number;

let news: Awaited<ReturnType<typeof publisherWithSite>>;
let recipes: Awaited<ReturnType<typeof publisherWithSite>>;
beforeAll(async () => {
  news = await publisherWithSite('news.example');
  recipes = await publisherWithSite('recipes.example');
  // recipes.example earns 70 % by its billing widget's terms (set by an admin); news.example has no
  // widget and earns a new widget's default 50 %
  const w = (
    await recipes.api.post('/api/widgets', { widget: { title: 'Sidebar', site_id: recipes.site._id } })
  ).json();
  await admin.put(`/api/widgets/${w._id}`, { widget: { earn_processor: 'percent', earn_value: 70 } });
  await admin.put(`/api/sites/${recipes.site._id}`, { site: { billing_widget: w._id } });
});

describe('AdSense incomes', () => {
  test('the current UTF-8 report: rows mapped to sites by domain, bad rows with translated errors, totals skipped', async () => {
    const res = await upload(fixture('adsense-current.csv'), adminToken, 'report-nov.csv');
    expect(res.statusCode).toBe(201);
    const imp = res.json();
    expect(imp).toMatchObject({
      file_name: 'report-nov.csv',
      format: 'current',
      currency: 'USD',
      status: 'uploaded',
      rows_count: 5,
      error_rows: 2,
      adsense_revenue: 77.14,
    });
    const [a, b, c, d, e] = imp.rows;
    expect(a).toMatchObject({
      line: 2,
      date: '2026-11-01',
      source: 'news.example',
      site_id: news.site._id,
      user_id: news.user_id,
      page_views: 12480,
      impressions: 31950,
      clicks: 142,
      adsense_revenue: 30.08,
      site_income: 15.04,
      own_income: 15.04,
      errors: [],
    });
    expect(b).toMatchObject({
      site_id: recipes.site._id,
      adsense_revenue: 7.89,
      site_income: 5.523,
      own_income: 2.367,
    });
    expect(c).toMatchObject({ date: '2026-11-02', clicks: 139, errors: [] });
    expect(d).toMatchObject({ source: 'unknown-blog.example', site_id: null, site_income: null });
    expect(d.errors).toEqual([
      { field: 'site_id', code: 'adsense_no_site', detail: 'No site matches this row: choose one' },
    ]);
    expect(e.errors).toEqual([{ field: 'date', code: 'adsense_date', detail: 'The date cannot be read' }]);
    // the list and the detail show the same import; nobody has been credited yet
    const list = (await admin.get('/api/adsense?page=1&limit=10')).json();
    expect(list).toMatchObject({ total: 1, page: 1, limit: 10 });
    expect(list.items[0]).toMatchObject({ _id: imp._id, status: 'uploaded', rows_count: 5, error_rows: 2 });
    expect((await admin.get(`/api/adsense/${imp._id}`)).json().rows).toHaveLength(5);
    expect(await balanceOf(news.user_id)).toBe(0);
  });

  test('the legacy UTF-16 LE tab-separated export reads, with URLs and www. mapped and errors in German', async () => {
    const res = await upload(fixture('adsense-legacy.csv'), adminToken, 'legacy.csv', 'de');
    expect(res.statusCode).toBe(201);
    const imp = res.json();
    expect(imp).toMatchObject({ format: 'legacy', currency: 'USD', rows_count: 3, error_rows: 1 });
    expect(imp.rows[0]).toMatchObject({
      date: '2026-10-30',
      source: 'www.news.example',
      site_id: news.site._id,
      page_views: 11020,
      impressions: 28400,
      clicks: 120,
      adsense_revenue: 25.2,
    });
    expect(imp.rows[1]).toMatchObject({ source: 'https://recipes.example/', site_id: recipes.site._id });
    expect(imp.rows[2].errors).toEqual([
      { field: 'clicks', code: 'adsense_number', detail: 'Klicks ist keine Zahl' },
    ]);
  });

  test('a broken file is a translated 422 on file, and nothing is kept', async () => {
    const before = (await admin.get('/api/adsense')).json().total;
    const notReport = await upload(fixture('adsense-broken.csv'));
    expect(notReport.statusCode).toBe(422);
    expect(notReport.json().errors[0]).toMatchObject({ field: 'file', code: 'adsense_columns' });
    expect(notReport.json().errors[0].detail).toContain('Date');
    const binary = await upload(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    expect(binary.statusCode).toBe(422);
    expect(binary.json().errors[0]).toMatchObject({ field: 'file', code: 'invalid_file' });
    const headerOnly = await upload(Buffer.from('Date,Site,Estimated earnings (USD)\n'));
    expect(headerOnly.json().errors[0]).toMatchObject({ field: 'file', code: 'invalid_file' });
    const noRate = await upload(
      Buffer.from('Date,Site,Estimated earnings (XYZ)\n2026-11-01,news.example,1.00\n'),
    );
    expect(noRate.statusCode).toBe(422);
    expect(noRate.json().errors[0]).toMatchObject({ field: 'file', code: 'adsense_currency' });
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/adsense/upload',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect([415, 422]).toContain(empty.statusCode);
    expect((await admin.get('/api/adsense')).json().total).toBe(before);
  });

  test('concurrent approvals credit each publisher once; the admin maps the unknown row; a re-upload is flagged', async () => {
    const imp = (await upload(fixture('adsense-current.csv'))).json();
    const unknown = imp.rows.find((r: { source: string }) => r.source === 'unknown-blog.example');
    const newsBefore = await balanceOf(news.user_id);
    const recipesBefore = await balanceOf(recipes.user_id);
    const body = { adsense: { _id: imp._id, rows: [{ _id: unknown._id, site_id: news.site._id }] } };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => admin.post('/api/adsense/approve', body)),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409]);
    const approved = answers.find((r) => r.statusCode === 200)!.json();
    expect(approved).toMatchObject({ status: 'approved', approved_by: expect.any(String), error_rows: 1 });
    expect(approved.rows.find((r: { _id: string }) => r._id === unknown._id)).toMatchObject({
      site_id: news.site._id,
      site_income: 0.5,
      errors: [],
    });
    // news: (30.08 + 30.36 + 1.00) × 50 %; recipes: 7.89 × 70 % (the bad-date row is not credited)
    expect(await balanceOf(news.user_id)).toBe(newsBefore + 30.72);
    expect(await balanceOf(recipes.user_id)).toBe(recipesBefore + 5.523);
    expect(await t.ctxLedgerSum(news.user_id)).toBe(await balanceOf(news.user_id));
    const ledger = (await news.api.get(`/api/users/${news.user_id}/transactions`)).json();
    expect(ledger.items.filter((e: { source: string }) => e.source === 'adsense')).toHaveLength(1);
    expect(ledger.items[0]).toMatchObject({ type: 'publisher_earning', sum: 30.72 });
    const conflict = answers.find((r) => r.statusCode === 409)!.json();
    expect(JSON.stringify(conflict)).toContain('This import has already been approved');
    // the same report again: the days already credited are flagged and approving it credits nothing more
    const again = (await upload(fixture('adsense-current.csv'))).json();
    expect(again.rows[0].errors).toEqual([
      expect.objectContaining({ field: 'date', code: 'adsense_duplicate' }),
    ]);
    expect((await admin.post('/api/adsense/approve', { adsense: { _id: again._id } })).statusCode).toBe(200);
    expect(await balanceOf(news.user_id)).toBe(newsBefore + 30.72);
    expect(await balanceOf(recipes.user_id)).toBe(recipesBefore + 5.523);

    // the publisher's site page lists its credited days, once (the re-upload credited none), the mapped
    // row adding to its day; another publisher may not look
    const days = await news.api.get(`/api/sites/${news.site._id}/adsense-incomes`);
    expect(days.statusCode, days.body).toBe(200);
    expect(days.json()).toMatchObject({
      total: 2,
      items: [
        {
          date: '2026-11-02',
          page_views: 12_732,
          impressions: 32_014,
          clicks: 145,
          site_income: 15.68,
          // no agency: the owner got the whole share
          publisher_income: 15.68,
        },
        { date: '2026-11-01', page_views: 12_480, impressions: 31_950, clicks: 142, site_income: 15.04 },
      ],
    });
    expect(days.json().items.map((d: { import_id: string }) => d.import_id)).toEqual([imp._id, imp._id]);
    expect((await recipes.api.get(`/api/sites/${news.site._id}/adsense-incomes`)).statusCode).toBe(404);
    expect((await admin.get(`/api/sites/${news.site._id}/adsense-incomes?limit=1`)).json()).toMatchObject({
      total: 2,
      items: [{ date: '2026-11-02' }],
    });
  });

  test('approval payload is checked: unknown import 404, unknown site or row 422', async () => {
    expect((await admin.post('/api/adsense/approve', { adsense: { _id: '999999' } })).statusCode).toBe(404);
    const imp = (await upload(fixture('adsense-legacy.csv'))).json();
    const badSite = await admin.post('/api/adsense/approve', {
      adsense: { _id: imp._id, rows: [{ _id: imp.rows[0]._id, site_id: '999999' }] },
    });
    expect(badSite.statusCode).toBe(422);
    expect(badSite.json().errors[0]).toMatchObject({ field: 'rows.0.site_id', code: 'unknown_id' });
    const badRow = await admin.post('/api/adsense/approve', {
      adsense: { _id: imp._id, rows: [{ _id: '999999', site_id: news.site._id }] },
    });
    expect(badRow.statusCode).toBe(422);
    expect((await admin.get(`/api/adsense/${imp._id}`)).json().status).toBe('uploaded');
    expect((await admin.post('/api/adsense/approve', { adsense: {} })).statusCode).toBe(422);
    expect((await admin.get('/api/adsense/999999')).statusCode).toBe(404);
  });

  test('admins only: read-only admins may look, publishers get 403 everywhere', async () => {
    const ro = await userWithRole(t, 'adminreadonly');
    const roApi = as(t.app, ro.access_token);
    const first = (await admin.get('/api/adsense')).json().items[0];
    expect((await roApi.get('/api/adsense')).statusCode).toBe(200);
    expect((await roApi.get(`/api/adsense/${first._id}`)).statusCode).toBe(200);
    expect((await upload(fixture('adsense-current.csv'), ro.access_token)).statusCode).toBe(403);
    expect((await roApi.post('/api/adsense/approve', { adsense: { _id: first._id } })).statusCode).toBe(403);
    for (const token of [news.access_token, (await userWithRole(t, 'agency')).access_token]) {
      const api = as(t.app, token);
      expect((await api.get('/api/adsense')).statusCode).toBe(403);
      expect((await api.get(`/api/adsense/${first._id}`)).statusCode).toBe(403);
      expect((await upload(fixture('adsense-current.csv'), token)).statusCode).toBe(403);
      expect((await api.post('/api/adsense/approve', { adsense: { _id: first._id } })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/adsense' })).statusCode).toBe(401);
  });

  const report = (lines: string[]) =>
    Buffer.from(['Date,Site,Page views,Impressions,Clicks,Estimated earnings (USD)', ...lines].join('\n'));

  test('a source names a site only as a whole name; the same row twice in one file is credited once', async () => {
    const res = await upload(
      report([
        '2026-10-01,news.example - sidebar,1,1,1,1.00',
        '2026-10-01,recipes_example_top,1,1,1,1.00',
        '2026-10-01,notnews.example,1,1,1,1.00',
        '2026-10-01,news.example.attacker.net,1,1,1,1.00',
        '2026-10-02,news.example - top,1,1,1,2.00',
        '2026-10-02,news.example - sidebar,1,1,1,2.00',
        '2026-10-02,News.example - sidebar,1,1,1,2.00',
      ]),
      adminToken,
    );
    expect(res.statusCode, res.body).toBe(201);
    const rows = res.json().rows as { site_id: string | null; errors: { code: string }[] }[];
    expect(rows.map((r) => r.site_id)).toEqual([
      news.site._id,
      recipes.site._id,
      null,
      null,
      news.site._id,
      news.site._id,
      news.site._id,
    ]);
    // two ad units of one site day are two incomes; the same unit's row again is the same income
    expect(rows.map((r) => r.errors.map((e) => e.code))).toEqual([
      [],
      [],
      ['adsense_no_site'],
      ['adsense_no_site'],
      [],
      [],
      ['adsense_repeated'],
    ]);
  });

  test("a site's affiliate gets its percent of the platform's part of the site's AdSense income", async () => {
    const owner = await publisherWithSite('affiliated.example');
    const affiliate = await register(t.app);
    const set = await admin.put(`/api/sites/${owner.site._id}`, {
      site: { affiliate_user_id: affiliate.user_id, affiliate_earn_percent: 10 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const before = await balanceOf(affiliate.user_id);
    const imp = (await upload(report(['2026-12-02,affiliated.example,100,200,10,40.00']))).json();
    // the site's share 20.00; the platform's 20.00 pays the affiliate 10 % = 2.00 and keeps 18.00
    expect(imp.rows[0]).toMatchObject({ site_income: 20, own_income: 18 });
    const res = await admin.post('/api/adsense/approve', { adsense: { _id: imp._id } });
    expect(res.statusCode).toBe(200);
    expect(await balanceOf(affiliate.user_id)).toBe(before + 2);
    expect(await t.ctxLedgerSum(affiliate.user_id)).toBe(await balanceOf(affiliate.user_id));
  });

  test("an agency member's site: the agency gets its rate of the share, the referrer its percent of the platform's", async () => {
    const member = await publisherWithSite('agency-member.example');
    const agencyUser = await register(t.app);
    const referrer = await register(t.app);
    const { db } = t.database;
    await db
      .update(users)
      .set({ role: 'agency' })
      .where(eq(users.id, Number(agencyUser.user_id)));
    const [agency] = await db
      .insert(agencies)
      .values({ userId: Number(agencyUser.user_id), title: 'Agency', agencyRate: '20' })
      .returning();
    await db.insert(agencyMembers).values({ agencyId: agency!.id, userId: Number(member.user_id) });
    await db
      .update(users)
      .set({ role: 'agencymember', referrerId: Number(referrer.user_id) })
      .where(eq(users.id, Number(member.user_id)));
    await db
      .update(users)
      .set({ earnPercent: '5' })
      .where(eq(users.id, Number(referrer.user_id)));
    const before = {
      member: await balanceOf(member.user_id),
      agency: await balanceOf(agencyUser.user_id),
      referrer: await balanceOf(referrer.user_id),
    };
    const imp = (await upload(report(['2026-12-01,agency-member.example,100,200,10,40.00']))).json();
    // the preview shows what approval will book: own income without the referrer's part
    expect(imp.rows[0]).toMatchObject({ site_income: 20, own_income: 19 });
    const res = await admin.post('/api/adsense/approve', { adsense: { _id: imp._id } });
    expect(res.statusCode).toBe(200);
    // the site's share: 40.00 × 50 % = 20.00; the agency's 20 % of it is 4.00, the publisher keeps 16.00;
    // the platform's 20.00 pays the referrer 5 % = 1.00 and keeps 19.00 (its own income)
    expect(res.json().rows[0]).toMatchObject({ site_income: 20, own_income: 19 });
    expect(res.json()).toMatchObject({ adsense_revenue: 40, site_income: 20, own_income: 19 });
    expect(await balanceOf(member.user_id)).toBe(before.member + 16);
    expect(await balanceOf(agencyUser.user_id)).toBe(before.agency + 4);
    expect(await balanceOf(referrer.user_id)).toBe(before.referrer + 1);
    for (const id of [member.user_id, agencyUser.user_id, referrer.user_id])
      expect(await t.ctxLedgerSum(id)).toBe(await balanceOf(id));
    const agencyLedger = (
      await as(t.app, agencyUser.access_token).get(`/api/users/${agencyUser.user_id}/transactions`)
    ).json();
    expect(agencyLedger.items[0]).toMatchObject({ type: 'agency_earning', sum: 4, source: 'adsense' });
    // each credited user is told once, with what this import credited them
    for (const [who, sum] of [
      [member, 16],
      [agencyUser, 4],
      [referrer, 1],
    ] as const) {
      const notes = (await as(t.app, who.access_token).get('/api/notifications?type=adsense_income')).json()
        .items;
      expect(notes).toEqual([
        expect.objectContaining({ user_id: who.user_id, payload: { import_id: imp._id, sum } }),
      ]);
    }

    // the site's own agency rate wins over the agency's
    await db
      .update(sites)
      .set({ agencyRate: '50' })
      .where(eq(sites.id, Number(member.site._id)));
    const next = (await upload(report(['2026-12-02,agency-member.example,100,200,10,10.00']))).json();
    expect((await admin.post('/api/adsense/approve', { adsense: { _id: next._id } })).statusCode).toBe(200);
    expect(await balanceOf(member.user_id)).toBe(before.member + 16 + 2.5);
    expect(await balanceOf(agencyUser.user_id)).toBe(before.agency + 4 + 2.5);
    // the member's site page says what the site earned and what the member got of it
    const days = (
      await as(t.app, member.access_token).get(`/api/sites/${member.site._id}/adsense-incomes`)
    ).json();
    expect(days.items).toEqual([
      expect.objectContaining({ date: '2026-12-02', site_income: 5, publisher_income: 2.5 }),
      expect.objectContaining({ date: '2026-12-01', site_income: 20, publisher_income: 16 }),
    ]);
  });

  test('two different imports of the same site day approved at once: credited once', async () => {
    const pub = await publisherWithSite('race-day.example');
    const before = await balanceOf(pub.user_id);
    const day = '2026-12-05,race-day.example,100,200,10,8.00';
    const a = (await upload(report([day]))).json();
    const b = (await upload(report([day, '2026-12-06,race-day.example,100,200,10,2.00']))).json();
    const answers = await Promise.all(
      [a, b].map((imp) => admin.post('/api/adsense/approve', { adsense: { _id: imp._id } })),
    );
    // whichever commits second either sees the first (its day flagged as a duplicate) or, racing past that
    // check, hits the site-day key: a translated 409 and nothing of it kept
    for (const r of answers) expect([200, 409]).toContain(r.statusCode);
    const refused = answers.find((r) => r.statusCode === 409);
    if (refused) expect(refused.json().message).toContain('Another import credited');
    const credits = await t.database.db
      .select()
      .from(adsenseCredits)
      .where(eq(adsenseCredits.siteId, Number(pub.site._id)));
    expect(credits.filter((c) => c.date === '2026-12-05')).toHaveLength(1);
    const balance = await balanceOf(pub.user_id);
    expect([before + 4, before + 5]).toContain(balance);
    expect(await t.ctxLedgerSum(pub.user_id)).toBe(balance);
    // approving the refused one again (if any) credits only its other day
    if (refused) {
      const again = await admin.post('/api/adsense/approve', {
        adsense: { _id: answers[0]!.statusCode === 409 ? a._id : b._id },
      });
      expect(again.statusCode).toBe(200);
    }
    expect(await balanceOf(pub.user_id)).toBe(before + 5);
  });

  test('a site day claimed by another import after the check is a translated 409; nothing is credited', async () => {
    const pub = await publisherWithSite('claimed-day.example');
    const before = await balanceOf(pub.user_id);
    const other = (await upload(report(['2026-12-07,claimed-day.example,1,1,1,1.00']))).json();
    const imp = (await upload(report(['2026-12-07,claimed-day.example,100,200,10,8.00']))).json();
    // as if the other import's approval committed between this one's check and its claim
    await t.database.db
      .insert(adsenseCredits)
      .values({ siteId: Number(pub.site._id), date: '2026-12-07', importId: Number(other._id) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/adsense/approve',
      payload: { adsense: { _id: imp._id } },
      headers: { authorization: `Bearer ${adminToken}`, 'accept-language': 'de' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('Ein anderer Import');
    expect((await admin.get(`/api/adsense/${imp._id}`)).json().status).toBe('uploaded');
    expect(await balanceOf(pub.user_id)).toBe(before);
  });
});
