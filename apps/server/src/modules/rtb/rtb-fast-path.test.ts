import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { runningCampaign, settle } from '../../delivery/delivery-fixtures.test-helper.ts';
import { expectShutdownBehaviour, type FastPathState, fastPathServer } from '../../test/fast-path.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';
import { rtbFastPath } from './rtb-fast-path.ts';

// The bid endpoints over real sockets: answered before Fastify (rtb-fast-path.ts), they must answer what the
// Fastify route answers (app.inject goes through the route, not the fast path). A server that has only the
// fast path (599 when it lets a request go on) shows which requests it takes; the app's own socket shows
// that it is wired in.
const requestsDir = new URL(
  'requests/',
  `file://${process.env.OPENRTB_CONFORMANCE ?? '/work/shared/conformance/openrtb'}/`,
);
let t: TestApp;
let base: string;
let fastBase: string;
let nodeBase: string;
let closeNode: () => Promise<void>;
let fastState: FastPathState;
let closeFast: () => Promise<void>;
let rtbKey: string;
let prebidKey: string;
let inactivePrebidKey: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  ({ state: fastState, base: fastBase, close: closeFast } = await fastPathServer(t.app, rtbFastPath));
  // the same fast path in node:http's request handler, as on a connection the front has handed over
  ({ base: nodeBase, close: closeNode } = await fastPathServer(t.app, rtbFastPath, true));

  const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const p = await admin.post('/api/rtbpartners', { rtbpartner: { name: 'SSP', max_request_ms: 5000 } });
  rtbKey = p.json().key;
  prebidKey = (
    await admin.post('/api/prebidpartners', { prebidpartner: { name: 'PBS', bidder_code: 'adp' } })
  ).json().key;
  inactivePrebidKey = (
    await admin.post('/api/prebidpartners', { prebidpartner: { name: 'PBS off', status: 'inactive' } })
  ).json().key;
  const c = await runningCampaign(t, admin, {
    campaign: { openrtb: { enabled: true, ecpm_bid: 5 } },
    // text beyond ASCII: the answers are written as UTF-8 bytes, their length in bytes
    banner: { title: 'Great shoes — Кросівки', text: 'Only this week…', url: 'https://shop.example/shoes' },
    fund: 50,
  });
  await t.database.db.execute(
    sql`update banners set images = '{"landscape":"creative.jpg"}'::jsonb where id = ${Number(c.banner._id)}`,
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
afterAll(async () => {
  await closeFast?.();
  await closeNode?.();
  await t?.close();
});

/** Signed tokens and ids differ from answer to answer: the same shape is the same answer. */
const normal = (body: string) => body.replace(/[A-Za-z0-9_-]{16,}/g, 'T').replace(/\d{10,}/g, 'N');
const dropped = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
const headersOf = (entries: Iterable<[string, unknown]>) =>
  Object.fromEntries([...entries].filter(([k]) => !dropped.has(k)).map(([k, v]) => [k, String(v)]));

interface Sent {
  path: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * One request through the fast path alone, the app's socket, and the route; all three must agree. A
 * request whose `tmax` ran out on a loaded machine (a `timeout` no-bid) is sent again: the paths' timing
 * is not what is compared.
 */
async function compare({ path, body, headers = {} }: Sent) {
  const all = { 'content-type': 'application/json', ...headers };
  for (let attempt = 1; ; attempt++) {
    const routed = await t.app.inject({ method: 'POST', url: path, headers: all, payload: body });
    const expected = {
      status: routed.statusCode,
      headers: headersOf(Object.entries(routed.headers)),
      body: normal(routed.body),
    };
    const answers: { answer: typeof expected; length: string | null; text: string }[] = [];
    for (const at of [fastBase, nodeBase, base]) {
      const res = await fetch(`${at}${path}`, { method: 'POST', headers: all, body });
      const text = await res.text();
      const answer = { status: res.status, headers: headersOf(res.headers.entries()), body: normal(text) };
      answers.push({ answer, length: res.headers.get('content-length'), text });
    }
    const late = [expected, ...answers.map((a) => a.answer)].some(
      (a) => a.headers['x-nobid-reason'] === 'timeout',
    );
    if (late && attempt < 5) continue;
    for (const { answer, length, text } of answers) {
      expect(answer).toEqual(expected);
      if (text) expect(length).toBe(String(Buffer.byteLength(text)));
    }
    return expected;
  }
}

describe('the bid endpoints before the framework', () => {
  test('every conformance request answers as the route does', async () => {
    const files = readdirSync(requestsDir).filter((f) => f.endsWith('.json') && !f.startsWith('native1.2-'));
    const statuses = new Set<number>();
    const bodies: string[] = [];
    for (const file of files) {
      const body = readFileSync(new URL(file, requestsDir), 'utf8');
      const version = file.startsWith('2.6') ? '2.6' : '2.5';
      const headers = { 'x-openrtb-version': version };
      const answer = await compare({ path: `/rtb/openrtb2/${rtbKey}`, body, headers });
      statuses.add(answer.status);
      bodies.push(answer.body, (await compare({ path: `/rtb/prebid/${prebidKey}`, body, headers })).body);
    }
    // both bids and reasoned no-bids were compared, with the creative's text as it was written
    expect([...statuses].sort()).toEqual([200, 204]);
    expect(bodies.some((b) => b.includes('Кросівки'))).toBe(true);
  });

  test('malformed, gzip, unknown and inactive keys, versions, sizes answer as the route does', async () => {
    const request = readFileSync(new URL('2.6-iab-spec-ex1-banner-simple-site.json', requestsDir), 'utf8');
    const cases: Sent[] = [
      { path: `/rtb/openrtb2/${rtbKey}`, body: '{"id":' },
      { path: `/rtb/openrtb2/${rtbKey}`, body: '' },
      { path: `/rtb/openrtb2/${rtbKey}`, body: '[1,2]' },
      { path: `/rtb/openrtb2/${rtbKey}`, body: '{"id":"x","imp":[]}' },
      { path: `/rtb/openrtb2/${rtbKey}`, body: request, headers: { 'x-openrtb-version': '3.0' } },
      { path: `/rtb/openrtb2/${rtbKey}`, body: gzipSync(request), headers: { 'content-encoding': 'gzip' } },
      { path: `/rtb/openrtb2/${rtbKey}`, body: 'not gzip', headers: { 'content-encoding': 'gzip' } },
      { path: `/rtb/openrtb2/${rtbKey}?x=1`, body: request },
      {
        path: `/rtb/openrtb2/${rtbKey}`,
        body: request,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
      { path: '/rtb/openrtb2/no-such-key', body: request },
      { path: '/rtb/prebid/no-such-key', body: '{"id":' },
      { path: `/rtb/prebid/${inactivePrebidKey}`, body: request },
      { path: `/rtb/prebid/${prebidKey}`, body: '{"id":' },
      { path: `/rtb/prebid/${prebidKey}`, body: gzipSync(request), headers: { 'content-encoding': 'gzip' } },
      // over the limit (256 KiB), plain and once inflated
      { path: `/rtb/openrtb2/${rtbKey}`, body: ' '.repeat(300 * 1024) },
      {
        path: `/rtb/openrtb2/${rtbKey}`,
        body: gzipSync(' '.repeat(300 * 1024)),
        headers: { 'content-encoding': 'gzip' },
      },
    ];
    const statuses: number[] = [];
    for (const c of cases) statuses.push((await compare(c)).status);
    expect(statuses).toEqual([
      400, 400, 400, 400, 400, 200, 400, 200, 200, 404, 404, 403, 400, 200, 413, 413,
    ]);
  });

  test('while the server shuts down, answers close their keep-alive connection; before the services, Fastify answers', async () => {
    const request = readFileSync(new URL('2.6-iab-spec-ex1-banner-simple-site.json', requestsDir), 'utf8');
    const post = () =>
      fetch(`${fastBase}/rtb/openrtb2/${rtbKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: request,
      });
    await expectShutdownBehaviour(fastState, post);
  });

  test('other methods, content types and paths are left to Fastify', async () => {
    const skip = async (path: string, init: RequestInit) =>
      expect((await fetch(`${fastBase}${path}`, init)).status).toBe(599);
    await skip(`/rtb/openrtb2/${rtbKey}`, { method: 'GET' });
    await skip(`/rtb/openrtb2/${rtbKey}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    await skip(`/rtb/openrtb2/${rtbKey}/more`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    await skip('/rtb/openrtb2/', { method: 'POST', headers: { 'content-type': 'application/json' } });
    await skip('/rtb/openrtb2/a%20b', { method: 'POST', headers: { 'content-type': 'application/json' } });
    // and Fastify still answers them as before
    const text = await fetch(`${base}/rtb/openrtb2/${rtbKey}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"id":',
    });
    expect(text.status).toBe(400);
  });
});

describe('hostile bodies before the framework', () => {
  test('a gzip body over the limit that turns out corrupt after the 413 throws nothing and the server goes on', async () => {
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onError);
    try {
      const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024, 32));
      bomb[bomb.length - 8] = (bomb[bomb.length - 8] as number) ^ 0xff; // the CRC at the end no longer matches: gunzip errs after inflating it all
      // the fast path (JSON) and the Fastify route (another content type) alike
      for (const [at, type] of [
        [fastBase, 'application/json'],
        [base, 'text/plain'],
      ]) {
        const res = await fetch(`${at}/rtb/openrtb2/${rtbKey}`, {
          method: 'POST',
          headers: { 'content-type': type as string, 'content-encoding': 'gzip' },
          body: bomb,
        });
        expect(res.status).toBe(413);
        await res.text();
      }
      await new Promise((r) => setTimeout(r, 200));
      expect(errors).toEqual([]);
      const next = await fetch(`${fastBase}/rtb/openrtb2/${rtbKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id":',
      });
      expect(next.status).toBe(400);
    } finally {
      process.off('uncaughtException', onError);
    }
  });

  test('a gzip body over the limit before inflating is a 413 even when it inflates to nothing', async () => {
    // 300 KiB of empty gzip members, sent without a content-length: nothing comes out of the inflater
    const empty = gzipSync(Buffer.alloc(0));
    const members = Buffer.concat(
      Array.from({ length: Math.ceil((300 * 1024) / empty.length) }, () => empty),
    );
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new Uint8Array(members));
        c.close();
      },
    });
    const res = await fetch(`${fastBase}/rtb/openrtb2/${rtbKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });
});
