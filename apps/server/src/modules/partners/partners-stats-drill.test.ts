import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { users } from '../../db/schema/index.ts';
import { publisherWithWidget } from '../../delivery/delivery-fixtures.test-helper.ts';
import { insertRollups } from '../../test/rollups.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

test("an agency group's stats drill-down (key) answers only the chosen value's row and total", async () => {
  const p = await publisherWithWidget(t, admin);
  await t.database.db
    .update(users)
    .set({ role: 'agency' })
    .where(eq(users.id, Number(p.user_id)));
  const group = await admin.post('/api/partners', { partner: { title: 'Drill group', user_id: p.user_id } });
  expect(group.statusCode, group.body).toBe(201);
  const row = (country: string, device: string, impressions: number) => ({
    hour: new Date('2026-07-01T10:00:00Z'),
    campaignId: 1,
    bannerId: 1,
    siteId: Number(p.site._id),
    widgetId: Number(p.widget._id),
    country,
    city: country === 'DE' ? 'Berlin' : 'Paris',
    device,
    os: 'Windows',
    browser: 'Chrome',
    impressions,
    clicks: 1,
    earned: 1_000n * BigInt(impressions),
  });
  await insertRollups(t.database.db, [row('DE', 'desktop', 7), row('FR', 'mobile', 3)]);
  const base = `/api/partners/${group.json()._id}/stats`;
  const range = 'from=2026-07-01&to=2026-07-01';

  const all = (await admin.get(`${base}/country?${range}`)).json();
  expect(all.rows.map((r: { key: string }) => r.key)).toEqual(['DE', 'FR']);
  const de = (await admin.get(`${base}/country?${range}&key=de`)).json();
  expect(de).toMatchObject({ count: 1, rows: [{ key: 'DE', impressions: 7 }] });
  expect(de.total).toMatchObject({ impressions: 7, clicks: 1, earned: 0.007 });
  const paris = (await admin.get(`${base}/city?${range}&key=Paris`)).json();
  expect(paris.total).toMatchObject({ impressions: 3, earned: 0.003 });
  const mobile = (await admin.get(`${base}/device?${range}&key=mobile`)).json();
  expect(mobile.rows).toEqual([expect.objectContaining({ key: 'mobile', impressions: 3 })]);
  const os = (await admin.get(`${base}/os?${range}&key=Windows`)).json();
  expect(os.total.impressions).toBe(10);
  const site = (await admin.get(`${base}/site?${range}&key=${p.site._id}`)).json();
  expect(site.total.impressions).toBe(10);
  const none = (await admin.get(`${base}/country?${range}&key=US`)).json();
  expect(none).toMatchObject({ rows: [], count: 0, total: { impressions: 0, earned: 0 } });
});

test("an agency group's stats by day list the newest day first: today is on page 1", async () => {
  const p = await publisherWithWidget(t, admin);
  await t.database.db
    .update(users)
    .set({ role: 'agency' })
    .where(eq(users.id, Number(p.user_id)));
  const group = (
    await admin.post('/api/partners', { partner: { title: 'Days group', user_id: p.user_id } })
  ).json();
  const today = new Date().toISOString().slice(0, 10);
  const hourOf = (daysAgo: number) => new Date(Date.parse(`${today}T10:00:00Z`) - daysAgo * 86_400_000);
  const row = (daysAgo: number, impressions: number) => ({
    hour: hourOf(daysAgo),
    campaignId: 1,
    bannerId: 1,
    siteId: Number(p.site._id),
    widgetId: Number(p.widget._id),
    country: 'DE',
    city: '',
    device: 'desktop',
    os: '',
    browser: '',
    impressions,
    clicks: 0,
    earned: 0n,
  });
  await insertRollups(t.database.db, [row(0, 5), row(29, 2)]);
  const from = hourOf(29).toISOString().slice(0, 10);
  const base = `/api/partners/${group._id}/stats/revenue?from=${from}&to=${today}&tz=UTC&limit=10`;
  const first = (await admin.get(base)).json();
  expect(first.count).toBe(30);
  expect(first.rows[0]).toMatchObject({ key: today, impressions: 5 });
  const keys = first.rows.map((r: { key: string }) => r.key);
  expect(keys).toEqual([...keys].sort().reverse());
  const last = (await admin.get(`${base}&page=3`)).json();
  expect(last.rows.at(-1)).toMatchObject({ key: from, impressions: 2 });
  // an explicit order still wins
  const asc = (await admin.get(`${base}&sort=key&order=asc`)).json();
  expect(asc.rows[0].key).toBe(from);
});

test("an agency group's exchange statistics (source=dsp): its sites' slots sold to DSP partners, by partner and drilled", async () => {
  const p = await publisherWithWidget(t, admin);
  const other = await publisherWithWidget(t, admin);
  await t.database.db
    .update(users)
    .set({ role: 'agency' })
    .where(eq(users.id, Number(p.user_id)));
  const group = (
    await admin.post('/api/partners', { partner: { title: 'Dsp group', user_id: p.user_id } })
  ).json();
  const dsp = async (name: string) =>
    (
      await admin.post('/api/dsppartners', {
        dsppartner: { name, endpoint: 'https://dsp.example/rtb', status: 'inactive' },
      })
    ).json()._id as string;
  const [a, b] = [await dsp('Group DSP A'), await dsp('Group DSP B')];
  const row = (dspPartnerId: string, siteId: string, wins: number, country = 'DE') => ({
    hour: new Date('2026-07-02T10:00:00Z'),
    dspPartnerId: Number(dspPartnerId),
    siteId: Number(siteId),
    widgetId: 0,
    campaignId: 0,
    rtbPartnerId: 0,
    country,
    city: '',
    device: 'mobile',
    os: '',
    requests: wins,
    bids: wins,
    wins,
    revenue: 2_000n * BigInt(wins),
  });
  await contextOf(t.app).dspPartners.stats.write([
    row(a, p.site._id, 3),
    row(b, p.site._id, 2, 'FR'),
    // another publisher's site, outside the group
    row(a, other.site._id, 50),
  ]);
  const base = `/api/partners/${group._id}/stats`;
  const range = 'from=2026-07-02&to=2026-07-02&tz=UTC';
  const byPartner = (await admin.get(`${base}/partner?${range}&source=dsp`)).json();
  expect(byPartner.rows).toEqual([
    expect.objectContaining({ key: a, name: 'Group DSP A', impressions: 3, earned: 0.006 }),
    expect.objectContaining({ key: b, name: 'Group DSP B', impressions: 2 }),
  ]);
  expect(byPartner.total.impressions).toBe(5);
  // one DSP partner by day (dsp/partners/{dspId})
  const days = (await admin.get(`${base}/revenue?${range}&source=dsp&partner_id=${a}`)).json();
  expect(days.rows).toEqual([expect.objectContaining({ key: '2026-07-02', impressions: 3 })]);
  // over several days the newest comes first, as in the sites' own tree
  const week = (await admin.get(`${base}/revenue?from=2026-06-26&to=2026-07-02&tz=UTC&source=dsp`)).json();
  expect(week.rows.map((r: { key: string }) => r.key).slice(0, 2)).toEqual(['2026-07-02', '2026-07-01']);
  // a country by its English name (phoenix/geo/{countryName})
  const france = (await admin.get(`${base}/country?${range}&source=dsp&key=France`)).json();
  expect(france).toMatchObject({ count: 1, rows: [{ key: 'FR', impressions: 2 }] });
  // the sites' own traffic has no DSP partners
  expect((await admin.get(`${base}/partner?${range}`)).json().rows).toEqual([]);
});
