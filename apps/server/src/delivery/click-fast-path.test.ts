import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { contextOf } from '../app.ts';
import { campaigns, clicks } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { clickFastPath } from './click-fast-path.ts';
import { chrome, publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';

// The click over real sockets: answered before Fastify (click-fast-path.ts), it must answer what the
// Fastify route answers (app.inject goes through the route, not the fast path) and charge exactly once.
let t: TestApp;
let base: string;
/** The header fields of an answer, without those of the connection and the clock. */
const fieldsOf = (headers: Record<string, unknown>) =>
  Object.keys(headers)
    .filter((k) => !['date', 'connection', 'keep-alive', 'set-cookie', 'location'].includes(k))
    .sort()
    .map((k) => `${k}: ${headers[k]}`);

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

describe('the click before the framework', () => {
  test('charges once, answers as the route does, and leaves everything else to Fastify', async () => {
    const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
    const p = await publisherWithWidget(t, admin);
    const a = await runningCampaign(t, admin);
    await settle(t);
    const balance = async () =>
      (
        await t.database.db
          .select()
          .from(campaigns)
          .where(eq(campaigns.id, Number(a.campaign._id)))
      )[0]?.balance;
    const before = await balance();
    const served = await t.app.inject({
      method: 'GET',
      url: `/serve/widgets/${p.widget._id}`,
      headers: chrome,
    });
    const body = served.json();
    expect(
      (await fetch(body.impression_url.replace('http://localhost:8080', base), { headers: chrome })).status,
    ).toBe(204);
    const click = new URL(body.items.find((i: { sponsored: boolean }) => i.sponsored).url).pathname;

    // a new visitor's first click, from the page: charged, sent on with its UTM, a cookie, never cached
    const first = await fetch(`${base}${click}?url=${encodeURIComponent('https://mag.example/a?x=1')}`, {
      headers: chrome,
      redirect: 'manual',
    });
    expect(first.status).toBe(302);
    const location = new URL(first.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/shoes');
    expect(location.searchParams.get('utm_campaign')).toBe(a.campaign._id);
    expect(first.headers.get('set-cookie')).toMatch(/^vid=/);
    expect(first.headers.get('content-length')).toBe('0');
    expect(await first.text()).toBe('');
    expect((await balance()) ?? 0n).toBe((before ?? 0n) - 500_000n);
    const [row] = await t.database.db
      .select()
      .from(clicks)
      .where(eq(clicks.campaignId, Number(a.campaign._id)));
    expect(row?.status).toBe('charged');
    expect(row?.referrer).toBe('https://mag.example/a');
    expect(location.searchParams.get('cid')).toBe(row?.clickId);

    // the same token again, through the route: the same answer's fields, sent on but not charged
    const routed = await t.app.inject({ method: 'GET', url: click, headers: chrome });
    expect(routed.statusCode).toBe(302);
    expect(fieldsOf(routed.headers)).toEqual(fieldsOf(Object.fromEntries(first.headers)));
    expect(new URL(String(routed.headers.location)).pathname).toBe('/shoes');
    const replay = await fetch(`${base}${click}`, { headers: chrome, redirect: 'manual' });
    expect(replay.status).toBe(302);
    expect((await balance()) ?? 0n).toBe((before ?? 0n) - 500_000n);

    // a token we did not sign: the route's 400, through both doors
    const forged = `${click.slice(0, -6)}AAAA${click.slice(-2)}`;
    const direct = await fetch(`${base}${forged}`, { headers: chrome });
    const viaRoute = await t.app.inject({ method: 'GET', url: forged, headers: chrome });
    expect(direct.status).toBe(400);
    expect(viaRoute.statusCode).toBe(400);
    expect(await direct.json()).toEqual(viaRoute.json());
    expect(fieldsOf(Object.fromEntries(direct.headers))).toEqual(fieldsOf(viaRoute.headers));

    // other paths and methods are Fastify's: percent-encoded, longer, empty, HEAD
    const encoded = await fetch(`${base}/click/%41${forged.slice(7)}`, { headers: chrome });
    expect(encoded.status).toBe(400);
    expect((await fetch(`${base}${click}/more`, { headers: chrome })).status).toBe(404);
    const empty = await t.app.inject({ method: 'GET', url: '/click/', headers: chrome });
    expect((await fetch(`${base}/click/`, { headers: chrome })).status).toBe(empty.statusCode);
    expect((await fetch(`${base}${forged}`, { method: 'HEAD', headers: chrome })).status).toBe(400);

    // which requests the fast path takes (the sockets above cannot tell which door answered)
    const take = clickFastPath({ closing: false, ctx: contextOf(t.app) });
    const written: unknown[] = [];
    const res = {
      writeHead: (status: number) => written.push(status),
      end: () => written.push('end'),
    } as unknown as ServerResponse;
    const req = (method: string, url: string) =>
      ({ method, url, headers: chrome, socket: { remoteAddress: '127.0.0.1' } }) as IncomingMessage;
    for (const url of [`/click/%41${forged.slice(7)}`, `${click}/more`, '/click/', '/clicks/x', '/click'])
      expect(take(req('GET', url), res), url).toBe(false);
    expect(take(req('HEAD', forged), res)).toBe(false);
    expect(take(req('GET', `${forged}?url=x`), res)).toBe(true);
    await vi.waitFor(() => expect(written).toEqual([400, 'end']));
  });
});
