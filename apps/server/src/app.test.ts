import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './test/test-app.ts';

describe('the dashboard is served with a history-mode fallback', () => {
  const dist = mkdtempSync(join(tmpdir(), 'adp-dist-'));
  let t: TestApp;
  beforeAll(async () => {
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>dashboard</title>');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ WEB_DIST: dist, PUBLIC_URL: 'http://localhost:8080/' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  test('deep links answer index.html', async () => {
    for (const url of ['/', '/users/7', '/pages/miscellaneous/not-authorized?x=1', '/login']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<title>dashboard</title>');
    }
  });

  test('the page names PUBLIC_URL, where the embed code it shows points', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/widgets/3/edit' });
    expect(res.body).toContain('<meta name="adp-public-url" content="http://localhost:8080" />');
  });

  test('the page is served under a strict CSP that still works over plain http', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/users/7' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    // the ad server's pictures over plain http, also when the dashboard is opened as 127.0.0.1
    expect(csp).toContain("img-src 'self' data: blob: https: http://localhost:8080;");
  });

  test('files are served, hashed assets cached for long', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  test('the favicon is served as SVG, and /favicon.ico points to it', async () => {
    const svg = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.headers['cache-control']).toBe('no-cache');
    const ico = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(ico.statusCode).toBe(301);
    expect(ico.headers.location).toBe('/favicon.svg');
  });

  test('missing files, unknown API and delivery paths are JSON 404s, not the page', async () => {
    for (const url of [
      '/assets/missing.js',
      '/api/unknown',
      '/api',
      '/serve/nothing',
      '/serve/widgets/1/',
      '/rtb/openrtb2/key',
      '/click/x/y',
      '/px/a/b',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const post = await t.app.inject({ method: 'POST', url: '/users/7', payload: {} });
    expect(post.statusCode).toBe(404);
  });
});

describe('API request limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: '3' });
  });
  afterAll(() => t.close());

  test('past RATE_LIMIT requests a minute the API answers 429 with a translated message', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-language': 'en' },
    });
    expect(res.json()).toMatchObject({
      error: 'too_many_requests',
      message: expect.stringContaining('Too many'),
    });
  });
});
