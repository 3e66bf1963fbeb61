import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectShutdownBehaviour, type FastPathState, fastPathServer } from '../test/fast-path.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';
import { queryValue, serveFastPath } from './serve-fast-path.ts';

// The widget request over real sockets: answered before Fastify (serve-fast-path.ts), it must answer what
// the Fastify route answers (app.inject goes through the route, not the fast path). A server that has only
// the fast path (599 when it lets a request go on) shows which requests it takes; the app's own socket
// shows that it is wired in.
let t: TestApp;
let base: string;
let fastBase: string;
let fastState: FastPathState;
let closeFast: () => Promise<void>;
let nodeBase: string;
let closeNode: () => Promise<void>;
let widgetId: string;
const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  ({ state: fastState, base: fastBase, close: closeFast } = await fastPathServer(t.app, serveFastPath));
  // the same fast path in node:http's request handler, as on a connection the front has handed over
  ({ base: nodeBase, close: closeNode } = await fastPathServer(t.app, serveFastPath, true));
  const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  widgetId = (await publisherWithWidget(t, admin)).widget._id;
  await runningCampaign(t, admin);
  await settle(t);
});
afterAll(async () => {
  await closeFast?.();
  await closeNode?.();
  await t?.close();
});

/** Signed tokens and visitor ids differ from answer to answer: the same shape is the same answer. */
const normal = (body: string) => body.replace(/[A-Za-z0-9_-]{16,}/g, 'T').replace(/\d{10,}/g, 'N');
const dropped = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
const headersOf = (entries: Iterable<[string, unknown]>) =>
  Object.fromEntries([...entries].filter(([k]) => !dropped.has(k)).map(([k, v]) => [k, normal(String(v))]));

/** One request through the fast path alone, the app's socket, and the route; all three must agree. */
async function compare(path: string, headers: Record<string, string> = {}) {
  const all = { 'user-agent': chrome, ...headers };
  const routed = await t.app.inject({ method: 'GET', url: path, headers: all });
  const expected = {
    status: routed.statusCode,
    headers: headersOf(Object.entries(routed.headers)),
    body: normal(routed.body),
  };
  for (const at of [fastBase, nodeBase, base]) {
    const res = await fetch(`${at}${path}`, { headers: all });
    const text = await res.text();
    expect({ status: res.status, headers: headersOf(res.headers.entries()), body: normal(text) }).toEqual(
      expected,
    );
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  }
  return expected;
}

describe('the widget request before the framework', () => {
  test('answers as the route does: cookies, origins, page URL, unknown widgets', async () => {
    const w = `/serve/widgets/${widgetId}`;
    const newVisitor = await compare(w);
    expect(newVisitor.status).toBe(200);
    expect(newVisitor.headers['set-cookie']).toContain('vid=');
    expect(JSON.parse(newVisitor.body).items.length).toBeGreaterThan(0);
    const known = await compare(w, { cookie: 'vid=abcdefghijklmnopqrstuv; aud=1.2' });
    expect(known.headers['set-cookie']).toBeUndefined();
    await compare(w, { cookie: 'vid=short' });
    const credentialed = await compare(w, { origin: 'https://mag.example' });
    expect(credentialed.headers['access-control-allow-origin']).toBe('https://mag.example');
    await compare(w, { origin: 'null' });
    await compare(`${w}?url=${encodeURIComponent('https://mag.example/a?b=1&c=2')}&r=3`);
    await compare(`${w}?url=https://mag.example/x+y&url=https://other.example/`);
    await compare(`${w}?url=%E0%A4%A`, { referer: 'https://mag.example/from' });
    await compare(w, { referer: 'https://mag.example/from' });
    expect((await compare('/serve/widgets/999999')).status).toBe(404);
    // one spelling per widget: a leading zero names none
    expect((await compare(w.replace('/serve/widgets/', '/serve/widgets/0'))).status).toBe(404);
    expect((await compare('/serve/widgets/0')).status).toBe(404);
  });

  test('text beyond ASCII (Cyrillic, emoji, the widget\'s "…") arrives as sent, with its length in bytes', async () => {
    const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
    const title = 'Кросівки — 50 % 👟';
    await runningCampaign(t, admin, {
      campaign: { brand_name: 'Взуття «Крок»' },
      banner: { title, text: 'Ціна вдвічі нижча…' },
    });
    await settle(t);
    // the route, the fast path alone and the app's socket (the order of the two items is random)
    const answers = [
      async () => {
        const r = await t.app.inject({
          url: `/serve/widgets/${widgetId}`,
          headers: { 'user-agent': chrome },
        });
        return { length: r.headers['content-length'], bytes: r.rawPayload };
      },
      ...[fastBase, base].map((at) => async () => {
        const r = await fetch(`${at}/serve/widgets/${widgetId}`, { headers: { 'user-agent': chrome } });
        return { length: r.headers.get('content-length'), bytes: Buffer.from(await r.arrayBuffer()) };
      }),
    ];
    for (const get of answers) {
      let item: { title: string; text: string; brand: string } | undefined;
      for (let i = 0; i < 20 && !item; i++) {
        const { length, bytes } = await get();
        expect(Number(length)).toBe(bytes.length);
        const answer = JSON.parse(bytes.toString('utf8'));
        expect(answer.widget.settings.truncation_suffix).toBe('…');
        item = answer.items.find((it: { title: string }) => it.title === title);
      }
      expect(item).toMatchObject({ title, text: 'Ціна вдвічі нижча…', brand: 'Взуття «Крок»' });
    }
  });

  test('while the server shuts down, answers close their keep-alive connection; before the services, Fastify answers', async () => {
    const get = () => fetch(`${fastBase}/serve/widgets/${widgetId}`, { headers: { 'user-agent': chrome } });
    await expectShutdownBehaviour(fastState, get);
  });

  test('other methods and paths are left to Fastify', async () => {
    for (const path of [
      `/serve/widgets/${widgetId}/more`,
      '/serve/widgets/',
      '/serve/widgets/12a',
      '/serve/widgets/1234567890123456789',
      `/serve/widgets/%3${widgetId}`,
    ])
      expect((await fetch(`${fastBase}${path}`)).status, path).toBe(599);
    expect((await fetch(`${fastBase}/serve/widgets/${widgetId}`, { method: 'HEAD' })).status).toBe(599);
    // and Fastify still answers them
    expect((await fetch(`${base}/serve/widgets/12a`)).status).toBe(404);
    expect((await fetch(`${base}/serve/widgets/${widgetId}/more`)).status).toBe(200);
  });

  test('the query parameter reads as Fastify reads it', () => {
    expect(queryValue('a=1&url=x+y%20z&b', 'url')).toBe('x y z');
    expect(queryValue('url=1&url=2&url=3', 'url')).toEqual(['1', '2', '3']);
    expect(queryValue('url', 'url')).toBe('');
    expect(queryValue('u%72l=%E0%A4%A', 'url')).toBe('%E0%A4%A');
    expect(queryValue('a=b', 'url')).toBeUndefined();
  });
});
