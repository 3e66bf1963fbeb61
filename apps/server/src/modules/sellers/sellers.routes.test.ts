import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../../test/test-app.ts';
import { createSellersRepository } from './sellers.repository.ts';
import { createSellers, hasAdsTxtLine } from './sellers.service.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp({ ADS_TXT_CERT_ID: 'f08c47fec0942fa0', SELLERS_CONTACT_EMAIL: 'ops@adp.test' });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

async function publisher(domain: string, approve: boolean) {
  const u = await register(t.app, { name: `Pub ${domain}` });
  const api = as(t.app, u.access_token);
  const site = (await api.post('/api/sites', { site: { title: 'Mag', domain, category: 'news' } })).json();
  expect(site._id, JSON.stringify(site)).toBeTruthy();
  if (approve) await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
  return { ...u, api, site };
}

describe('sellers.json', () => {
  test('public, IAB 1.0 shape, lists the owners of approved sites only', async () => {
    const approved = await publisher('approved-pub.example', true);
    const pending = await publisher('pending-pub.example', false);
    const res = await t.app.inject({ method: 'GET', url: '/sellers.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    const body = res.json();
    expect(body).toMatchObject({ contact_email: 'ops@adp.test', version: '1.0' });
    expect(body.sellers).toContainEqual({
      seller_id: approved.user_id,
      name: `Pub approved-pub.example`,
      domain: 'approved-pub.example',
      seller_type: 'PUBLISHER',
      is_confidential: 0,
    });
    expect(body.sellers.map((s: { seller_id: string }) => s.seller_id)).not.toContain(pending.user_id);
  });
});

describe('ads.txt line and check', () => {
  let server: Server;
  let adsTxt = '';
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/big/ads.txt') {
        res.end('x'.repeat(600 * 1024));
        return;
      }
      if (req.url !== '/ads.txt') {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-type', 'text/plain');
      res.end(adsTxt);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('the owner and admins get the line; others 404; unknown 404', async () => {
    const p = await publisher('line-pub.example', true);
    const res = await p.api.get(`/api/sites/${p.site._id}/adstxt`);
    expect(res.json()).toEqual({
      line: `localhost, ${p.user_id}, DIRECT, f08c47fec0942fa0`,
      seller_id: p.user_id,
      url: 'https://line-pub.example/ads.txt',
    });
    expect((await admin.get(`/api/sites/${p.site._id}/adstxt`)).statusCode).toBe(200);
    const other = as(t.app, (await register(t.app)).access_token);
    expect((await other.get(`/api/sites/${p.site._id}/adstxt`)).statusCode).toBe(404);
    expect((await other.post(`/api/sites/${p.site._id}/adstxt/check`)).statusCode).toBe(404);
    expect((await admin.get('/api/sites/999999/adstxt')).statusCode).toBe(404);
  });

  test('a site whose ads.txt cannot be reached is answered, not failed', async () => {
    const p = await publisher('no-such-host.invalid', true);
    const res = await p.api.post(`/api/sites/${p.site._id}/adstxt/check`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ found: false, status: null });
    expect(['unreachable', 'blocked_address', 'timeout']).toContain(res.json().error);
  });

  test('the check reads the file through the guard and finds the line (comments, case, spaces)', async () => {
    const sellers = createSellers(createSellersRepository(t.database.db), contextOf(t.app).config, {
      allowLoopback: true,
    });
    adsTxt = 'google.com, pub-1, DIRECT, f08c47fec0942fa0\n# ours\n LOCALHOST ,42, direct # the platform\n';
    expect(await sellers.check(`${base}/ads.txt`, '42')).toMatchObject({
      found: true,
      status: 200,
      error: null,
    });
    expect(await sellers.check(`${base}/ads.txt`, '43')).toMatchObject({ found: false, error: null });
    expect(await sellers.check(`${base}/missing/ads.txt`, '42')).toMatchObject({
      found: false,
      status: 404,
      error: 'http_status',
    });
    expect(await sellers.check(`${base}/big/ads.txt`, '42')).toMatchObject({
      found: false,
      error: 'too_large',
    });
    // without the test switch the guard refuses loopback addresses
    const guarded = createSellers(createSellersRepository(t.database.db), contextOf(t.app).config, {
      allowLoopback: false,
    });
    expect(await guarded.check(`${base}/ads.txt`, '42')).toMatchObject({
      found: false,
      error: 'blocked_address',
    });
  });

  test('hasAdsTxtLine', () => {
    expect(hasAdsTxtLine('a.com, 7, RESELLER', 'a.com', '7')).toBe(false);
    expect(hasAdsTxtLine('a.com, 77, DIRECT', 'a.com', '7')).toBe(false);
    expect(hasAdsTxtLine('#a.com, 7, DIRECT', 'a.com', '7')).toBe(false);
    expect(hasAdsTxtLine('x\r\nA.com,7,DIRECT\r\n', 'a.com', '7')).toBe(true);
  });
});
