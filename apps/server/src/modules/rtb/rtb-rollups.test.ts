import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runningCampaign, settle } from '../../delivery/delivery-fixtures.test-helper.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';

/** The OpenRTB clearing price macro. */
const AUCTION_PRICE = ['$', '{AUCTION_PRICE}'].join('');

let t: TestApp;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t?.close());

test("a billed RTB impression is in the campaign's ordinary statistics, source 'rtb', once", async () => {
  const partner = (
    await admin.post('/api/rtbpartners', { rtbpartner: { name: 'SSP rollups', max_request_ms: 1000 } })
  ).json();
  const running = await runningCampaign(t, admin, {
    campaign: { openrtb: { enabled: true, ecpm_bid: 4 } },
    fund: 50,
  });
  await t.database.db.execute(
    sql`update banners set images = '{"landscape":"c.jpg"}'::jsonb where id = ${Number(running.banner._id)}`,
  );
  await settle(t);
  const res = await t.app.inject({
    method: 'POST',
    url: `/rtb/openrtb2/${partner.key}`,
    payload: {
      id: 'rollup-1',
      imp: [{ id: '1', banner: { w: 300, h: 250 } }],
      site: { domain: 'news.example', page: 'https://news.example/a' },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const bid = res.json().seatbid[0].bid[0];
  const burl = String(bid.burl).replace('http://localhost:8080', '').replace(AUCTION_PRICE, '2.5');
  expect((await t.app.inject({ method: 'GET', url: burl })).statusCode).toBe(204);
  expect((await t.app.inject({ method: 'GET', url: burl })).statusCode).toBe(409);

  // 2.50 CPM: 0.0025 spent on one impression, under the source 'rtb' (no site or widget of ours)
  const stats = await admin.get(`/api/stats/campaigns/${running.campaign._id}?group=site`);
  expect(stats.statusCode, stats.body).toBe(200);
  const body = stats.json();
  expect(body.total).toMatchObject({ impressions: 1, spent: 0.0025 });
  expect(body.rows).toEqual([expect.objectContaining({ key: 'rtb', impressions: 1, spent: 0.0025 })]);
  const byDay = (await admin.get(`/api/stats/campaigns/${running.campaign._id}`)).json();
  expect(byDay.total).toMatchObject({ impressions: 1, spent: 0.0025 });
  const creative = (await admin.get(`/api/stats/banners/${running.banner._id}?group=widget`)).json();
  expect(creative.rows).toEqual([expect.objectContaining({ key: 'rtb', impressions: 1 })]);
});
