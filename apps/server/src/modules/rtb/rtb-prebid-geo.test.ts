import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { runningCampaign, settle } from '../../delivery/delivery-fixtures.test-helper.ts';
import { cityTestDatabase } from '../../delivery/visitor/test-mmdb.ts';
import { userAgents } from '../../delivery/visitor/test-user-agents.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';

/**
 * A Prebid bid's win (nurl) and impression (burl) are counted under the country and device the bidder
 * read from the request (`device.geo.country`, else GeoIP of `device.ip`; the device type of `device.ua`),
 * so the partner's statistics by country and device show them, not as "unknown".
 */
const AUCTION_PRICE = ['$', '{AUCTION_PRICE}'].join('');
// MaxMind's test network of London, GB (see test-mmdb.ts)
const LONDON_IP = '81.2.69.142';

let t: TestApp;
let dir: string;
let admin: ReturnType<typeof as>;
let prebid: { _id: string; key: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rtb-prebid-geo-'));
  writeFileSync(join(dir, 'city.mmdb'), cityTestDatabase());
  t = await createTestApp({ GEOIP_DB: join(dir, 'city.mmdb') });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  prebid = (await admin.post('/api/prebidpartners', { prebidpartner: { name: 'PBS geo' } })).json();
  await runningCampaign(t, admin, {
    campaign: { openrtb: { enabled: true, ecpm_bid: 5 } },
    banner: { title: 'Great shoes at half price', text: 'Only this week', url: 'https://shop.example/shoes' },
    fund: 50,
  });
  await settle(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const request = (id: string, device: Record<string, unknown>) => ({
  id,
  tmax: 800,
  imp: [
    {
      id: '1',
      native: {
        request: JSON.stringify({ ver: '1.2', assets: [{ id: 1, required: 1, title: { len: 90 } }] }),
      },
      ext: { bidder: { placementId: 'p1' } },
    },
  ],
  site: { domain: 'news.example', page: 'https://news.example/a' },
  device,
});

async function winAndBill(id: string, device: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/rtb/prebid/${prebid.key}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(request(id, device)),
  });
  expect(res.statusCode, `${res.headers['x-nobid-reason']} ${res.body}`).toBe(200);
  const bid = res.json().seatbid[0].bid[0] as { nurl: string; burl: string };
  for (const url of [bid.nurl, bid.burl]) {
    const n = await t.app.inject({
      method: 'GET',
      url: url.replace('http://localhost:8080', '').replace(AUCTION_PRICE, '2'),
    });
    expect(n.statusCode, n.body).toBe(204);
  }
}

type Row = { key: string; requests: number; bids: number; wins: number; impressions: number };
const rowsBy = async (group: 'country' | 'device') => {
  const res = await admin.get(`/api/prebidpartners/${prebid._id}/v2/stats?group=${group}`);
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json().rows as Row[]).map((r) => [r.key, r]));
};

test('wins and impressions of Prebid bids are counted by the country and device of the request', async () => {
  // the country named by the exchange (alpha-3), a phone
  await winAndBill('geo-1', { ua: userAgents.safariIphone, ip: LONDON_IP, geo: { country: 'DEU' } });
  // no geo: the IP's country (GeoIP), a desktop
  await winAndBill('geo-2', { ua: userAgents.chromeWindows, ip: LONDON_IP });
  await contextOf(t.app).rtb.flushPrebid();

  const countries = await rowsBy('country');
  expect(countries.get('DE')).toMatchObject({ requests: 1, bids: 1, wins: 1, impressions: 1 });
  expect(countries.get('GB')).toMatchObject({ requests: 1, bids: 1, wins: 1, impressions: 1 });
  expect(countries.get('unknown')).toBeUndefined();

  const devices = await rowsBy('device');
  expect(devices.get('mobile')).toMatchObject({ requests: 1, bids: 1, wins: 1, impressions: 1 });
  expect(devices.get('desktop')).toMatchObject({ requests: 1, bids: 1, wins: 1, impressions: 1 });
  expect(devices.get('unknown')).toBeUndefined();
});
