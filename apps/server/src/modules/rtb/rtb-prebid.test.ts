import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { runningCampaign, settle } from '../../delivery/delivery-fixtures.test-helper.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';

const base = process.env.OPENRTB_CONFORMANCE ?? '/work/shared/conformance/openrtb';
const requestsDir = `${base}/requests`;
const read = (name: string) => JSON.parse(readFileSync(`${requestsDir}/${name}`, 'utf8'));
/** The OpenRTB clearing price macro. */
const AUCTION_PRICE = ['$', '{AUCTION_PRICE}'].join('');

let t: TestApp;
let admin: ReturnType<typeof as>;
let rtbKey: string;
let prebid: { _id: string; key: string; endpoint: string };
let running: Awaited<ReturnType<typeof runningCampaign>>;

/** As a Prebid Server sends a request to a bidder: the bidder's params in imp.ext.bidder, ext.prebid. */
function asPrebidServer(request: Record<string, unknown>): Record<string, unknown> {
  const imp = (request.imp as Record<string, unknown>[]).map((i) => ({
    ...i,
    ext: { ...(i.ext as object), prebid: { storedrequest: { id: 'x' } }, bidder: { placementId: 'p1' } },
  }));
  return { ...request, imp, ext: { ...(request.ext as object), prebid: { debug: false } } };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
const postPrebid = (body: unknown, key = prebid.key, headers: Record<string, string> = {}) =>
  post(`/rtb/prebid/${key}`, body, headers);

const banner = (id: string, extra: Record<string, unknown> = {}) =>
  asPrebidServer({
    id,
    tmax: 800,
    imp: [{ id: '1', banner: { format: [{ w: 300, h: 250 }] } }],
    site: { domain: 'news.example', page: 'https://news.example/a' },
    ...extra,
  });

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
  const p = await admin.post('/api/rtbpartners', { rtbpartner: { name: 'SSP', max_request_ms: 5000 } });
  rtbKey = p.json().key;
  const created = await admin.post('/api/prebidpartners', {
    prebidpartner: { name: 'PBS one', bidder_code: 'adp' },
  });
  expect(created.statusCode, created.body).toBe(201);
  prebid = created.json();
  running = await runningCampaign(t, admin, {
    campaign: { openrtb: { enabled: true, ecpm_bid: 5 } },
    banner: { title: 'Great shoes at half price', text: 'Only this week', url: 'https://shop.example/shoes' },
    fund: 50,
  });
  await t.database.db.execute(
    sql`update banners set images = '{"landscape":"creative.jpg"}'::jsonb where id = ${Number(running.banner._id)}`,
  );
  await t.database.db.execute(
    sql`update campaigns set brand_name = 'Shoe Shop' where id = ${Number(running.campaign._id)}`,
  );
  contextOf(t.app).rates.replace([
    ['USD', '1'],
    ['EUR', '0.9'],
    ['CHF', '0.88'],
    ['GBP', '0.8'],
    ['RUB', '90'],
  ]);
  await settle(t);
});
afterAll(() => t?.close());

describe('POST /rtb/prebid/{key}: the bidder of the RTB partners, for Prebid Servers', () => {
  const files = readdirSync(requestsDir).filter((f) => f.endsWith('.json') && !f.startsWith('native1.2-'));
  test.each(files)(
    '%s: the same answer as /rtb/openrtb2, with the media type a Prebid adapter reads',
    async (file) => {
      const request = read(file);
      const version = file.startsWith('2.6') ? '2.6' : '2.5';
      const headers = { 'x-openrtb-version': version };
      let direct = await post(`/rtb/openrtb2/${rtbKey}`, request, headers);
      // a cold first request may miss a short tmax: ask once more
      if (direct.headers['x-nobid-reason'] === 'timeout')
        direct = await post(`/rtb/openrtb2/${rtbKey}`, request, headers);
      const res = await postPrebid(asPrebidServer(request), prebid.key, headers);
      expect(res.statusCode, `${res.headers['x-nobid-reason']} ${res.body}`).toBe(direct.statusCode);
      if (res.statusCode === 204) {
        expect(res.headers['x-nobid-reason']).toBe(direct.headers['x-nobid-reason']);
        return;
      }
      const answer = res.json();
      expect(answer.id).toBe(request.id);
      expect(answer.cur).toBe(direct.json().cur);
      expect(answer.seatbid[0].seat).toBe('adp');
      const bids = answer.seatbid[0].bid as {
        impid: string;
        adm: string;
        price: number;
        nurl: string;
        burl: string;
        ext: { prebid: { type: string } };
      }[];
      expect(bids.map((b) => b.impid)).toEqual(
        direct.json().seatbid[0].bid.map((b: { impid: string }) => b.impid),
      );
      for (const bid of bids) {
        const imp = request.imp.find((i: { id: string }) => i.id === bid.impid);
        const adm = bid.adm as string;
        // native markup is JSON, a banner's is HTML
        expect(bid.ext.prebid.type).toBe(adm.startsWith('{') ? 'native' : 'banner');
        if (!imp.banner) expect(bid.ext.prebid.type).toBe('native');
        expect(bid.price).toBeGreaterThan(0);
        expect(bid.nurl).toContain(AUCTION_PRICE);
        expect(bid.burl).toContain(AUCTION_PRICE);
      }
    },
  );

  test('an unknown key is 404; an inactive partner 403; the same partner active again bids', async () => {
    const unknown = await postPrebid(banner('u'), 'no-such-key');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().reason).toContain('unknown');
    // a body that is not JSON still answers by the key first
    expect((await postPrebid('{"id":', 'no-such-key')).statusCode).toBe(404);
    const other = (
      await admin.post('/api/prebidpartners', { prebidpartner: { name: 'PBS two', status: 'inactive' } })
    ).json();
    const off = await postPrebid(banner('off'), other.key);
    expect(off.statusCode).toBe(403);
    expect(off.json().reason).toContain('inactive');
    await admin.put(`/api/prebidpartners/${other._id}`, { prebidpartner: { status: 'active' } });
    expect((await postPrebid(banner('on'), other.key)).statusCode).toBe(200);
    await admin.put(`/api/prebidpartners/${other._id}`, { prebidpartner: { status: 'inactive' } });
    expect((await postPrebid(banner('off-again'), other.key)).statusCode).toBe(403);
    expect((await admin.del(`/api/prebidpartners/${other._id}`)).statusCode).toBe(204);
    expect((await postPrebid(banner('gone'), other.key)).statusCode).toBe(404);
  });

  test.each([
    ['not JSON', '{"id":', 'body is not JSON'],
    ['an empty body', '', 'body is not JSON'],
    ['no imp', { id: 'x' }, 'imp'],
    ['imp id missing', { id: 'x', imp: [{ banner: {} }] }, 'imp.0.id'],
    ['tmax a string', { id: 'x', tmax: 'soon', imp: [{ id: '1', banner: {} }] }, 'tmax'],
    ['null', 'null', 'request'],
  ])('malformed: %s is a 400 with the reason', async (_name, body, reason) => {
    const res = await postPrebid(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request', reason: expect.stringContaining(reason) });
  });

  test('a won bid: nurl counts the win, burl charges the clearing price once; the partner stats count it all', async () => {
    const ctx = contextOf(t.app);
    await ctx.rtb.flushPrebid();
    const statsOf = async () =>
      (await admin.get(`/api/prebidpartners/${prebid._id}/stats`)).json().total as {
        requests: number;
        bids: number;
        wins: number;
        impressions: number;
        spent: number;
      };
    const before = await statsOf();
    const res = await postPrebid(banner('win-1'));
    expect(res.statusCode, res.body).toBe(200);
    const bid = res.json().seatbid[0].bid[0];
    expect(bid.ext).toEqual({ prebid: { type: 'banner' } });
    expect(bid.price).toBe(5);
    expect(res.json().cur).toBe('USD');
    expect((await postPrebid(banner('no-bid', { wseat: ['other'] }))).statusCode).toBe(204);
    expect((await postPrebid({ id: 'bad' })).statusCode).toBe(400);

    const balance = await balanceOf(running.campaign._id);
    expect((await fire(bid.nurl, '3')).statusCode).toBe(204);
    expect((await fire(bid.burl, '3')).statusCode).toBe(204);
    expect((await fire(bid.burl, '3')).statusCode).toBe(409);
    expect((await fire(bid.nurl, '3')).statusCode).toBe(409);
    // 3.00 CPM: 0.003 per impression, once
    expect(await balanceOf(running.campaign._id)).toBeCloseTo(balance - 0.003, 6);
    const ledger = await t.database.db.execute(
      sql`select sum from campaign_ledger where type = 'rtb_impression' and campaign_id = ${Number(running.campaign._id)}`,
    );
    expect((ledger as unknown as { rows: { sum: string }[] }).rows.map((r) => Number(r.sum))).toEqual([
      -3000,
    ]);
    const notes = (await admin.get('/api/notifications?limit=10')).json();
    const burl = notes.items.find((n: { type: string }) => n.type === 'burl');
    expect(burl.payload).toMatchObject({ prebid_partner_id: prebid._id });

    await ctx.rtb.flushPrebid();
    const after = await statsOf();
    expect(after.requests - before.requests).toBe(3);
    expect(after.bids - before.bids).toBe(1);
    expect(after.wins - before.wins).toBe(1);
    expect(after.impressions - before.impressions).toBe(1);
    expect(after.spent - before.spent).toBeCloseTo(0.003, 6);
    const byCampaign = (await admin.get(`/api/prebidpartners/${prebid._id}/v2/stats?group=campaign`)).json();
    const row = byCampaign.rows.find((r: { key: string }) => r.key === running.campaign._id);
    expect(row).toMatchObject({ bids: expect.any(Number), wins: 1, impressions: 1 });
    expect(row.bids).toBeGreaterThanOrEqual(1);
    // the same rows as a file: by campaign (v2) and by day, each with the screen's total
    const file = await admin.get(
      `/api/prebidpartners/${prebid._id}/v2/stats/export?group=campaign&format=csv`,
    );
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-disposition']).toMatch(
      new RegExp(`filename="stats-prebid-partner-${prebid._id}-campaign-\\d{4}-\\d{2}-\\d{2}-`),
    );
    /** A CSV's rows as objects of its header's columns. */
    const table = (csv: string) => {
      const [head, ...rest] = csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      const header = (head as string).split(',');
      return rest.map((line) => Object.fromEntries(header.map((h, i) => [h, line.split(',')[i]])));
    };
    expect(file.body.split('\n')[0]).toMatch(/^\uFEFF.*,requests,bids,wins,impressions,spent,ecpm$/);
    const rows = table(file.body);
    expect(rows.find((r) => r.campaign === running.campaign._id)).toMatchObject({
      wins: '1',
      impressions: '1',
      spent: String(row.spent),
      bids: String(row.bids),
    });
    expect(rows.at(-1)).toMatchObject({ campaign: 'total', wins: String(byCampaign.total.wins) });
    const byDay = await admin.get(`/api/prebidpartners/${prebid._id}/stats/export?group=campaign&format=csv`);
    // the by-date file is by day whatever the group says, as its screen
    expect(byDay.body.split('\n')[0]).toBe('\uFEFFday,requests,bids,wins,impressions,spent,ecpm');
    expect(table(byDay.body).at(-1)).toMatchObject({ day: 'total', requests: String(after.requests) });
    // the RTB partners' statistics are not touched by a Prebid bid
    const rtbRows = await t.database.db.execute(sql`select count(*)::int as n from rtb_stats`);
    expect((rtbRows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
    // the campaign's and the creative's exchange statistics by day count it (not their RTB source views)
    const day = new Date().toISOString().slice(0, 10);
    const q = `from=${day}&to=${day}&tz=UTC`;
    for (const path of [`campaigns/${running.campaign._id}/rtb`, `banners/${running.banner._id}/rtb`]) {
      const total = (await admin.get(`/api/stats/${path}?${q}`)).json().total;
      expect(total, path).toMatchObject({ impressions: 1 });
      expect(total.spent, path).toBeCloseTo(0.003, 6);
    }
    const sources = (await admin.get(`/api/stats/campaigns/${running.campaign._id}/rtb/sources?${q}`)).json();
    expect(sources.rows).toEqual([]);
    // a billed partner is not deleted (its statistics are money records): it is set inactive
    const gone = await admin.del(`/api/prebidpartners/${prebid._id}`);
    expect(gone.statusCode).toBe(422);
    expect(gone.json().errors[0].code).toBe('prebid_partner_in_use');
    expect((await admin.get(`/api/prebidpartners/${prebid._id}/stats`)).statusCode).toBe(200);
  });
});

describe('bcat: blocked IAB categories', () => {
  test('a campaign whose IAB categories meet bcat (the code or its tier-1 parent) does not bid; its bids carry cat', async () => {
    const put = await running.api.put(`/api/campaigns/${running.campaign._id}`, {
      campaign: { iab_categories: ['IAB7-39', 'iab8-5', 'IAB7-39'] },
    });
    expect(put.statusCode, put.body).toBe(200);
    // upper-cased, once each
    expect(put.json().iab_categories).toEqual(['IAB7-39', 'IAB8-5']);
    expect((await running.api.get(`/api/campaigns/${running.campaign._id}`)).json().iab_categories).toEqual([
      'IAB7-39',
      'IAB8-5',
    ]);
    await settle(t);
    for (const path of [`/rtb/prebid/${prebid.key}`, `/rtb/openrtb2/${rtbKey}`]) {
      for (const bcat of [['IAB7-39'], ['IAB7'], ['iab7'], ['IAB8-5']]) {
        const res = await post(path, banner(`bcat-${bcat[0]}`, { bcat }));
        expect(res.statusCode, `${path} ${bcat}`).toBe(204);
        expect(res.headers['x-nobid-reason']).toBe('no_campaign');
      }
      const open = await post(path, banner('bcat-other', { bcat: ['IAB9', 'IAB7-1'] }));
      expect(open.statusCode, open.body).toBe(200);
      expect(open.json().seatbid[0].bid[0].cat).toEqual(['IAB7-39', 'IAB8-5']);
    }
    // the free-text sub-category is no longer read: only the field counts
    await running.api.put(`/api/campaigns/${running.campaign._id}`, {
      campaign: { iab_categories: [], sub_category: 'IAB7-39' },
    });
    await settle(t);
    const res = await post(`/rtb/prebid/${prebid.key}`, banner('bcat-none', { bcat: ['IAB7'] }));
    expect(res.statusCode).toBe(200);
    expect(res.json().seatbid[0].bid[0].cat).toBeUndefined();
  });

  test('only known IAB codes: an unknown one is a translated 422 on its item', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/campaigns/${running.campaign._id}`,
      headers: { authorization: `Bearer ${running.access_token}`, 'accept-language': 'de' },
      payload: { campaign: { iab_categories: ['IAB7', 'IAB99', 'shoes'] } },
    });
    expect(res.statusCode, res.body).toBe(422);
    const errors = res.json().errors as { field: string; detail: string }[];
    expect(errors.map((e) => e.field)).toEqual(['iab_categories.1', 'iab_categories.2']);
    expect(errors[0]?.detail).toBe(
      'IAB-Inhaltskategorien: unbekannter Code; verwenden Sie IAB-Inhaltskategoriecodes wie IAB7 oder IAB7-39',
    );
    const created = await running.api.post('/api/campaigns', {
      campaign: { title: 'IAB create', clickprice: 0.1, iab_categories: ['IAB26-1'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().iab_categories).toEqual(['IAB26-1']);
    expect(
      (
        await running.api.post('/api/campaigns', {
          campaign: { title: 'IAB bad', clickprice: 0.1, iab_categories: ['IAB0'] },
        })
      ).statusCode,
    ).toBe(422);
  });
});
