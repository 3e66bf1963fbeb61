import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { runningCampaign, settle } from '../../delivery/delivery-fixtures.test-helper.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';
import { createRtbService } from './rtb.service.ts';
import { createBidSigner } from './rtb-tokens.ts';

/** The OpenRTB clearing price macro. */
const AUCTION_PRICE = ['$', '{AUCTION_PRICE}'].join('');

let t: TestApp;
let admin: ReturnType<typeof as>;
let partner: { _id: string; key: string };
let running: Awaited<ReturnType<typeof runningCampaign>>;

const banner = (id = 'r1', extra: Record<string, unknown> = {}) => ({
  id,
  imp: [{ id: '1', banner: { w: 300, h: 250 } }],
  site: { domain: 'news.example', page: 'https://news.example/a' },
  ...extra,
});

const post = (body: unknown, key = partner.key) =>
  t.app.inject({ method: 'POST', url: `/rtb/openrtb2/${key}`, payload: body as object });

/** The bid's nurl/burl with the clearing price filled in, as a path. */
const fire = (url: string, price: string) =>
  t.app.inject({
    method: 'GET',
    url: url.replace('http://localhost:8080', '').replace(AUCTION_PRICE, price),
  });

const balanceOf = async (campaignId: string) =>
  (await running.api.get(`/api/campaigns/${campaignId}`)).json().balance as number;

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  partner = (
    await admin.post('/api/rtbpartners', { rtbpartner: { name: 'SSP', max_request_ms: 1000 } })
  ).json();
  running = await runningCampaign(t, admin, {
    campaign: { openrtb: { enabled: true, ecpm_bid: 4 } },
    fund: 50,
  });
  await t.database.db.execute(
    sql`update banners set images = '{"landscape":"c.jpg"}'::jsonb where id = ${Number(running.banner._id)}`,
  );
  await settle(t);
});
afterAll(() => t?.close());

describe('win and billing notices', () => {
  test('burl charges the clearing price per impression once, through the ledger; nurl is recorded', async () => {
    const res = await post(banner('charge-once'));
    expect(res.statusCode, res.body).toBe(200);
    const bid = res.json().seatbid[0].bid[0];
    expect(bid.price).toBe(4);
    const before = await balanceOf(running.campaign._id);
    expect((await fire(bid.nurl, '2.5')).statusCode).toBe(204);
    expect((await fire(bid.burl, '2.5')).statusCode).toBe(204);
    // 2.50 CPM: 0.0025 per impression
    expect(await balanceOf(running.campaign._id)).toBeCloseTo(before - 0.0025, 6);
    expect((await fire(bid.burl, '2.5')).statusCode).toBe(409);
    expect((await fire(bid.nurl, '2.5')).statusCode).toBe(409);
    expect(await balanceOf(running.campaign._id)).toBeCloseTo(before - 0.0025, 6);
    const ledger = await t.database.db.execute(
      sql`select sum from campaign_ledger where type = 'rtb_impression' and campaign_id = ${Number(running.campaign._id)}`,
    );
    expect((ledger as unknown as { rows: { sum: string }[] }).rows.map((r) => Number(r.sum))).toEqual([
      -2500,
    ]);
    // the advertiser's campaign payments list it (it answered 500 on this row's kind before)
    const payments = await running.api.get(`/api/campaigns/${running.campaign._id}/payments`);
    expect(payments.statusCode, payments.body).toBe(200);
    expect(payments.json().items[0]).toMatchObject({ type: 'rtb_impression', sum: -0.0025 });
    // what was paid in (the campaign page's recent payments) apart from what it was charged
    const kinds = async (kind: string) =>
      (
        (await running.api.get(`/api/campaigns/${running.campaign._id}/payments?kind=${kind}`)).json()
          .items as { type: string }[]
      ).map((p) => p.type);
    expect(await kinds('payments')).toEqual(['campaign_funding']);
    expect(await kinds('charges')).toEqual(['rtb_impression']);
    expect((await kinds('all')).sort()).toEqual(['campaign_funding', 'rtb_impression']);
    const notes = (await admin.get('/api/notifications?limit=10')).json();
    expect(notes.items.map((n: { type: string }) => n.type).sort()).toEqual(['burl', 'nurl']);
    const burl = notes.items.find((n: { type: string }) => n.type === 'burl');
    expect(burl).toMatchObject({
      campaign_id: running.campaign._id,
      price: 0.0025,
      user_id: running.user_id,
    });
    // the advertiser sees its own notifications; another user none
    // (besides the moderation notices of its campaign and creative: issue 12)
    const own = (await running.api.get('/api/notifications?limit=100')).json().items as { type: string }[];
    expect(own.filter((n) => n.type === 'nurl' || n.type === 'burl')).toHaveLength(2);
    // the notifications page lists them apart: one of each exchange impression would bury the others
    const types = async (exchange: string) =>
      (
        (await running.api.get(`/api/notifications?limit=100&exchange=${exchange}`)).json().items as {
          type: string;
        }[]
      )
        .map((n) => n.type)
        .sort();
    expect(await types('only')).toEqual(['burl', 'nurl']);
    const others = await types('exclude');
    expect(others.length).toBe(own.length - 2);
    expect(others).not.toContain('nurl');
    expect(others).not.toContain('burl');
    expect((await running.api.get('/api/notifications?exchange=some')).statusCode).toBe(422);
  });

  test('a clearing price above our bid is charged at our bid; a bad price counts nothing', async () => {
    const bid = (await post(banner('capped'))).json().seatbid[0].bid[0];
    expect((await fire(bid.burl, 'abc')).statusCode).toBe(400);
    expect((await fire(bid.burl, '-1')).statusCode).toBe(400);
    const before = await balanceOf(running.campaign._id);
    expect((await fire(bid.burl, '99')).statusCode).toBe(204);
    expect(await balanceOf(running.campaign._id)).toBeCloseTo(before - 0.004, 6);
  });

  test('the clearing price is converted in integers: 124.5 micro-units per thousand round half up to 125', async () => {
    // with floats, 0.0001245 × 10^6 is 124.49999999999999 and was rounded down to 124
    const bid = (await post(banner('exact'))).json().seatbid[0].bid[0];
    expect((await fire(bid.nurl, '0.0001245')).statusCode).toBe(204);
    const [row] = (
      (await t.database.db.execute(
        sql`select price from notifications where type = 'nurl' order by id desc limit 1`,
      )) as unknown as { rows: { price: string }[] }
    ).rows;
    expect(Number(row?.price)).toBe(125);
  });

  test('forged, altered or foreign-signed URLs are refused and count nothing', async () => {
    const bid = (await post(banner('forged'))).json().seatbid[0].bid[0];
    const path = bid.burl.replace('http://localhost:8080', '') as string;
    const [, , , token] = path.split('?')[0]?.split('/') ?? [];
    const [body = '', mac = ''] = (token ?? '').split('.');
    const altered = JSON.parse(Buffer.from(body, 'base64url').toString());
    altered[5] = 999_000_000; // a higher bid
    const alteredBody = Buffer.from(JSON.stringify(altered)).toString('base64url');
    const before = await balanceOf(running.campaign._id);
    for (const bad of [
      `/rtb/burl/${alteredBody}.${mac}?price=1`,
      `/rtb/burl/${body}.AAAAAAAAAAAAAAAAAAAAAA?price=1`,
      `/rtb/burl/${createBidSigner('other secret', 60).sign({ ...fromArray(altered), bid: 1 })}?price=1`,
      '/rtb/burl/garbage?price=1',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: bad });
      expect(res.statusCode, bad).toBe(400);
    }
    expect(await balanceOf(running.campaign._id)).toBe(before);
  });

  test('concurrent duplicate burls charge once', async () => {
    const bid = (await post(banner('race'))).json().seatbid[0].bid[0];
    const before = await balanceOf(running.campaign._id);
    const answers = await Promise.all(Array.from({ length: 12 }, () => fire(bid.burl, '3')));
    expect(answers.filter((a) => a.statusCode === 204)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(11);
    expect(await balanceOf(running.campaign._id)).toBeCloseTo(before - 0.003, 6);
  });

  test('rtb-stats of the campaign and its creative return the billed rows', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const q = `from=${day}&to=${day}&tz=UTC`;
    const byDay = (await admin.get(`/api/stats/campaigns/${running.campaign._id}/rtb?${q}`)).json();
    expect(byDay.total.impressions).toBeGreaterThanOrEqual(3);
    expect(byDay.total.spent).toBeGreaterThan(0);
    const sources = (await admin.get(`/api/stats/banners/${running.banner._id}/rtb/sources?${q}`)).json();
    expect(sources.rows[0]).toMatchObject({ name: 'news.example' });
    const sourceId = sources.rows[0].key;
    const one = await admin.get(
      `/api/stats/campaigns/${running.campaign._id}/rtb/partners/${partner._id}/sources/${sourceId}?${q}`,
    );
    expect(one.json().total.impressions).toBe(byDay.total.impressions);
    const other = await admin.get(`/api/stats/campaigns/${running.campaign._id}/rtb/partners/999?${q}`);
    expect(other.json().total.impressions).toBe(0);
    // the campaign's impressions by widget and its statistics by site name the exchange's rows (they were a
    // 500: the 'rtb' key read as a widget id)
    const byWidget = await admin.get(`/api/campaigns/${running.campaign._id}/impressions?${q}`);
    expect(byWidget.statusCode).toBe(200);
    expect(byWidget.json().items).toContainEqual(
      expect.objectContaining({ exchange: true, site_id: null, widget_id: null }),
    );
    const bySite = (await admin.get(`/api/stats/campaigns/${running.campaign._id}?${q}&group=site`)).json();
    expect(bySite.rows.map((r: { key: string }) => r.key)).toContain('rtb');
  });

  test('a source the database cannot store (NUL, a lone surrogate) still bills: it is cleaned into the URLs', async () => {
    for (const [id, extra] of [
      ['nul-domain', { site: { domain: 'news\u0000.example' } }],
      ['nul-bundle', { site: undefined, app: { bundle: 'com.x\u0000y' } }],
      ['surrogate', { site: { domain: 'news\ud800.example' } }],
    ] as const) {
      const res = await post(banner(id, extra));
      expect(res.statusCode, res.body).toBe(200);
      const bid = res.json().seatbid[0].bid[0];
      const before = await balanceOf(running.campaign._id);
      expect((await fire(bid.nurl, '1')).statusCode, id).toBe(204);
      expect((await fire(bid.burl, '1')).statusCode, id).toBe(204);
      expect(await balanceOf(running.campaign._id)).toBeCloseTo(before - 0.001, 6);
    }
  });
});

describe('bidding rules', () => {
  test('tmax (capped by the partner) is honoured: past the deadline the answer is a no-bid', async () => {
    const ctx = contextOf(t.app);
    let now = 0;
    const service = createRtbService({
      repo: ctx.rtbRepo,
      partners: ctx.rtbPartners.service,
      index: ctx.delivery.index,
      counters: ctx.delivery.counters,
      visitors: ctx.delivery.visitors,
      rates: ctx.rates,
      store: ctx.store,
      signer: createBidSigner('s', 60),
      publicUrl: 'http://x',
      clock: () => now,
    });
    try {
      now = 5;
      expect(service.bid(partner.key, '2.5', banner('in-time', { tmax: 100 }), 0).status).toBe(200);
      now = 99;
      expect(service.bid(partner.key, '2.5', banner('late', { tmax: 100 }), 0)).toMatchObject({
        status: 204,
        reason: 'timeout',
      });
      // tmax 5000 but the partner allows 1000 ms
      now = 1500;
      expect(service.bid(partner.key, '2.5', banner('capped', { tmax: 5000 }), 0).status).toBe(204);
    } finally {
      service.stop();
    }
  });

  test('wseat, bseat, cur, badv, source and partner lists, only_openrtb, target CTR', async () => {
    expect((await post(banner('w', { wseat: ['other'] }))).statusCode).toBe(204);
    expect((await post(banner('b', { bseat: ['adp'] }))).statusCode).toBe(204);
    expect((await post(banner('c', { cur: ['XXX'] }))).statusCode).toBe(204);
    expect((await post(banner('a', { badv: ['shop.example'] }))).statusCode).toBe(204);
    contextOf(t.app).rates.replace([['EUR', '0.5']]);
    const eur = (await post(banner('eur', { cur: ['EUR'] }))).json();
    expect(eur.cur).toBe('EUR');
    expect(eur.seatbid[0].bid[0].price).toBe(2);
    const set = async (openrtb: Record<string, unknown>) => {
      const r = await running.api.put(`/api/campaigns/${running.campaign._id}`, {
        // the whole block each time (a PUT merges the fields it names over the stored ones)
        campaign: {
          openrtb: {
            enabled: true,
            ecpm_bid: 4,
            source_blacklist: [],
            source_whitelist: [],
            dsp_blacklist: [],
            dsp_whitelist: [],
            target_ctr: null,
            target_ctr_auto: false,
            ...openrtb,
          },
        },
      });
      expect(r.statusCode, r.body).toBe(200);
      await settle(t);
    };
    await set({ source_blacklist: ['news.example'] });
    expect((await post(banner('sb'))).statusCode).toBe(204);
    await set({ source_whitelist: ['other.example'] });
    expect((await post(banner('sw'))).statusCode).toBe(204);
    await set({ dsp_blacklist: [partner._id] });
    expect((await post(banner('db'))).statusCode).toBe(204);
    await set({ dsp_whitelist: [partner._id], source_whitelist: ['news.example'] });
    expect((await post(banner('dw'))).statusCode).toBe(200);
    await set({ target_ctr: 5, target_ctr_auto: true });
    // on auto, not yet decided (too few impressions): it bids
    expect((await post(banner('auto'))).statusCode).toBe(200);
    // the hourly check found it below its target: it stops bidding until a check passes
    await t.database.db.execute(
      sql`update campaigns set target_ctr_status = 'not_passed' where id = ${Number(running.campaign._id)}`,
    );
    await settle(t);
    expect((await post(banner('auto-failed'))).headers['x-nobid-reason']).toBe('no_campaign');
    await t.database.db.execute(
      sql`update campaigns set target_ctr_status = 'checked' where id = ${Number(running.campaign._id)}`,
    );
    await settle(t);
    expect((await post(banner('auto-passed'))).statusCode).toBe(200);
    await t.database.db.execute(
      sql`update campaigns set target_ctr_status = 'unchecked' where id = ${Number(running.campaign._id)}`,
    );
    await t.database.db.execute(
      sql`update campaigns set openrtb = openrtb || '{"target_ctr_auto":false}'::jsonb where id = ${Number(running.campaign._id)}`,
    );
    await settle(t);
    expect((await post(banner('unchecked'))).headers['x-nobid-reason']).toBe('no_campaign');
    await set({ only_openrtb: true });
    expect((await post(banner('only'))).statusCode).toBe(200);
    const off = await running.api.put(`/api/campaigns/${running.campaign._id}`, {
      campaign: { openrtb: { enabled: false } },
    });
    expect(off.statusCode).toBe(200);
    await settle(t);
    expect((await post(banner('off'))).statusCode).toBe(204);
  });

  test('an inactive partner is refused (403, as on the Prebid endpoint), before its body is read', async () => {
    await admin.put(`/api/rtbpartners/${partner._id}`, { rtbpartner: { status: 'inactive' } });
    const res = await post(banner('inactive'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'forbidden', reason: 'partner inactive' });
    expect((await post('{"id":')).statusCode).toBe(403);
    // its billing record stays: it cannot be deleted
    const del = await admin.del(`/api/rtbpartners/${partner._id}`);
    expect(del.statusCode).toBe(422);
    expect(del.json().errors[0].code).toBe('rtb_partner_in_use');
  });
});

function fromArray(v: unknown[]) {
  const [bidId, partnerId, campaignId, bannerId, source, bid, cur, rate, issuedAt] = v as [
    string,
    number,
    number,
    number,
    string,
    number,
    string,
    number,
    number,
  ];
  return { bidId, partnerId, campaignId, bannerId, source, bid, cur, rate, issuedAt };
}
