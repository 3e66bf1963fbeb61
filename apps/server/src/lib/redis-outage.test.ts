import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../app.ts';
import { publisherWithWidget, runningCampaign, settle } from '../delivery/delivery-fixtures.test-helper.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';

const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const tokenRequest = (app: TestApp['app'], password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/token',
    payload: new URLSearchParams({ grant_type: 'password', username: ADMIN.email, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'de' },
  });

/** A port where nothing listens (taken and given back at once). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

test('a REDIS_URL that does not answer stops the start with the reason', async () => {
  const port = await closedPort();
  await expect(createTestApp({ REDIS_URL: `redis://127.0.0.1:${port}/0` })).rejects.toThrow(
    `REDIS_URL: Redis at 127.0.0.1:${port} does not answer`,
  );
});

// a real Redis behind a TCP relay that the test takes down and brings back: an outage as the server meets it
describe.skipIf(!process.env.TEST_REDIS_URL)('Redis goes away while the server runs', () => {
  const target = new URL(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379/0');
  let relay: Server | null = null;
  const sockets = new Set<Socket>();
  let port = 0;
  let t: TestApp;

  async function relayUp() {
    relay = createServer((client) => {
      const redis = connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, redis]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(redis).pipe(client);
    });
    await new Promise<void>((r) => relay?.listen(port, '127.0.0.1', r));
    port = (relay.address() as { port: number }).port;
  }
  async function relayDown() {
    const closing = new Promise<void>((r) => relay?.close(() => r()));
    for (const s of sockets) s.destroy();
    await closing;
  }

  beforeAll(async () => {
    await relayUp();
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${port}${target.pathname}` });
  });
  afterAll(async () => {
    await relayDown().catch(() => {});
    await t?.close();
  });

  test('requests that need it answer 503 with Retry-After (not 500), and work again once it is back', async () => {
    const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
    const p = await publisherWithWidget(t, admin);
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    await settle(t);
    const served = (
      await t.app.inject({
        method: 'GET',
        url: `/serve/widgets/${p.widget._id}`,
        headers: { 'user-agent': chrome },
      })
    ).json();
    expect(served.impression_url).toMatch(/\/serve\/i\//);
    const beacon = String(served.impression_url).replace('http://localhost:8080', '');
    // a failed login is counted in the shared store
    expect((await tokenRequest(t.app, 'wrong-password')).statusCode).toBe(400);
    await relayDown();
    const during = await tokenRequest(t.app, 'wrong-password');
    expect(during.statusCode).toBe(503);
    expect(during.headers['retry-after']).toBe('5');
    expect(during.json()).toEqual({
      error: 'service_unavailable',
      message: 'Der Dienst ist kurz nicht erreichbar. Versuchen Sie es gleich noch einmal.',
    });
    // a beacon (claimed once in the shared store): 503 too, and not counted, so the script may send it again
    const missed = await t.app.inject({ method: 'GET', url: beacon });
    expect(missed.statusCode).toBe(503);
    expect(missed.headers['retry-after']).toBe('5');
    expect(missed.json()).toEqual({ error: 'service_unavailable' });
    await relayUp();
    for (let i = 0; ; i++) {
      const res = await tokenRequest(t.app, ADMIN.password);
      if (res.statusCode === 200) break;
      expect(res.statusCode).toBe(503);
      if (i > 50) throw new Error('Redis did not come back');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await t.app.inject({ method: 'GET', url: beacon })).statusCode).toBe(204);
    await contextOf(t.app).delivery.engine.flush();
  });
});
