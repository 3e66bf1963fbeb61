import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { platformLedger, type rollups, users } from '../../db/schema/index.ts';
import { insertRollups } from '../../test/rollups.ts';
import {
  ADMIN,
  as,
  createTestApp,
  liftStatsDelay,
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
  await liftStatsDelay(t, u.user_id);
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
  await insertRollups(t.database.db, {
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
        // what the publishers earned from it is theirs: 0 to the advertiser (an admin sees it below)
        earned: 0,
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
      earned: 0,
    });
    const seenByAdmin = (await admin.get(`/api/stats/campaigns/${c}?from=2026-03-01&to=2026-03-03`)).json();
    expect(seenByAdmin.total).toMatchObject({ spent: 1.85, earned: 0.9 });
    expect(seenByAdmin.rows[0]).toMatchObject({ spent: 1.75, earned: 0.9 });

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
          // what advertisers paid is theirs: 0 to the publisher
          spent: 0,
          earned: 1.000001,
        },
        // 1/8 = 12.5 % exactly; 2 earned per 8 impressions → 250 per thousand
        { ...zeroDay('2026-05-11'), impressions: 8, clicks: 1, ctr: 12.5, ecpm: 250, earned: 2 },
      ]);
      expect(body.total).toMatchObject({
        impressions: 11,
        clicks: 3,
        ctr: 27.27,
        spent: 0,
        earned: 3.000001,
      });
      expect(body.total.ecpm).toBe(272.727364);
      expect((await admin.get(url)).json().total).toMatchObject({ spent: 4, earned: 3.000001 });
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
      // the entity's own path (SPEC.md's sites GET /{id}/stats) answers the same, with the same rights
      const own = await o.api.get(`/api/${p}/stats?from=2026-01-01&to=2026-01-02`);
      expect(own.json()).toEqual((await o.api.get(`/api/stats/${p}?from=2026-01-01&to=2026-01-02`)).json());
      expect((await other.api.get(`/api/${p}/stats`)).statusCode).toBe(404);
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
    expect(await errorOf('group=town')).toMatchObject({ field: 'group', code: 'one_of' });
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
  // every statistics call that takes a range (found by an audit answering 500 on the last day)
  const far = 'from=9999-12-31&to=9999-12-31';
  for (const path of [
    `/api/stats/campaigns/${o.campaign._id}?${far}`,
    `/api/stats/sites/${o.site._id}?${far}&tz=Pacific/Kiritimati`,
    `/api/stats/sites/${o.site._id}?${far}&tz=Etc/GMT%2B12`,
    `/api/stats/users/${o.user_id}?${far}`,
    `/api/stats/platform?${far}`,
    `/api/stats/ecpm?${far}`,
    `/api/stats2/sites/revenue?${far}`,
    `/api/stats2/dsp/country?${far}`,
    `/api/dbd?campaign_id=${o.campaign._id}&${far}`,
    `/api/stats/campaigns/${o.campaign._id}/export?${far}`,
  ]) {
    const res = await admin.get(path);
    expect(res.statusCode, `${path}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  }
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

describe('breakdowns', () => {
  test('by country, device, OS, browser: only keys with rollups, by impressions then key, unknown named', async () => {
    const o = await owner();
    const c = Number(o.campaign._id);
    const at = (h: number) => `2026-06-10T${String(h).padStart(2, '0')}:00:00Z`;
    await rollup(at(1), {
      campaignId: c,
      country: 'DE',
      device: 'mobile',
      os: 'Android',
      browser: 'Chrome',
      impressions: 100,
      clicks: 2,
      spent: 200_000n,
    });
    await rollup(at(2), {
      campaignId: c,
      country: 'DE',
      device: 'desktop',
      os: 'Windows',
      browser: 'Firefox',
      impressions: 50,
      clicks: 5,
      spent: 500_000n,
    });
    await rollup(at(3), {
      campaignId: c,
      country: 'FR',
      device: 'desktop',
      os: 'Windows',
      browser: 'Chrome',
      impressions: 150,
      clicks: 1,
      spent: 100_000n,
    });
    await rollup(at(4), { campaignId: c, country: '', device: '', os: '', browser: '', impressions: 150 });
    // the day after the range: not counted
    await rollup('2026-06-11T00:00:00Z', { campaignId: c, country: 'US', impressions: 999 });
    const get = async (query: string) => {
      const res = await o.api.get(`/api/stats/campaigns/${c}?from=2026-06-10&to=2026-06-10&${query}`);
      expect(res.statusCode).toBe(200);
      return res.json() as { rows: { key: string; impressions: number; clicks: number }[]; total: object };
    };
    const keys = (body: { rows: { key: string; impressions: number }[] }) =>
      body.rows.map((r) => [r.key, r.impressions]);

    const country = await get('group=country');
    // 150 impressions each for FR and unknown: the key decides, 'unknown' after the real ones
    expect(keys(country)).toEqual([
      ['DE', 150],
      ['FR', 150],
      ['unknown', 150],
    ]);
    expect(country.rows[0]).toEqual({
      ...zeroDay('DE'),
      impressions: 150,
      clicks: 7,
      ctr: 4.67,
      ecpm: 4.666667,
      spent: 0.7,
    });
    expect(country.total).toEqual({
      ...zeroDay(''),
      key: undefined,
      impressions: 450,
      clicks: 8,
      ctr: 1.78,
      ecpm: 1.777778,
      spent: 0.8,
    });
    expect(keys(await get('group=device'))).toEqual([
      ['desktop', 200],
      ['unknown', 150],
      ['mobile', 100],
    ]);
    expect(keys(await get('group=os'))).toEqual([
      ['Windows', 200],
      ['unknown', 150],
      ['Android', 100],
    ]);
    expect(keys(await get('group=browser'))).toEqual([
      ['Chrome', 250],
      ['unknown', 150],
      ['Firefox', 50],
    ]);
    // sorting on another column, both ways; ties still go by key
    expect((await get('group=country&sort=clicks')).rows.map((r) => [r.key, r.clicks])).toEqual([
      ['DE', 7],
      ['FR', 1],
      ['unknown', 0],
    ]);
    expect((await get('group=browser&sort=clicks&order=asc')).rows.map((r) => r.key)).toEqual([
      'unknown',
      'Chrome',
      'Firefox',
    ]);
    expect((await get('group=country&sort=key&order=desc')).rows.map((r) => r.key)).toEqual([
      'unknown',
      'FR',
      'DE',
    ]);
    expect((await get('group=country&sort=ctr&order=desc')).rows.map((r) => r.key)).toEqual([
      'DE',
      'FR',
      'unknown',
    ]);
  });

  test('by site, widget and creative: ids as keys, none as unknown; a site sees its own material too', async () => {
    const o = await owner();
    const c = Number(o.campaign._id);
    const b = Number(o.banner._id);
    const s = Number(o.site._id);
    const w = Number(o.widget._id);
    const at = '2026-07-01T12:00:00Z';
    await rollup(at, {
      campaignId: c,
      bannerId: b,
      siteId: s,
      widgetId: w,
      impressions: 10,
      clicks: 1,
      earned: 50_000n,
    });
    await rollup(at, {
      campaignId: c,
      bannerId: b,
      siteId: s + 1,
      widgetId: w + 1,
      impressions: 30,
      clicks: 2,
    });
    await rollup(at, { campaignId: c, bannerId: b + 1, siteId: s + 1, widgetId: w + 1, impressions: 5 });
    // the site's own material: no campaign, no creative
    await rollup(at, { siteId: s, widgetId: w, impressions: 20, earned: 10_000n });
    const get = async (path: string, group: string) => {
      const res = await o.api.get(`/api/stats/${path}?from=2026-07-01&to=2026-07-01&group=${group}`);
      expect(res.statusCode).toBe(200);
      return (res.json().rows as { key: string; impressions: number }[]).map((r) => [r.key, r.impressions]);
    };
    expect(await get(`campaigns/${c}`, 'site')).toEqual([
      [String(s + 1), 35],
      [String(s), 10],
    ]);
    expect(await get(`campaigns/${c}`, 'widget')).toEqual([
      [String(w + 1), 35],
      [String(w), 10],
    ]);
    expect(await get(`campaigns/${c}`, 'creative')).toEqual([
      [String(b), 40],
      [String(b + 1), 5],
    ]);
    // what ran on a site is advanced statistics: its owner reads it once an admin turns them on
    const locked = await o.api.get(`/api/stats/sites/${s}?from=2026-07-01&to=2026-07-01&group=creative`);
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toMatchObject({ error: 'advanced_stats_off' });
    await admin.put(`/api/sites/${s}`, { site: { advanced_stats: true } });
    expect(await get(`sites/${s}`, 'creative')).toEqual([
      ['unknown', 20],
      [String(b), 10],
    ]);
    const widget = (
      await o.api.get(`/api/stats/widgets/${w}?from=2026-07-01&to=2026-07-01&group=widget`)
    ).json();
    expect(widget.rows).toEqual([
      { ...zeroDay(String(w)), impressions: 30, clicks: 1, ctr: 3.33, ecpm: 2, earned: 0.06 },
    ]);
    // nothing in the range: no rows, a zero total
    const empty = (
      await o.api.get(`/api/stats/campaigns/${c}?from=2026-07-02&to=2026-07-02&group=country`)
    ).json();
    expect(empty).toEqual({ rows: [], total: { ...zeroDay(''), key: undefined } });
  });

  test('by hour: every hour of the range, zero-filled, keyed by its start in the timezone', async () => {
    const o = await owner();
    const c = Number(o.campaign._id);
    await rollup('2026-01-15T00:00:00Z', { campaignId: c, impressions: 1 });
    await rollup('2026-01-15T13:00:00Z', { campaignId: c, impressions: 13 });
    await rollup('2026-01-15T23:00:00Z', { campaignId: c, impressions: 23 });
    const utc = (
      await o.api.get(`/api/stats/campaigns/${c}?from=2026-01-15&to=2026-01-15&group=hour`)
    ).json();
    expect(utc.rows).toHaveLength(24);
    expect(utc.rows[0]).toEqual({ ...zeroDay('2026-01-15T00:00:00+00:00'), impressions: 1 });
    expect(utc.rows[13]).toMatchObject({ key: '2026-01-15T13:00:00+00:00', impressions: 13 });
    expect(utc.rows[12]).toEqual(zeroDay('2026-01-15T12:00:00+00:00'));
    expect(utc.total.impressions).toBe(37);
    // in Berlin (UTC+1 in winter) the day starts at 23:00 UTC the day before: 00:00 UTC is 01:00 there
    const berlin = (
      await o.api.get(`/api/stats/campaigns/${c}?from=2026-01-15&to=2026-01-15&group=hour&tz=Europe/Berlin`)
    ).json();
    expect(berlin.rows).toHaveLength(24);
    expect(berlin.rows[0]).toEqual(zeroDay('2026-01-15T00:00:00+01:00'));
    expect(berlin.rows[1]).toMatchObject({ key: '2026-01-15T01:00:00+01:00', impressions: 1 });
    expect(berlin.rows[14]).toMatchObject({ key: '2026-01-15T14:00:00+01:00', impressions: 13 });
    expect(berlin.total.impressions).toBe(14);
    // sorting the hours by a counter
    const top = (
      await o.api.get(
        `/api/stats/campaigns/${c}?from=2026-01-15&to=2026-01-15&group=hour&sort=impressions&order=desc`,
      )
    ).json();
    expect(top.rows.slice(0, 3).map((r: { key: string }) => r.key)).toEqual([
      '2026-01-15T23:00:00+00:00',
      '2026-01-15T13:00:00+00:00',
      '2026-01-15T00:00:00+00:00',
    ]);
    // the spring clock change: Berlin's 29 March 2026 has 23 hours, 02:00 does not exist
    const spring = (
      await o.api.get(`/api/stats/campaigns/${c}?from=2026-03-29&to=2026-03-29&group=hour&tz=Europe/Berlin`)
    ).json();
    expect(spring.rows).toHaveLength(23);
    expect(spring.rows.slice(1, 3).map((r: { key: string }) => r.key)).toEqual([
      '2026-03-29T01:00:00+01:00',
      '2026-03-29T03:00:00+02:00',
    ]);
    // autumn: 25 hours, 02:00 twice, in time order
    const autumn = (
      await o.api.get(`/api/stats/campaigns/${c}?from=2026-10-25&to=2026-10-25&group=hour&tz=Europe/Berlin`)
    ).json();
    expect(autumn.rows).toHaveLength(25);
    expect(autumn.rows.slice(2, 4).map((r: { key: string }) => r.key)).toEqual([
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00',
    ]);
  });
});

describe('timezones', () => {
  test("a day's boundaries are the timezone's: 23:30 UTC is the next day in Berlin, the same one in New York", async () => {
    const o = await owner();
    const c = Number(o.campaign._id);
    // an impression at 23:30 UTC lands in the 23:00 UTC rollup hour
    await rollup('2026-03-01T23:00:00Z', { campaignId: c, impressions: 5, clicks: 1 });
    await rollup('2026-03-02T03:00:00Z', { campaignId: c, impressions: 7 });
    const days = async (tz?: string) => {
      const q = `from=2026-03-01&to=2026-03-02${tz ? `&tz=${encodeURIComponent(tz)}` : ''}`;
      const res = await o.api.get(`/api/stats/campaigns/${c}?${q}`);
      expect(res.statusCode).toBe(200);
      return res.json().rows.map((r: { key: string; impressions: number }) => [r.key, r.impressions]);
    };
    expect(await days()).toEqual([
      ['2026-03-01', 5],
      ['2026-03-02', 7],
    ]);
    expect(await days('UTC')).toEqual(await days());
    expect(await days('Europe/Berlin')).toEqual([
      ['2026-03-01', 0],
      ['2026-03-02', 12],
    ]);
    // New York (UTC-5): 03:00 UTC on 2 March is 22:00 on 1 March
    expect(await days('America/New_York')).toEqual([
      ['2026-03-01', 12],
      ['2026-03-02', 0],
    ]);
    // Kolkata (UTC+05:30): the 23:00 UTC hour starts at 04:30 on 2 March
    expect(await days('Asia/Kolkata')).toEqual([
      ['2026-03-01', 0],
      ['2026-03-02', 12],
    ]);
    // the range's ends move too: Berlin's 1 March alone excludes the hour that is its 2 March
    const one = (
      await o.api.get(`/api/stats/campaigns/${c}?from=2026-03-01&to=2026-03-01&tz=Europe/Berlin`)
    ).json();
    expect(one.total.impressions).toBe(0);
  });

  test('in a half-hour timezone an hour counts on the day its UTC start falls in', async () => {
    const o = await owner();
    const c = Number(o.campaign._id);
    // 18:00 UTC is 23:30 in Kolkata (1 March), 19:00 UTC is 00:30 (2 March)
    await rollup('2026-03-01T18:00:00Z', { campaignId: c, impressions: 3 });
    await rollup('2026-03-01T19:00:00Z', { campaignId: c, impressions: 4 });
    const q = `from=2026-03-01&to=2026-03-02&tz=Asia/Kolkata`;
    const body = (await o.api.get(`/api/stats/campaigns/${c}?${q}`)).json();
    expect(body.rows.map((r: { impressions: number }) => r.impressions)).toEqual([3, 4]);
    const hours = (
      await o.api.get(`/api/stats/campaigns/${c}?from=2026-03-02&to=2026-03-02&tz=Asia/Kolkata&group=hour`)
    ).json();
    expect(hours.rows[0]).toMatchObject({ key: '2026-03-02T00:30:00+05:30', impressions: 4 });
    expect(hours.rows).toHaveLength(24);
  });

  test('without dates the range is today in the timezone', async () => {
    const o = await owner();
    const tz = 'Pacific/Kiritimati';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date());
    const body = (await o.api.get(`/api/stats/sites/${o.site._id}?tz=${tz}`)).json();
    expect(body.rows.map((r: { key: string }) => r.key)).toEqual([today]);
  });

  test('an unknown timezone, group, sort or order is a 422 on the field', async () => {
    const o = await owner();
    const url = `/api/stats/campaigns/${o.campaign._id}?from=2026-03-01&to=2026-03-01`;
    const errorOf = async (query: string) => {
      const res = await o.api.get(`${url}&${query}`);
      expect(res.statusCode).toBe(422);
      return res.json().errors[0];
    };
    expect(await errorOf('tz=Mars/Olympus_Mons')).toMatchObject({ field: 'tz', code: 'invalid' });
    expect(await errorOf('tz=')).toMatchObject({ field: 'tz' });
    expect(await errorOf('group=weekday')).toMatchObject({ field: 'group', code: 'one_of' });
    expect(await errorOf('group=country&sort=title')).toMatchObject({ field: 'sort', code: 'one_of' });
    expect(await errorOf('group=country&order=up')).toMatchObject({ field: 'order', code: 'one_of' });
  });

  test('permissions are the same for every breakdown and timezone', async () => {
    const o = await owner();
    const other = await owner();
    const q = '?group=country&tz=Europe/Berlin&sort=clicks&order=asc';
    for (const p of [`campaigns/${o.campaign._id}`, `sites/${o.site._id}`]) {
      expect((await o.api.get(`/api/stats/${p}${q}`)).statusCode).toBe(200);
      expect((await admin.get(`/api/stats/${p}${q}`)).statusCode).toBe(200);
      expect((await other.api.get(`/api/stats/${p}${q}`)).statusCode).toBe(404);
    }
  });
});

describe('by city', () => {
  test("city names as keys, '' as unknown, sorted like the other breakdowns", async () => {
    const o = await owner();
    const c = Number(o.campaign._id);
    await rollup('2026-07-01T05:00:00Z', { campaignId: c, country: 'GB', city: 'London', impressions: 40 });
    await rollup('2026-07-01T06:00:00Z', { campaignId: c, country: 'GB', city: 'London', impressions: 20 });
    await rollup('2026-07-01T07:00:00Z', { campaignId: c, country: 'CZ', city: 'Prague', impressions: 90 });
    await rollup('2026-07-01T08:00:00Z', { campaignId: c, country: 'US', city: '', impressions: 5 });
    const res = await o.api.get(`/api/stats/campaigns/${c}?from=2026-07-01&to=2026-07-01&group=city`);
    expect(res.statusCode).toBe(200);
    expect(res.json().rows.map((r: { key: string; impressions: number }) => [r.key, r.impressions])).toEqual([
      ['Prague', 90],
      ['London', 60],
      ['unknown', 5],
    ]);
    expect(res.json().total.impressions).toBe(155);
  });
});

/** Two campaigns and two sites of one user, and rollups on each side of it (and of someone else's). */
async function userWithTraffic() {
  const o = await owner();
  const second = await o.api.post('/api/campaigns', {
    campaign: { title: `Second ${seq}`, clickprice: 0.1 },
  });
  expect(second.statusCode).toBe(201);
  const c1 = Number(o.campaign._id);
  const c2 = Number(second.json()._id);
  const s1 = Number(o.site._id);
  const other = await owner();
  const day = '2026-08-02';
  // its ads on another user's site, and another advertiser's ads on its site
  await rollup(`${day}T01:00:00Z`, {
    campaignId: c1,
    siteId: Number(other.site._id),
    impressions: 100,
    clicks: 2,
    spent: 400_000n,
    earned: 200_000n,
  });
  await rollup(`${day}T02:00:00Z`, { campaignId: c2, impressions: 300, clicks: 1, spent: 200_000n });
  await rollup(`${day}T03:00:00Z`, {
    campaignId: Number(other.campaign._id),
    siteId: s1,
    impressions: 1000,
    clicks: 10,
    spent: 2_000_000n,
    earned: 1_000_000n,
  });
  return { o, other, c1, c2, s1, day };
}

describe('a user: every campaign or every site of it', () => {
  test('as=advertiser sums its campaigns (eCPM of spent), as=publisher its sites (eCPM of earned)', async () => {
    const { o, c1, c2, day } = await userWithTraffic();
    const url = `/api/stats/users/${o.user_id}?from=${day}&to=${day}`;
    const adv = await o.api.get(`${url}&as=advertiser`);
    expect(adv.statusCode).toBe(200);
    expect(adv.json().total).toEqual({
      ...zeroDay(''),
      key: undefined,
      impressions: 400,
      clicks: 3,
      ctr: 0.75,
      ecpm: 1.5,
      spent: 0.6,
      earned: 0,
    });
    expect(adv.json().rows).toHaveLength(1);
    const campaigns = (await o.api.get(`${url}&as=advertiser&group=campaign`)).json();
    // `campaign` is no group of the API: a 422
    expect(campaigns.errors?.[0]).toMatchObject({ field: 'group' });
    const byHour = (await o.api.get(`${url}&as=advertiser&group=hour`)).json();
    expect(byHour.rows.filter((r: { impressions: number }) => r.impressions > 0)).toHaveLength(2);
    expect(c1).not.toBe(c2);

    const pub = (await o.api.get(`${url}&as=publisher`)).json();
    expect(pub.total).toMatchObject({ impressions: 1000, clicks: 10, spent: 0, earned: 1, ecpm: 1 });
    const pubByAdmin = (await admin.get(`${url}&as=publisher`)).json();
    expect(pubByAdmin.total).toMatchObject({ spent: 2, earned: 1 });
    const bySite = (await o.api.get(`${url}&as=publisher&group=site`)).json();
    expect(bySite.rows.map((r: { key: string }) => r.key)).toEqual([o.site._id]);
  });

  test('without as: advertiser when it has campaigns, publisher when it has only sites', async () => {
    const { o, day } = await userWithTraffic();
    const url = (id: string) => `/api/stats/users/${id}?from=${day}&to=${day}`;
    expect((await o.api.get(url(o.user_id))).json().total.impressions).toBe(400);
    // a publisher only: a site of its own and traffic on it
    const u = await register(t.app);
    await liftStatsDelay(t, u.user_id);
    const api = as(t.app, u.access_token);
    const site = (
      await api.post('/api/sites', {
        site: { title: 'Pub', domain: `pub-${u.user_id}.example`, category: 'news' },
      })
    ).json();
    await rollup(`${day}T04:00:00Z`, {
      campaignId: Number(o.campaign._id),
      siteId: Number(site._id),
      impressions: 7,
      earned: 7_000n,
    });
    const pub = (await api.get(url(u.user_id))).json();
    expect(pub.total).toMatchObject({ impressions: 7, earned: 0.007, ecpm: 1 });
    expect((await api.get(`${url(u.user_id)}&as=advertiser`)).json().total.impressions).toBe(0);
  });

  test('whoever may read the user: itself, admins, readonly admins, its agency; not others (404)', async () => {
    const { o, other, day } = await userWithTraffic();
    const url = `/api/stats/users/${o.user_id}?from=${day}&to=${day}`;
    const ro = await userWithRole(t, 'adminreadonly');
    const readonly = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
    for (const api of [o.api, admin, readonly]) {
      const res = await api.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.json().total.impressions).toBe(400);
    }
    expect((await other.api.get(url)).statusCode).toBe(404);
    expect((await admin.get('/api/stats/users/99999999')).statusCode).toBe(404);
    expect((await admin.get(`${url}&as=both`)).statusCode).toBe(422);
    expect((await admin.get(`/api/stats/users/${o.user_id}?from=${day}&to=2026-08-01`)).statusCode).toBe(422);

    // an agency reads its member's (the member made by the agency: no 24-hour wait)
    seq += 1;
    const agencyUser = await userWithRole(t, 'agency');
    const agency = as(t.app, agencyUser.access_token);
    const created = await agency.post('/api/agencies', { agency: { title: `User stats agency ${seq}` } });
    const member = {
      name: `M ${seq}`,
      email: `user-stats-member${seq}@test.local`,
      password: 'member-password-1',
    };
    const added = await agency.post(`/api/agencies/${created.json()._id}/addmember`, { member });
    expect(added.statusCode).toBe(201);
    const memberApi = as(t.app, (await login(t.app, member.email, member.password)).access_token);
    const me = (await memberApi.get('/api/auth/me')).json();
    const memberId = me.account._id;
    const campaign = (
      await memberApi.post('/api/campaigns', { campaign: { title: `M ${seq}`, clickprice: 0.1 } })
    ).json();
    await rollup(`${day}T05:00:00Z`, { campaignId: Number(campaign._id), impressions: 12 });
    const viaAgency = await agency.get(`/api/stats/users/${memberId}?from=${day}&to=${day}`);
    expect(viaAgency.statusCode).toBe(200);
    expect(viaAgency.json().total.impressions).toBe(12);
    expect((await agency.get(url)).statusCode).toBe(404);
  });
});

describe('the platform (admins)', () => {
  test('every rollup; revenue from the platform ledger per day and in all, in the total of breakdowns', async () => {
    // a day of its own: nothing else in this file writes rollups on it
    const day = '2031-01-15';
    const o = await owner();
    await rollup(`${day}T10:00:00Z`, {
      campaignId: Number(o.campaign._id),
      country: 'DE',
      impressions: 1000,
      clicks: 4,
      spent: 2_000_000n,
      earned: 1_000_000n,
    });
    await rollup(`${day}T22:30:00Z`, {
      campaignId: 424242,
      country: 'FR',
      impressions: 1000,
      clicks: 1,
      spent: 500_000n,
      earned: 250_000n,
    });
    await t.database.db.insert(platformLedger).values([
      { type: 'click_income', sum: 700_000n, createdAt: new Date(`${day}T10:20:00Z`) },
      { type: 'click_income', sum: 100_000n, createdAt: new Date(`${day}T22:59:00Z`) },
      // the next day in UTC, the same day in New York
      { type: 'click_income', sum: 50_000n, createdAt: new Date('2031-01-16T01:00:00Z') },
    ]);
    const res = await admin.get(`/api/stats/platform?from=${day}&to=${day}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().rows).toEqual([
      {
        key: day,
        impressions: 2000,
        viewable: 0,
        clicks: 5,
        invalid_clicks: 0,
        conversions: 0,
        ctr: 0.25,
        ecpm: 1.25,
        spent: 2.5,
        earned: 1.25,
        revenue: 0.8,
      },
    ]);
    expect(res.json().total.revenue).toBe(0.8);
    const ny = (await admin.get(`/api/stats/platform?from=${day}&to=${day}&tz=America/New_York`)).json();
    expect(ny.total.revenue).toBe(0.85);
    const byCountry = (await admin.get(`/api/stats/platform?from=${day}&to=${day}&group=country`)).json();
    expect(byCountry.rows.map((r: { key: string; revenue?: number }) => [r.key, r.revenue])).toEqual([
      ['DE', undefined],
      ['FR', undefined],
    ]);
    expect(byCountry.total).toMatchObject({ impressions: 2000, revenue: 0.8 });
    const byHour = (await admin.get(`/api/stats/platform?from=${day}&to=${day}&group=hour`)).json();
    expect(
      byHour.rows
        .filter((r: { revenue: number }) => r.revenue > 0)
        .map((r: { key: string; revenue: number }) => [r.key, r.revenue]),
    ).toEqual([
      [`${day}T10:00:00+00:00`, 0.7],
      [`${day}T22:00:00+00:00`, 0.1],
    ]);
    // a half-hour zone: local days begin at 18:30 UTC, and each UTC hour (rollups and income alike) counts on
    // the local day its start falls in; the rows and /stats/revenue agree with the total (an exact cut of the
    // income kept the straddling hour's in the total and in no row)
    await t.database.db.insert(platformLedger).values([
      // 18:00 UTC starts at 23:30 on the 19th in Kolkata: the 19th's
      { type: 'click_income', sum: 20_000n, createdAt: new Date('2031-02-19T18:45:00Z') },
      { type: 'click_income', sum: 30_000n, createdAt: new Date('2031-02-19T19:10:00Z') },
      // 18:00 UTC on the 20th starts at 23:30 on the 20th: the 20th's
      { type: 'click_income', sum: 40_000n, createdAt: new Date('2031-02-20T18:40:00Z') },
    ]);
    const kolkata = '?from=2031-02-20&to=2031-02-20&tz=Asia/Kolkata';
    const k = (await admin.get(`/api/stats/platform${kolkata}`)).json();
    expect(k.total.revenue).toBe(0.07);
    expect(k.rows.reduce((n: number, r: { revenue: number }) => n + r.revenue, 0)).toBeCloseTo(0.07, 6);
    const revenue = (await admin.get(`/api/stats/revenue${kolkata}`)).json();
    expect(revenue.total.revenue).toBe(0.07);
    expect(revenue.rows.reduce((n: number, r: { revenue: number }) => n + r.revenue, 0)).toBeCloseTo(0.07, 6);
  });

  test('admins and readonly admins only: everyone else is a 403', async () => {
    const ro = await userWithRole(t, 'adminreadonly');
    const readonly = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
    expect((await readonly.get('/api/stats/platform?group=city')).statusCode).toBe(200);
    const o = await owner();
    expect((await o.api.get('/api/stats/platform')).statusCode).toBe(403);
    const agency = await userWithRole(t, 'agency');
    expect((await as(t.app, agency.access_token).get('/api/stats/platform')).statusCode).toBe(403);
    expect((await admin.get('/api/stats/platform?tz=Nowhere/Else')).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/stats/platform' })).statusCode).toBe(401);
  });
});

describe('the 24-hour rule', () => {
  test("a self-registered user's statistics wait a day for it, not for admins; then they show", async () => {
    const u = await register(t.app);
    const api = as(t.app, u.access_token);
    const [row] = await t.database.db
      .select({ at: users.statsAvailableAt, created: users.createdAt })
      .from(users)
      .where(eq(users.id, Number(u.user_id)));
    expect(row?.at).toBeInstanceOf(Date);
    const waits = (row!.at!.getTime() - row!.created.getTime()) / 3_600_000;
    expect(waits).toBeGreaterThan(23.99);
    expect(waits).toBeLessThan(24.01);

    const campaign = (
      await api.post('/api/campaigns', { campaign: { title: `New ${u.user_id}`, clickprice: 0.1 } })
    ).json();
    const site = (
      await api.post('/api/sites', {
        site: { title: 'New', domain: `new-${u.user_id}.example`, category: 'news' },
      })
    ).json();
    const day = '2026-09-09';
    await rollup(`${day}T09:00:00Z`, {
      campaignId: Number(campaign._id),
      siteId: Number(site._id),
      impressions: 77,
      spent: 77_000n,
      earned: 7_000n,
    });
    const q = `?from=${day}&to=${day}`;
    const paths = [`campaigns/${campaign._id}`, `sites/${site._id}`, `users/${u.user_id}`];
    for (const p of paths) {
      const held = await api.get(`/api/stats/${p}${q}&group=country`);
      expect(held.statusCode).toBe(200);
      expect(held.json()).toEqual({
        rows: [],
        total: { ...zeroDay(''), key: undefined },
        available_at: row!.at!.toISOString(),
      });
      const seen = (await admin.get(`/api/stats/${p}${q}`)).json();
      expect(seen.available_at).toBeUndefined();
      expect(seen.total.impressions).toBe(77);
    }
    // a day later (moved back here) it shows to the user too
    await t.database.db
      .update(users)
      .set({ statsAvailableAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, Number(u.user_id)));
    for (const p of paths) {
      const body = (await api.get(`/api/stats/${p}${q}`)).json();
      expect(body.available_at).toBeUndefined();
      expect(body.total.impressions).toBe(77);
    }
  });
});
