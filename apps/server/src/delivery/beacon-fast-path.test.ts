import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../app.ts';
import { rollups } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { chrome, publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';

// The beacons over real sockets: answered before Fastify (beacon-fast-path.ts), they must answer what the
// Fastify route answers (app.inject goes through the route, not the fast path) and count exactly once.
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

async function impressionsOf(campaignId: string) {
  const [row] = await t.database.db
    .select({
      impressions: sql<string>`sum(${rollups.impressions})`,
      viewable: sql<string>`sum(${rollups.viewable})`,
    })
    .from(rollups)
    .where(eq(rollups.campaignId, Number(campaignId)));
  return { impressions: Number(row?.impressions), viewable: Number(row?.viewable) };
}

describe('beacons before the framework', () => {
  test('count once, answer as the route does, and leave everything else to Fastify', async () => {
    const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
    const p = await publisherWithWidget(t, admin);
    const a = await runningCampaign(t, admin);
    await settle(t);
    const served = await t.app.inject({
      method: 'GET',
      url: `/serve/widgets/${p.widget._id}`,
      headers: chrome,
    });
    const body = served.json();
    const impression = new URL(body.impression_url).pathname;
    const viewable = new URL(body.viewable_url).pathname;

    // from a page's script: the page's origin with credentials, never cached
    const first = await fetch(`${base}${impression}`, {
      headers: { ...chrome, origin: 'https://mag.example' },
    });
    expect(first.status).toBe(204);
    expect(first.headers.get('access-control-allow-origin')).toBe('https://mag.example');
    expect(first.headers.get('access-control-allow-credentials')).toBe('true');
    expect(first.headers.get('vary')).toBe('origin');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    // a replay and a cache-busting query answer the same and count nothing more
    expect((await fetch(`${base}${impression}`, { headers: chrome })).status).toBe(204);
    const again = await fetch(`${base}${impression}?r=1`, { headers: chrome });
    expect(again.status).toBe(204);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(`${base}${viewable}`, { headers: chrome })).status).toBe(204);
    await contextOf(t.app).delivery.engine.flush();
    expect(await impressionsOf(a.campaign._id)).toEqual({ impressions: 1, viewable: 1 });

    // a token we did not sign: the route's 400, through both doors
    const forged = `${impression.slice(0, -4)}AAAA`;
    const direct = await fetch(`${base}${forged}`, { headers: chrome });
    const routed = await t.app.inject({ method: 'GET', url: forged, headers: chrome });
    expect(direct.status).toBe(400);
    expect(routed.statusCode).toBe(400);
    expect(await direct.json()).toEqual(routed.json());
    expect(direct.headers.get('content-type')).toBe(routed.headers['content-type']);

    // other paths and methods are Fastify's: a longer path is unknown, HEAD is the route's
    expect((await fetch(`${base}${impression}/more`, { headers: chrome })).status).toBe(404);
    const empty = await t.app.inject({ method: 'GET', url: '/serve/i/', headers: chrome });
    expect((await fetch(`${base}/serve/i/`, { headers: chrome })).status).toBe(empty.statusCode);
    expect((await fetch(`${base}${viewable}`, { method: 'HEAD', headers: chrome })).status).toBe(204);
  });
});
