import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { platformLedger, type rollups } from '../../db/schema/index.ts';
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
let readonly: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const ro = await userWithRole(t, 'adminreadonly');
  readonly = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
});
afterAll(() => t.close());

let seq = 0;
/** A user with a campaign (of `adstype`), a creative, a site and a widget of its own. */
async function owner(adstype = 'default') {
  seq += 1;
  const u = await register(t.app);
  await liftStatsDelay(t, u.user_id);
  const api = as(t.app, u.access_token);
  const post = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    expect(res.statusCode).toBe(201);
    return res.json() as { _id: string };
  };
  const campaign = await post('/api/campaigns', {
    campaign: { title: `Trees ${seq} ${u.user_id}`, clickprice: 0.1, adstype },
  });
  const banner = await post('/api/banners', {
    banner: { campaign_id: campaign._id, title: 'Boots', url: 'https://a.example' },
  });
  const site = await post('/api/sites', {
    site: { title: `Mag ${seq}`, domain: `trees-${seq}-${u.user_id}.example`, category: 'news' },
  });
  const widget = await post('/api/widgets', { widget: { title: `Below ${seq}`, site_id: site._id } });
  const ids = {
    campaign: Number(campaign._id),
    banner: Number(banner._id),
    site: Number(site._id),
    widget: Number(widget._id),
  };
  return { ...u, api, ids, domain: `trees-${seq}-${u.user_id}.example` };
}
type Owner = Awaited<ReturnType<typeof owner>>;

/** One rollup row of `o`'s campaign, creative, site and widget (overridable). */
async function rollup(o: Owner, hour: string, values: Partial<typeof rollups.$inferInsert>) {
  await insertRollups(t.database.db, {
    hour: new Date(hour),
    campaignId: o.ids.campaign,
    bannerId: o.ids.banner,
    siteId: o.ids.site,
    widgetId: o.ids.widget,
    country: 'DE',
    device: 'desktop',
    os: 'Linux',
    browser: 'Firefox',
    ...values,
  });
}

const zero = {
  impressions: 0,
  viewable: 0,
  clicks: 0,
  invalid_clicks: 0,
  conversions: 0,
  ctr: 0,
  ecpm: 0,
  spent: 0,
  earned: 0,
};

describe('the second stats tree', () => {
  test("a publisher's sites by day, site, campaign, domain and country, with names, paging and totals", async () => {
    const pub = await owner();
    const adv = await owner();
    const site2 = (
      await pub.api.post('/api/sites', {
        site: { title: 'Second', domain: `second-${pub.user_id}.example`, category: 'news' },
      })
    ).json()._id as string;
    // the advertiser's campaign on both of the publisher's sites, and elsewhere
    await rollup(pub, '2026-05-01T10:00:00Z', {
      campaignId: adv.ids.campaign,
      bannerId: adv.ids.banner,
      city: 'Berlin',
      impressions: 1000,
      clicks: 10,
      spent: 2_000_000n,
      earned: 1_000_000n,
    });
    await rollup(pub, '2026-05-03T10:00:00Z', {
      campaignId: adv.ids.campaign,
      bannerId: adv.ids.banner,
      siteId: Number(site2),
      widgetId: 0,
      country: 'FR',
      impressions: 500,
      clicks: 5,
      spent: 1_000_000n,
      earned: 500_000n,
    });
    await rollup(adv, '2026-05-02T10:00:00Z', { impressions: 77, clicks: 7, earned: 7_000_000n });
    const range = 'from=2026-05-01&to=2026-05-03';

    const byDay = await pub.api.get(`/api/stats2/sites/revenue?${range}`);
    expect(byDay.statusCode).toBe(200);
    // newest day first: today heads a paged list
    // what advertisers paid for the publisher's traffic is theirs: spent is 0 to the publisher
    expect(byDay.json()).toEqual({
      rows: [
        { ...zero, key: '2026-05-03', impressions: 500, clicks: 5, ctr: 1, ecpm: 1, spent: 0, earned: 0.5 },
        { ...zero, key: '2026-05-02' },
        { ...zero, key: '2026-05-01', impressions: 1000, clicks: 10, ctr: 1, ecpm: 1, spent: 0, earned: 1 },
      ],
      total: { ...zero, impressions: 1500, clicks: 15, ctr: 1, ecpm: 1, spent: 0, earned: 1.5 },
      count: 3,
      page: 1,
      limit: 20,
    });

    const bySite = (await pub.api.get(`/api/stats2/sites/site?${range}`)).json();
    expect(
      bySite.rows.map((r: { key: string; name: string; impressions: number }) => [
        r.key,
        r.name,
        r.impressions,
      ]),
    ).toEqual([
      [String(pub.ids.site), 'Mag 1', 1000],
      [site2, 'Second', 500],
    ]);
    // what ran on the sites (advanced statistics): only of the sites an admin turned them on for
    expect((await pub.api.get(`/api/stats2/sites/campaigns?${range}`)).json().rows).toEqual([]);
    const named = await pub.api.get(`/api/stats2/sites/campaigns?${range}&id=${pub.ids.site}`);
    expect(named.statusCode).toBe(403);
    expect(named.json()).toMatchObject({ error: 'advanced_stats_off' });
    await admin.put(`/api/sites/${pub.ids.site}`, { site: { advanced_stats: true } });
    const first = (await pub.api.get(`/api/stats2/sites/campaigns?${range}`)).json();
    expect(first.rows.map((r: { impressions: number }) => r.impressions)).toEqual([1000]);
    await admin.put(`/api/sites/${site2}`, { site: { advanced_stats: true } });
    const byCampaign = (await pub.api.get(`/api/stats2/sites/campaigns?${range}`)).json();
    expect(byCampaign.rows).toHaveLength(1);
    expect(byCampaign.rows[0]).toMatchObject({ key: String(adv.ids.campaign), impressions: 1500 });
    expect(byCampaign.rows[0].name).toMatch(/^Trees 2 /);
    const byDomain = (await pub.api.get(`/api/stats2/sites/domains?${range}`)).json();
    expect(byDomain.rows.map((r: { key: string }) => r.key)).toEqual([
      pub.domain,
      `second-${pub.user_id}.example`,
    ]);
    const byCountry = (await pub.api.get(`/api/stats2/sites/country?${range}&sort=key&order=asc`)).json();
    expect(byCountry.rows.map((r: { key: string }) => r.key)).toEqual(['DE', 'FR']);
    const byCity = (await pub.api.get(`/api/stats2/sites/city?${range}`)).json();
    expect(byCity.rows.map((r: { key: string; impressions: number }) => [r.key, r.impressions])).toEqual([
      ['Berlin', 1000],
      ['unknown', 500],
    ]);

    // one site by id; paging keeps the total and the count of all rows
    const one = (await pub.api.get(`/api/stats2/sites/country?${range}&id=${site2}`)).json();
    expect(one.rows.map((r: { key: string }) => r.key)).toEqual(['FR']);
    const paged = (await pub.api.get(`/api/stats2/sites/revenue?${range}&page=2&limit=2`)).json();
    expect(paged).toMatchObject({ count: 3, page: 2, limit: 2, total: { impressions: 1500 } });
    expect(paged.rows.map((r: { key: string }) => r.key)).toEqual(['2026-05-01']);
    // an explicit order wins over the newest-first default
    const oldest = (await pub.api.get(`/api/stats2/sites/revenue?${range}&sort=key&order=asc`)).json();
    expect(oldest.rows.map((r: { key: string }) => r.key)).toEqual([
      '2026-05-01',
      '2026-05-02',
      '2026-05-03',
    ]);

    const total = await pub.api.get(`/api/stats2/sites/site/total?${range}&ids=${pub.ids.site},${site2}`);
    expect(total.json()).toEqual({
      total: { ...zero, impressions: 1500, clicks: 15, ctr: 1, ecpm: 1, spent: 0, earned: 1.5 },
    });

    // the advertiser's side of the same traffic: eCPM from what was spent, the sites it ran on by name
    const adv1 = (await adv.api.get(`/api/stats2/campaigns/site?${range}&id=${adv.ids.campaign}`)).json();
    expect(adv1.total).toMatchObject({ impressions: 1577, spent: 3, earned: 0, ecpm: 1.902346 });
    expect(adv1.rows.map((r: { name?: string }) => r.name)).toEqual(['Mag 1', 'Second', 'Mag 2']);
    const banner = (await adv.api.get(`/api/stats2/banners/revenue/total?${range}`)).json();
    expect(banner.total).toMatchObject({ impressions: 1577 });
  });

  test("the exchange's breakdowns and trees answer the shape with no rows", async () => {
    const o = await owner();
    await rollup(o, '2026-05-10T10:00:00Z', { impressions: 10 });
    const range = 'from=2026-05-10&to=2026-05-10';
    for (const path of ['sites/rtb', 'sites/partner', 'campaigns/rtb']) {
      const res = await o.api.get(`/api/stats2/${path}?${range}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ rows: [], total: zero, count: 0, page: 1, limit: 20 });
    }
    const viaPartner = await o.api.get(`/api/stats2/sites/revenue?${range}&partner_id=5`);
    expect(viaPartner.json()).toMatchObject({ rows: [], total: zero });
    expect((await o.api.get(`/api/stats2/sites/revenue/total?${range}`)).json().total.impressions).toBe(10);
    const dsp = (
      await admin.post('/api/dsppartners', {
        dsppartner: { name: 'Quiet DSP', endpoint: 'https://dsp.example/rtb', max_request_time: 100 },
      })
    ).json()._id as string;
    for (const tree of ['partners', 'dsp', 'phoenix-dsp']) {
      expect((await o.api.get(`/api/stats2/${tree}/country?${range}`)).statusCode).toBe(403);
      // an exchange partner's share of traffic that went through none
      const res = await admin.get(
        `/api/stats2/${tree}/country?${range}&partner_id=${tree === 'partners' ? 3 : dsp}`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().rows).toEqual([]);
      expect((await readonly.get(`/api/stats2/${tree}/revenue/total?${range}`)).json()).toEqual({
        total: zero,
      });
    }
    expect((await o.api.get(`/api/stats2/sites/unknown?${range}`)).statusCode).toBe(404);
  });

  test("each caller sums what it may read: its own, an agency its members', admins everything", async () => {
    const a = await owner();
    const b = await owner();
    await rollup(a, '2026-05-20T10:00:00Z', { impressions: 3 });
    await rollup(b, '2026-05-20T11:00:00Z', { impressions: 4 });
    const range = 'from=2026-05-20&to=2026-05-20';
    const totalOf = async (api: typeof admin, path: string) => {
      const res = await api.get(`/api/stats2/${path}${path.includes('?') ? '&' : '?'}${range}`);
      expect(res.statusCode).toBe(200);
      return res.json().total.impressions as number;
    };
    expect(await totalOf(a.api, 'sites/revenue/total')).toBe(3);
    expect(await totalOf(b.api, 'campaigns/revenue/total')).toBe(4);
    expect(await totalOf(admin, 'sites/revenue/total')).toBeGreaterThanOrEqual(7);
    expect(await totalOf(readonly, `sites/site/total?ids=${a.ids.site},${b.ids.site}`)).toBe(7);
    // another's id, an unknown id: 404, as their own pages answer
    expect((await a.api.get(`/api/stats2/sites/site?${range}&id=${b.ids.site}`)).statusCode).toBe(404);
    expect((await a.api.get(`/api/stats2/banners/os?${range}&ids=${b.ids.banner}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/stats2/campaigns/os?${range}&id=999999`)).statusCode).toBe(404);

    const agencyUser = await userWithRole(t, 'agency');
    await liftStatsDelay(t, agencyUser.user_id);
    const agency = as(t.app, agencyUser.access_token);
    const created = await agency.post('/api/agencies', { agency: { title: `Trees agency ${seq}` } });
    const member = {
      name: `Member ${seq}`,
      email: `trees-member${seq}@test.local`,
      password: 'member-pass-1',
    };
    expect((await agency.post(`/api/agencies/${created.json()._id}/addmember`, { member })).statusCode).toBe(
      201,
    );
    const memberApi = as(t.app, (await login(t.app, member.email, member.password)).access_token);
    const site = (
      await memberApi.post('/api/sites', {
        site: { title: 'Member', domain: `m${seq}.example`, category: 'news' },
      })
    ).json()._id;
    await rollup(a, '2026-05-20T12:00:00Z', { siteId: Number(site), impressions: 5 });
    expect(await totalOf(agency, 'sites/revenue/total')).toBe(5);
    expect(await totalOf(agency, `sites/country/total?id=${site}`)).toBe(5);
    expect((await agency.get(`/api/stats2/sites/country?${range}&id=${a.ids.site}`)).statusCode).toBe(404);

    // the partners tree: an agency group's sites (its members'), admins only; an unknown group is a 404
    const group = created.json()._id as string;
    const bySite = await admin.get(`/api/stats2/partners/site?${range}&id=${group}`);
    expect(bySite.statusCode).toBe(200);
    expect(bySite.json()).toMatchObject({
      rows: [{ key: String(site), name: 'Member', impressions: 5 }],
      total: { impressions: 5 },
      count: 1,
    });
    expect(await totalOf(readonly, `partners/revenue/total?ids=${group}`)).toBe(5);
    // every group's sites: the member's, not those of users in no group
    const all = (await admin.get(`/api/stats2/partners/site?${range}&limit=500`)).json();
    expect(all.rows.map((r: { key: string }) => r.key)).toContain(String(site));
    expect(all.rows.map((r: { key: string }) => r.key)).not.toContain(String(a.ids.site));
    expect((await admin.get(`/api/stats2/partners/site?${range}&id=999999`)).statusCode).toBe(404);
    expect((await agency.get(`/api/stats2/partners/site?${range}&id=${group}`)).statusCode).toBe(403);
  });

  test('the 24-hour rule: a new user sees available_at and no rows; admins see its statistics', async () => {
    const fresh = await register(t.app);
    const api = as(t.app, fresh.access_token);
    const site = (
      await api.post('/api/sites', {
        site: { title: 'Fresh', domain: `fresh-${fresh.user_id}.example`, category: 'news' },
      })
    ).json()._id as string;
    const campaign = (
      await api.post('/api/campaigns', { campaign: { title: `Fresh ${fresh.user_id}`, clickprice: 0.1 } })
    ).json()._id as string;
    await insertRollups(t.database.db, {
      hour: new Date('2026-05-25T10:00:00Z'),
      campaignId: Number(campaign),
      bannerId: 0,
      siteId: Number(site),
      widgetId: 0,
      country: 'DE',
      device: '',
      os: '',
      browser: '',
      impressions: 6,
    });
    const range = 'from=2026-05-25&to=2026-05-25';
    const held = [
      `/api/stats2/sites/country?${range}`,
      `/api/stats2/sites/country?${range}&id=${site}`,
      `/api/stats2/campaigns/revenue/total?${range}`,
      `/api/dbd?${range}&site_id=${site}`,
      `/api/criteo/stats?${range}`,
      `/api/stats/ecpm?${range}`,
      `/api/stats/campaigns/${campaign}/rtb?${range}`,
    ];
    for (const url of held) {
      const res = await api.get(url);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Date.parse(body.available_at)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
      expect(body.total.impressions).toBe(0);
      if (body.rows) expect(body.rows).toEqual([]);
    }
    const seen = (await readonly.get(`/api/stats2/sites/country?${range}&id=${site}`)).json();
    expect(seen.available_at).toBeUndefined();
    expect(seen.total.impressions).toBe(6);
    await liftStatsDelay(t, fresh.user_id);
    expect((await api.get(`/api/dbd?${range}&site_id=${site}`)).json().total.impressions).toBe(6);
  });

  test('bad ranges, timezones and id lists are 422 on the field', async () => {
    const o = await owner();
    const field = async (query: string) => {
      const res = await o.api.get(`/api/stats2/sites/revenue?${query}`);
      expect(res.statusCode).toBe(422);
      return res.json().errors.map((e: { field: string }) => e.field);
    };
    expect(await field('from=2026-05-03&to=2026-05-01')).toEqual(['from']);
    expect(await field('from=2024-01-01&to=2026-05-01')).toEqual(['from']);
    expect(await field('tz=Mars/Base')).toEqual(['tz']);
    expect(await field('ids=1,x')).toEqual(['ids']);
    expect(await field('limit=501')).toEqual(['limit']);
    // days of the caller's timezone: 23:30 UTC is the next day in Berlin
    await rollup(o, '2026-05-30T23:00:00Z', { impressions: 9 });
    const berlin = (
      await o.api.get('/api/stats2/sites/revenue?from=2026-05-30&to=2026-05-31&tz=Europe/Berlin')
    ).json();
    expect(berlin.rows.map((r: { key: string; impressions: number }) => [r.key, r.impressions])).toEqual([
      ['2026-05-31', 9],
      ['2026-05-30', 0],
    ]);
  });
});

describe('day by day, criteo, eCPM, revenue, rtb-stats', () => {
  test('dbd: every day of one campaign, site, widget or user, zero-filled', async () => {
    const o = await owner();
    const other = await owner();
    await rollup(o, '2026-06-01T10:00:00Z', {
      impressions: 100,
      clicks: 1,
      spent: 500_000n,
      earned: 200_000n,
    });
    const range = 'from=2026-06-01&to=2026-06-02';
    const campaign = (await o.api.get(`/api/dbd?${range}&campaign_id=${o.ids.campaign}`)).json();
    expect(campaign.rows).toEqual([
      { ...zero, key: '2026-06-01', impressions: 100, clicks: 1, ctr: 1, ecpm: 5, spent: 0.5, earned: 0 },
      { ...zero, key: '2026-06-02' },
    ]);
    const byAdmin = (await admin.get(`/api/dbd?${range}&campaign_id=${o.ids.campaign}`)).json();
    expect(byAdmin.total).toMatchObject({ spent: 0.5, earned: 0.2 });
    expect((await o.api.get(`/api/dbd?${range}&widget_id=${o.ids.widget}`)).json().total.ecpm).toBe(2);
    expect((await o.api.get(`/api/dbd?${range}&site_id=${o.ids.site}`)).json().total.impressions).toBe(100);
    const user = (await admin.get(`/api/dbd?${range}&user_id=${o.user_id}&side=advertiser`)).json();
    expect(user.total).toMatchObject({ impressions: 100, ecpm: 5 });
    expect((await o.api.get(`/api/dbd?${range}&user_id=${o.user_id}`)).json().total.ecpm).toBe(2);

    expect((await other.api.get(`/api/dbd?${range}&campaign_id=${o.ids.campaign}`)).statusCode).toBe(404);
    expect((await other.api.get(`/api/dbd?${range}&user_id=${o.user_id}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/dbd?${range}&user_id=999999`)).statusCode).toBe(404);
    const none = await o.api.get(`/api/dbd?${range}`);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors[0].field).toBe('campaign_id');
    const two = await o.api.get(`/api/dbd?${range}&site_id=${o.ids.site}&widget_id=${o.ids.widget}`);
    expect(two.json().errors[0].field).toBe('widget_id');
  });

  test('criteo: only the traffic of criteo campaigns, per day', async () => {
    const pub = await owner();
    const criteo = await owner('criteo');
    await rollup(pub, '2026-06-10T10:00:00Z', {
      campaignId: criteo.ids.campaign,
      bannerId: criteo.ids.banner,
      impressions: 40,
      clicks: 2,
    });
    await rollup(pub, '2026-06-10T11:00:00Z', { impressions: 1000, clicks: 50 });
    const range = 'from=2026-06-10&to=2026-06-11';
    const site = (await pub.api.get(`/api/criteo/stats?${range}&site_id=${pub.ids.site}`)).json();
    expect(site.rows.map((r: { key: string; impressions: number }) => [r.key, r.impressions])).toEqual([
      ['2026-06-10', 40],
      ['2026-06-11', 0],
    ]);
    expect((await pub.api.get(`/api/criteo/stats?${range}`)).json().total).toMatchObject({ impressions: 40 });
    expect(
      (await pub.api.get(`/api/criteo/stats?${range}&widget_id=${pub.ids.widget}`)).json().total.clicks,
    ).toBe(2);
    const own = await criteo.api.get(`/api/criteo/stats?${range}&campaign_id=${criteo.ids.campaign}`);
    expect(own.json().total).toMatchObject({ impressions: 40, clicks: 2 });
    // a campaign of another adstype has no criteo traffic; another's campaign is a 404
    expect(
      (await pub.api.get(`/api/criteo/stats?${range}&campaign_id=${pub.ids.campaign}`)).json().total,
    ).toEqual(zero);
    expect(
      (await pub.api.get(`/api/criteo/stats?${range}&campaign_id=${criteo.ids.campaign}`)).statusCode,
    ).toBe(404);
  });

  test('ecpm: a publisher by site or widget, an advertiser by campaign; other users are 404', async () => {
    const o = await owner();
    await rollup(o, '2026-06-20T10:00:00Z', { impressions: 2000, spent: 4_000_000n, earned: 3_000_000n });
    const range = 'from=2026-06-20&to=2026-06-20';
    const bySite = (await o.api.get(`/api/stats/ecpm?${range}&group=site`)).json();
    expect(bySite.rows).toEqual([
      expect.objectContaining({ key: String(o.ids.site), name: `Mag ${seq}`, ecpm: 1.5, earned: 3 }),
    ]);
    const byWidget = (await o.api.get(`/api/stats/ecpm?${range}&group=widget`)).json();
    expect(byWidget.rows[0]).toMatchObject({ key: String(o.ids.widget), name: `Below ${seq}`, ecpm: 1.5 });
    const byCampaign = (await o.api.get(`/api/stats/ecpm?${range}&side=advertiser&group=campaign`)).json();
    expect(byCampaign.rows[0]).toMatchObject({ key: String(o.ids.campaign), ecpm: 2 });
    expect((await admin.get(`/api/stats/ecpm?${range}&user_id=${o.user_id}`)).json().total.ecpm).toBe(1.5);

    const wrong = await o.api.get(`/api/stats/ecpm?${range}&side=advertiser&group=widget`);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors[0].field).toBe('group');
    const other = await owner();
    expect((await other.api.get(`/api/stats/ecpm?${range}&user_id=${o.user_id}`)).statusCode).toBe(404);
  });

  test("revenue: the platform ledger's income per day of the timezone, for admins only", async () => {
    const at = (iso: string, sum: bigint) =>
      t.database.db.insert(platformLedger).values({ type: 'click_income', sum, createdAt: new Date(iso) });
    await at('2026-07-01T10:00:00Z', 250_000n);
    await at('2026-07-01T10:30:00Z', 250_000n);
    await at('2026-07-01T22:30:00Z', 1_000_000n);
    const res = await admin.get('/api/stats/revenue?from=2026-07-01&to=2026-07-02');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      rows: [
        { key: '2026-07-01', revenue: 1.5 },
        { key: '2026-07-02', revenue: 0 },
      ],
      total: { revenue: 1.5 },
    });
    // 22:30 UTC is July 2nd in Berlin (summer time)
    const berlin = (
      await readonly.get('/api/stats/revenue?from=2026-07-01&to=2026-07-02&tz=Europe/Berlin')
    ).json();
    expect(berlin.rows.map((r: { revenue: number }) => r.revenue)).toEqual([0.5, 1]);
    const o = await owner();
    expect((await o.api.get('/api/stats/revenue?from=2026-07-01&to=2026-07-02')).statusCode).toBe(403);
  });

  test('rtb-stats of campaigns and creatives: checked ids, no rows until the exchange records them', async () => {
    const o = await owner();
    const other = await owner();
    const range = 'from=2026-07-10&to=2026-07-12';
    for (const base of [`campaigns/${o.ids.campaign}`, `banners/${o.ids.banner}`]) {
      for (const tail of [
        'rtb',
        'rtb/sources',
        'rtb/sources/9',
        'rtb/partners/4',
        'rtb/partners/4/sources/9',
      ]) {
        const res = await o.api.get(`/api/stats/${base}/${tail}?${range}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ rows: [], total: zero, count: 0, page: 1, limit: 20 });
        expect((await other.api.get(`/api/stats/${base}/${tail}?${range}`)).statusCode).toBe(404);
      }
    }
    expect((await readonly.get(`/api/stats/campaigns/${o.ids.campaign}/rtb?${range}`)).statusCode).toBe(200);
    expect((await o.api.get(`/api/stats/campaigns/${o.ids.campaign}/rtb?tz=Nowhere`)).statusCode).toBe(422);
  });
});
