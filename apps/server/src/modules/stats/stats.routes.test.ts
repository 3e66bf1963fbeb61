import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rollups } from '../../db/schema/index.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

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
  const campaign = await post('/api/campaigns', { campaign: { title: `Stats ${seq}`, clickprice: 0.1 } });
  const banner = await post('/api/banners', {
    banner: { campaign_id: campaign._id, title: 'Boots', url: 'https://a.example' },
  });
  const site = await post('/api/sites', {
    site: { title: 'Mag', domain: `stats-${seq}-${u.user_id}.example`, category: 'news' },
  });
  const widget = await post('/api/widgets', { widget: { title: 'Below', site_id: site._id } });
  return { ...u, api, campaign, banner, site, widget };
}

let key = 0;
/** One rollup row straight into the table, as the delivery's batch writer leaves it. */
async function rollup(hour: string, values: Partial<typeof rollups.$inferInsert>) {
  key += 1;
  await t.database.db.insert(rollups).values({
    hour: new Date(hour),
    campaignId: 0,
    bannerId: 0,
    siteId: 0,
    widgetId: 0,
    country: `C${key}`,
    device: '',
    os: '',
    browser: '',
    ...values,
  });
}

const zeroDay = (key: string) => ({
  key,
  impressions: 0,
  viewable: 0,
  clicks: 0,
  invalid_clicks: 0,
  conversions: 0,
  ctr: 0,
  ecpm: 0,
  spent: 0,
  earned: 0,
});

describe('statistics by day', () => {
  test('a campaign: sums of its rollups per UTC day, every day of the range, and the total', async () => {
    const o = await owner();
    const c = Number(o.campaign._id);
    const b = Number(o.banner._id);
    await rollup('2026-03-01T10:00:00Z', {
      campaignId: c,
      bannerId: b,
      impressions: 1000,
      viewable: 600,
      clicks: 3,
      invalidClicks: 1,
      conversions: 1,
      spent: 1_500_000n,
      earned: 900_000n,
    });
    await rollup('2026-03-01T23:00:00Z', { campaignId: c, bannerId: b, impressions: 500, spent: 250_000n });
    await rollup('2026-03-03T00:00:00Z', {
      campaignId: c,
      bannerId: b,
      impressions: 3,
      clicks: 1,
      spent: 100_000n,
    });
    // outside the range on either side, and another campaign inside it
    await rollup('2026-02-28T23:00:00Z', { campaignId: c, impressions: 7, clicks: 7, spent: 7_000_000n });
    await rollup('2026-03-04T00:00:00Z', { campaignId: c, impressions: 9, clicks: 9, spent: 9_000_000n });
    await rollup('2026-03-02T12:00:00Z', { campaignId: c + 1000, impressions: 5, clicks: 5, spent: 5n });

    const res = await o.api.get(`/api/stats/campaigns/${c}?from=2026-03-01&to=2026-03-03&group=day`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.rows).toEqual([
      {
        key: '2026-03-01',
        impressions: 1500,
        viewable: 600,
        clicks: 3,
        invalid_clicks: 1,
        conversions: 1,
        ctr: 0.2,
        // 1.75 spent over 1500 impressions: 1.1666666… per thousand, to the micro-unit
        ecpm: 1.166667,
        spent: 1.75,
        earned: 0.9,
      },
      zeroDay('2026-03-02'),
      {
        ...zeroDay('2026-03-03'),
        impressions: 3,
        clicks: 1,
        ctr: 33.33,
        ecpm: 33.333333,
        spent: 0.1,
      },
    ]);
    expect(body.total).toEqual({
      impressions: 1503,
      viewable: 600,
      clicks: 4,
      invalid_clicks: 1,
      conversions: 1,
      ctr: 0.27,
      ecpm: 1.230872,
      spent: 1.85,
      earned: 0.9,
    });

    // the creative reads the same rows through its own column
    const banner = (await o.api.get(`/api/stats/banners/${b}?from=2026-03-01&to=2026-03-03`)).json();
    expect(banner.total).toMatchObject({ impressions: 1503, clicks: 4, spent: 1.85, ecpm: 1.230872 });
  });

  test('a site and a widget price impressions by what they earned; CTR rounds half up', async () => {
    const o = await owner();
    const s = Number(o.site._id);
    const w = Number(o.widget._id);
    await rollup('2026-05-10T08:00:00Z', {
      siteId: s,
      widgetId: w,
      impressions: 3,
      clicks: 2,
      spent: 4_000_000n,
      earned: 1_000_001n,
    });
    await rollup('2026-05-11T08:00:00Z', {
      siteId: s,
      widgetId: w,
      impressions: 8,
      clicks: 1,
      earned: 2_000_000n,
    });
    const range = '?from=2026-05-10&to=2026-05-11';
    for (const url of [`/api/stats/sites/${s}${range}`, `/api/stats/widgets/${w}${range}`]) {
      const body = (await o.api.get(url)).json();
      expect(body.rows).toEqual([
        // 2/3 = 66.666…% → 66.67; 1.000001 earned per 3 impressions → 333.333667 per thousand
        {
          ...zeroDay('2026-05-10'),
          impressions: 3,
          clicks: 2,
          ctr: 66.67,
          ecpm: 333.333667,
          spent: 4,
          earned: 1.000001,
        },
        // 1/8 = 12.5 % exactly; 2 earned per 8 impressions → 250 per thousand
        { ...zeroDay('2026-05-11'), impressions: 8, clicks: 1, ctr: 12.5, ecpm: 250, earned: 2 },
      ]);
      expect(body.total).toMatchObject({
        impressions: 11,
        clicks: 3,
        ctr: 27.27,
        spent: 4,
        earned: 3.000001,
      });
      expect(body.total.ecpm).toBe(272.727364);
    }
  });

  test('without dates the range is today (UTC); nothing delivered is one zero row and a zero total', async () => {
    const o = await owner();
    const today = new Date().toISOString().slice(0, 10);
    const empty = (await o.api.get(`/api/stats/widgets/${o.widget._id}`)).json();
    expect(empty).toEqual({ rows: [zeroDay(today)], total: { ...zeroDay(''), key: undefined } });
    const hour = new Date();
    hour.setUTCMinutes(0, 0, 0);
    await rollup(hour.toISOString(), { campaignId: Number(o.campaign._id), impressions: 4, clicks: 1 });
    const body = (await o.api.get(`/api/stats/campaigns/${o.campaign._id}`)).json();
    expect(body.rows).toEqual([{ ...zeroDay(today), impressions: 4, clicks: 1, ctr: 25 }]);
    // only `from`: up to today
    const from = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    const week = (await o.api.get(`/api/stats/campaigns/${o.campaign._id}?from=${from}`)).json();
    expect(week.rows.map((r: { key: string }) => r.key)).toHaveLength(7);
    expect(week.rows.at(-1)).toMatchObject({ key: today, impressions: 4 });
  });
});

describe('who may read statistics', () => {
  test('the owner, admins and read-only admins; another user and an unknown id get 404', async () => {
    const o = await owner();
    const other = await owner();
    const ro = await userWithRole(t, 'adminreadonly');
    const readonly = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
    const paths = [
      `campaigns/${o.campaign._id}`,
      `banners/${o.banner._id}`,
      `sites/${o.site._id}`,
      `widgets/${o.widget._id}`,
    ];
    for (const p of paths) {
      expect((await o.api.get(`/api/stats/${p}`)).statusCode).toBe(200);
      expect((await admin.get(`/api/stats/${p}`)).statusCode).toBe(200);
      expect((await readonly.get(`/api/stats/${p}`)).statusCode).toBe(200);
      expect((await other.api.get(`/api/stats/${p}`)).statusCode).toBe(404);
      expect((await other.api.get(`/api/stats/${p.replace(/\d+$/, '999999')}`)).statusCode).toBe(404);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/stats/${paths[0]}` });
    expect(anonymous.statusCode).toBe(401);
  });

  test("an agency reads its member's statistics, not another user's", async () => {
    seq += 1;
    const agencyUser = await userWithRole(t, 'agency');
    const agency = as(t.app, agencyUser.access_token);
    const created = await agency.post('/api/agencies', { agency: { title: `Stats agency ${seq}` } });
    expect(created.statusCode).toBe(201);
    const member = {
      name: `Member ${seq}`,
      email: `stats-member${seq}@test.local`,
      password: 'member-password-1',
    };
    const added = await agency.post(`/api/agencies/${created.json()._id}/addmember`, { member });
    expect(added.statusCode).toBe(201);
    const memberApi = as(t.app, (await login(t.app, member.email, member.password)).access_token);
    const campaign = (
      await memberApi.post('/api/campaigns', { campaign: { title: 'Member', clickprice: 0.1 } })
    ).json();
    await rollup('2026-04-01T00:00:00Z', {
      campaignId: Number(campaign._id),
      impressions: 10,
      clicks: 1,
      spent: 100_000n,
    });
    const res = await agency.get(`/api/stats/campaigns/${campaign._id}?from=2026-04-01&to=2026-04-01`);
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toMatchObject({ impressions: 10, clicks: 1, ctr: 10, spent: 0.1, ecpm: 10 });
    const stranger = await owner();
    expect((await agency.get(`/api/stats/campaigns/${stranger.campaign._id}`)).statusCode).toBe(404);
  });
});

describe('the date range', () => {
  test('bad dates are a 422 on the field', async () => {
    const o = await owner();
    const url = `/api/stats/campaigns/${o.campaign._id}`;
    const errorOf = async (query: string) => {
      const res = await o.api.get(`${url}?${query}`);
      expect(res.statusCode).toBe(422);
      return res.json().errors[0];
    };
    expect(await errorOf('from=2026-02-30&to=2026-03-01')).toMatchObject({ field: 'from', code: 'date' });
    expect(await errorOf('from=2026-03-01&to=yesterday')).toMatchObject({ field: 'to', code: 'date' });
    expect(await errorOf('from=2026-03-01T00:00:00Z')).toMatchObject({ field: 'from', code: 'date' });
    expect(await errorOf('group=hour')).toMatchObject({ field: 'group', code: 'one_of' });
    const after = await errorOf('from=2026-03-05&to=2026-03-04');
    expect(after).toMatchObject({ field: 'from', code: 'before' });
    expect(after.detail).toContain('2026-03-04');
  });

  test('at most 366 days: one more is a 422 on from', async () => {
    const o = await owner();
    const url = `/api/stats/sites/${o.site._id}`;
    const year = await o.api.get(`${url}?from=2024-01-01&to=2024-12-31`);
    expect(year.statusCode).toBe(200);
    expect(year.json().rows).toHaveLength(366);
    expect(year.json().rows[59].key).toBe('2024-02-29');
    const tooLong = await o.api.get(`${url}?from=2023-12-31&to=2024-12-31`);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors[0]).toMatchObject({ field: 'from', code: 'after' });
    expect(tooLong.json().errors[0].detail).toContain('2024-01-01');
  });
});

test('the ends of the calendar answer, never a 500', async () => {
  const o = await owner();
  const url = `/api/stats/widgets/${o.widget._id}`;
  const last = await o.api.get(`${url}?from=9999-12-31&to=9999-12-31`);
  expect(last.statusCode).toBe(200);
  expect(last.json().rows).toEqual([zeroDay('9999-12-31')]);
  expect((await o.api.get(`${url}?from=0000-01-01&to=0000-01-01`)).statusCode).toBe(422);
  expect((await o.api.get(`${url}?from=1970-01-01&to=1970-01-02`)).json().rows).toHaveLength(2);
});

test('the OpenAPI document describes the statistics routes', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  for (const entity of ['campaigns', 'banners', 'sites', 'widgets']) {
    const op = doc.paths[`/api/stats/${entity}/{id}`].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['from', 'to', 'group']),
    );
  }
});
