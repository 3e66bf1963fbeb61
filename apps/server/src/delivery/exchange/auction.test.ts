import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { contextOf } from '../../app.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';
import { publisherWithWidget, runningCampaign, settle } from '../delivery-fixtures.test-helper.ts';

/**
 * The outbound auction through GET /serve/widgets/:id with three local DSP servers: one slow (beyond its
 * max request time), one answering 204, one bidding. Our own campaign pays 0.5 per click with the prior
 * CTR of 1 %: an eCPM of 5.00.
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
const servers: Server[] = [];
const notices: string[] = [];
let bidPrice = 8;
const received: Record<string, number> = { slow: 0, nobid: 0, bidder: 0 };

const adm = JSON.stringify({
  native: {
    assets: [
      { id: 1, title: { text: 'Ad from the DSP' } },
      { id: 2, img: { url: 'https://cdn.dsp.example/a.jpg' } },
      { id: 4, data: { type: 1, value: 'DSP brand' } },
    ],
    link: { url: 'https://landing.dsp.example/x', clicktrackers: ['https://dsp.example/click?id=1'] },
    eventtrackers: [{ event: 1, method: 1, url: 'https://dsp.example/imp?id=1' }],
  },
});

async function listen(handler: Parameters<typeof createServer>[1]) {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const readBody = (req: import('node:http').IncomingMessage) =>
  new Promise<string>((resolve) => {
    let b = '';
    req.on('data', (c: Buffer) => {
      b += c;
    });
    req.on('end', () => resolve(b));
  });

let urls: { slow: string; nobid: string; bidder: string; notice: string };
const lastRequest: { body?: Record<string, unknown> } = {};

beforeAll(async () => {
  const notice = await listen((req, res) => {
    notices.push(req.url ?? '');
    res.writeHead(200).end();
  });
  const slow = await listen(async (req, res) => {
    await readBody(req);
    received.slow = (received.slow ?? 0) + 1;
    setTimeout(() => {
      if (!res.destroyed)
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'x',
            cur: 'USD',
            seatbid: [{ bid: [{ id: 's', impid: '1', price: 99, adm }] }],
          }),
        );
    }, 1500);
  });
  const nobid = await listen(async (req, res) => {
    await readBody(req);
    received.nobid = (received.nobid ?? 0) + 1;
    res.writeHead(204).end();
  });
  const bidder = await listen(async (req, res) => {
    const body = JSON.parse(await readBody(req));
    lastRequest.body = body;
    received.bidder = (received.bidder ?? 0) + 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: body.id,
        cur: 'USD',
        seatbid: [
          {
            seat: 'seat-9',
            bid: [
              {
                id: 'bid-1',
                impid: '1',
                price: bidPrice,
                adm,
                nurl: `${notice}/win?price=\${AUCTION_PRICE}&auction=\${AUCTION_ID}`,
                lurl: `${notice}/loss?reason=\${AUCTION_LOSS}&price=\${AUCTION_PRICE}`,
              },
            ],
          },
        ],
      }),
    );
  });
  urls = { slow, nobid, bidder, notice };
  t = await createTestApp({ OUTBOUND_ALLOW_LOOPBACK: '1', PUBLIC_URL: 'https://ads.example' });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(async () => {
  await t.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const chrome = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};
const serve = (widgetId: string) =>
  t.app.inject({
    method: 'GET',
    url: `/serve/widgets/${widgetId}?url=https://mag.example/a`,
    headers: chrome,
  });

async function partner(fields: Record<string, unknown>) {
  const res = await admin.post('/api/dsppartners', {
    dsppartner: { max_request_time: 1000, openrtb_version: '2.6', ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function ready() {
  await settle(t);
  await contextOf(t.app).delivery.exchange.reload();
}
async function stopPartners(ids: string[]) {
  for (const id of ids) await admin.put(`/api/dsppartners/${id}`, { dsppartner: { status: 'inactive' } });
  await ready();
}

describe('the outbound auction', () => {
  test('without active partners nothing is asked', async () => {
    const p = await publisherWithWidget(t, admin);
    await runningCampaign(t, admin);
    await ready();
    expect(contextOf(t.app).delivery.exchange.hasPartners()).toBe(false);
    const before = { ...received };
    const body = (await serve(p.widget._id)).json();
    expect(body.items.some((i: { id: string }) => i.id.startsWith('d'))).toBe(false);
    expect(received).toEqual(before);
  });

  test('three partners: the slow one is left behind, the 204 one has no bid, the bidder outbids our campaign and pays the second price', async () => {
    const p = await publisherWithWidget(t, admin);
    await runningCampaign(t, admin);
    const ids = [
      (
        await partner({
          name: 'Slow',
          endpoint: `${urls.slow}/rtb`,
          max_request_time: 100,
          whitelist: [p.site._id],
        })
      )._id,
      (await partner({ name: 'No bid', endpoint: `${urls.nobid}/rtb`, whitelist: [p.site._id] }))._id,
      (
        await partner({
          name: 'Bidder',
          endpoint: `${urls.bidder}/rtb`,
          whitelist: [p.site.domain],
          ad_position: 4,
        })
      )._id,
    ];
    await ready();
    bidPrice = 8;
    notices.length = 0;

    const body = (await serve(p.widget._id)).json();
    expect(body.items).toHaveLength(2);
    expect(body.items[0]).toMatchObject({
      title: 'Ad from the DSP',
      image: 'https://cdn.dsp.example/a.jpg',
      url: 'https://landing.dsp.example/x',
      brand: 'DSP brand',
      sponsored: true,
      // the partner's own counting, called by the embed script with the impression and on the click
      imptrackers: ['https://dsp.example/imp?id=1'],
      clicktrackers: ['https://dsp.example/click?id=1'],
    });
    expect(body.items[1].id).toMatch(/^b\d+$/);
    // our node in the supply chain, the partner's ad position, our eCPM as the floor
    const sent = lastRequest.body as {
      source: { schain: { nodes: unknown[] } };
      imp: { bidfloor: number; ext: { pos: number } }[];
      site: { publisher: { id: string } };
      tmax: number;
    };
    expect(sent.source.schain).toMatchObject({
      complete: 1,
      nodes: [{ asi: 'ads.example', sid: p.user_id, hp: 1 }],
    });
    expect(sent.imp[0]).toMatchObject({ bidfloor: 5, ext: { pos: 4 } });
    expect(sent.tmax).toBe(1000);
    // nurl with the clearing price: our 5.00 plus one cent
    await vi.waitFor(() => expect(notices.some((n) => n.startsWith('/win?price=5.01&auction='))).toBe(true));

    const ctx = contextOf(t.app);
    await ctx.delivery.exchange.flush();
    const stats = (await admin.get(`/api/dsppartners/${ids[2]}/stats?group=source`)).json();
    expect(stats.total).toMatchObject({ requests: 1, bids: 1, wins: 1, revenue: 0.00501, ecpm: 5.01 });
    expect(stats.rows[0]).toMatchObject({ key: p.site._id, name: p.site.domain });
    const slowRes = await admin.get(`/api/dsppartners/${ids[0]}/stats`);
    expect(slowRes.statusCode, slowRes.body).toBe(200);
    const slow = slowRes.json();
    expect(slow.total).toMatchObject({ requests: 1, bids: 0, wins: 0, timeouts: 1 });
    const nobid = (await admin.get(`/api/dsppartners/${ids[1]}/stats?group=device`)).json();
    expect(nobid.total).toMatchObject({ requests: 1, bids: 0, timeouts: 0, errors: 0 });
    expect(nobid.rows[0].key).toBe('desktop');
    const byCampaign = (await admin.get(`/api/dsppartners/${ids[2]}/stats?group=campaign`)).json();
    expect(byCampaign.rows[0].name).toMatch(/^Campaign /);
    await stopPartners(ids);
  });

  test('a bid below our eCPM loses: our creative serves and the lurl says why', async () => {
    const p = await publisherWithWidget(t, admin);
    await runningCampaign(t, admin);
    const ids = [
      (await partner({ name: 'Low', endpoint: `${urls.bidder}/rtb`, whitelist: [p.site._id] }))._id,
    ];
    await ready();
    bidPrice = 3;
    notices.length = 0;
    const body = (await serve(p.widget._id)).json();
    expect(body.items.every((i: { id: string }) => !i.id.startsWith('d'))).toBe(true);
    await vi.waitFor(() => expect(notices).toContain('/loss?reason=100&price=0'));
    await stopPartners(ids);
  });

  test('lists decide who is asked: a blacklist item keeps a partner away from a site', async () => {
    const p = await publisherWithWidget(t, admin);
    const id = (await partner({ name: 'Listed', endpoint: `${urls.bidder}/rtb`, whitelist: [p.site._id] }))
      ._id;
    await admin.post('/api/dsppartnerblacklist', {
      dsppartnerblacklist: { dsp_partner_id: id, source: p.site.domain },
    });
    await ready();
    const before = received.bidder;
    await serve(p.widget._id);
    expect(received.bidder).toBe(before);
    await stopPartners([id]);
  });

  test('the daily money limit stops a partner from being asked once reached', async () => {
    const p = await publisherWithWidget(t, admin);
    await runningCampaign(t, admin);
    // each win pays 5.01 per mille: 0.00501; two wins pass 0.01
    const id = (
      await partner({
        name: 'Limited',
        endpoint: `${urls.bidder}/rtb`,
        whitelist: [p.site._id],
        daily_money_limit: 0.01,
      })
    )._id;
    await ready();
    bidPrice = 8;
    const before = received.bidder ?? 0;
    const wins: boolean[] = [];
    for (let i = 0; i < 4; i++) wins.push((await serve(p.widget._id)).json().items[0].id.startsWith('d'));
    expect(wins).toEqual([true, true, false, false]);
    expect(received.bidder).toBe(before + 2);
    await stopPartners([id]);
  });

  test('the daily request budget stops a partner after that many requests', async () => {
    const p = await publisherWithWidget(t, admin);
    const id = (
      await partner({
        name: 'Budget',
        endpoint: `${urls.nobid}/rtb`,
        whitelist: [p.site._id],
        daily_budget_limit: 1,
      })
    )._id;
    await ready();
    const before = received.nobid ?? 0;
    for (let i = 0; i < 3; i++) await serve(p.widget._id);
    expect(received.nobid).toBe(before + 1);
    await stopPartners([id]);
  });
});
