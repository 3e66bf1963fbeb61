import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callBidder, openRtbBidder } from './adapter.ts';
import type { BidRequest } from './openrtb.ts';
import { parseNativeAdm } from './openrtb.ts';

/**
 * Adapter fixtures in Prebid Server's form (adapters/<bidder>/<bidder>test/{exemplary,supplemental}):
 * `mockBidRequest` → `httpCalls` (what the partner must receive, what it answers) → `expectedBidResponses`
 * and `expectedMakeBidsErrors`, played against a local HTTP server through the outbound fetch guard.
 */
interface Fixture {
  description: string;
  mockBidRequest: BidRequest;
  partner: { openrtbVersion: '2.5' | '2.6' };
  timeoutMs?: number;
  httpCalls: {
    expectedRequest: { headers: Record<string, string>; body: unknown };
    mockResponse: { status: number; body?: unknown; delayMs?: number };
  }[];
  expectedBidResponses: { currency: string; bids: { bid: unknown; type: string }[] }[];
  expectedMakeBidsErrors: { kind: string; value: string }[];
}

const dir = new URL('./fixtures/', import.meta.url);
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Fixture] as const);

let server: Server;
let endpoint: string;
let current: Fixture['httpCalls'][number] | null = null;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const mock = current?.mockResponse ?? { status: 204 };
      const send = () => {
        if (res.destroyed) return;
        if (mock.body === undefined) return void res.writeHead(mock.status).end();
        const text = typeof mock.body === 'string' ? mock.body : JSON.stringify(mock.body);
        res.writeHead(mock.status, { 'content-type': 'application/json' }).end(text);
      };
      if (mock.delayMs) setTimeout(send, mock.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openrtb2/auction`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the OpenRTB adapter against its fixtures', () => {
  test.each(fixtures)('%s', async (_name, fx) => {
    expect(fx.httpCalls).toHaveLength(1);
    const call = fx.httpCalls[0]!;
    current = call;
    received.length = 0;
    const out = await callBidder(
      openRtbBidder,
      fx.mockBidRequest,
      { endpoint, openrtbVersion: fx.partner.openrtbVersion },
      { timeoutMs: fx.timeoutMs ?? 2000, allowLoopback: true },
    );
    // what the partner received
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toEqual(call.expectedRequest.body);
    for (const [k, v] of Object.entries(call.expectedRequest.headers))
      expect(received[0]!.headers[k], k).toBe(v);
    // what the adapter made of the answer
    const expectedBids = fx.expectedBidResponses.flatMap((r) => r.bids);
    expect(out.bids.map((b) => ({ bid: b.bid, type: b.bidType }))).toEqual(expectedBids);
    if (fx.expectedBidResponses[0]) expect(out.currency).toBe(fx.expectedBidResponses[0].currency);
    expect(out.errors.map((e) => e.kind)).toEqual(fx.expectedMakeBidsErrors.map((e) => e.kind));
    fx.expectedMakeBidsErrors.forEach((e, i) => {
      expect(out.errors[i]?.message).toContain(e.value);
    });
  });

  test('the fixtures cover 204, 400, 5xx, malformed JSON, wrong currency and timeouts', () => {
    const names = fixtures.map(([n]) => n).join(' ');
    for (const k of ['204', '400', '500', 'malformed', 'currency', 'timeout']) expect(names).toContain(k);
  });

  test('a partner that is not a public address is refused unless loopback is allowed (tests only)', async () => {
    const fx = fixtures[0]![1];
    const out = await callBidder(
      openRtbBidder,
      fx.mockBidRequest,
      { endpoint, openrtbVersion: '2.6' },
      { timeoutMs: 500 },
    );
    expect(out.bids).toEqual([]);
    expect(out.errors[0]?.kind).toBe('network');
  });
});

describe('native markup', () => {
  test('reads Native 1.2 with and without the native wrapper; refuses what has no title, image or link', () => {
    const assets = [
      { id: 1, title: { text: 'T' } },
      { id: 2, img: { url: 'https://i.example/a.png' } },
    ];
    const link = { url: 'https://l.example/' };
    expect(parseNativeAdm(JSON.stringify({ native: { assets, link } }))).toMatchObject({
      title: 'T',
      url: link.url,
    });
    expect(parseNativeAdm(JSON.stringify({ assets, link }))).toMatchObject({
      image: 'https://i.example/a.png',
    });
    expect(parseNativeAdm(JSON.stringify({ assets: assets.slice(0, 1), link }))).toBeNull();
    expect(parseNativeAdm(JSON.stringify({ assets, link: { url: 'javascript:alert(1)' } }))).toBeNull();
    expect(parseNativeAdm('<b>banner</b>')).toBeNull();
    expect(parseNativeAdm('null')).toBeNull();
  });
});
