import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { ADMIN, freshDatabase } from '../test/test-app.ts';
import { accepted } from './widget-script.ts';

// Counts the per-request work of the API tree, to show the delivery tree does none of it.
const calls = vi.hoisted(() => ({ translator: 0, abilityFor: 0 }));
vi.mock('../lib/i18n.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../lib/i18n.ts')>();
  return {
    ...real,
    translator: (...args: Parameters<typeof real.translator>) => {
      calls.translator += 1;
      return real.translator(...args);
    },
  };
});
vi.mock('@adp/permissions', async (importOriginal) => {
  const real = await importOriginal<typeof import('@adp/permissions')>();
  return {
    ...real,
    abilityFor: (...args: Parameters<typeof real.abilityFor>) => {
      calls.abilityFor += 1;
      return real.abilityFor(...args);
    },
  };
});

const widgetDist = new URL('../../../../packages/widget/dist/widget.js', import.meta.url);
const logLines: { msg: string; url?: string; level: number }[] = [];
let app: FastifyInstance;
let drop: () => Promise<void>;

beforeAll(async () => {
  // the server serves the built script; build it when this checkout has not yet
  if (!existsSync(widgetDist))
    execFileSync(process.execPath, ['build.mjs'], {
      cwd: new URL('../../../../packages/widget/', import.meta.url),
    });
  const fresh = await freshDatabase();
  drop = fresh.drop;
  const config = loadConfig({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT: '2',
    PUBLIC_URL: 'http://localhost:8080',
    WEB_DIST: '/nonexistent',
    STORE_FILE: '',
    JOBS: 'off',
  });
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const entry = JSON.parse(line);
        logLines.push({ msg: entry.msg, url: entry.req?.url, level: entry.level });
      }
      done();
    },
  });
  app = await buildApp({ config, database: fresh.database, logger: { level: 'info', stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await drop();
});

describe('/widget.js', () => {
  const built = () => readFileSync(widgetDist);

  test('is served from memory with an ETag, a short cache life and Vary', async () => {
    const res = await app.inject({ method: 'GET', url: '/widget.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers.etag).toMatch(/^"[\w-]{22}"$/);
    expect(res.headers['cache-control']).toContain('public, max-age=300');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.equals(built())).toBe(true);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  test('a browser that has it gets 304 without a body', async () => {
    const { etag } = (await app.inject({ method: 'GET', url: '/widget.js' })).headers;
    for (const tag of [String(etag), `W/${etag}`, `"other", ${etag}`]) {
      const res = await app.inject({ method: 'GET', url: '/widget.js', headers: { 'if-none-match': tag } });
      expect(res.statusCode, tag).toBe(304);
      expect(res.body).toBe('');
    }
    const stale = await app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'if-none-match': '"old"' },
    });
    expect(stale.statusCode).toBe(200);
  });

  test('brotli when accepted, else gzip, each the same script precompressed', async () => {
    const br = await app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(built())).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(built().length);
    const gz = await app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'accept-encoding': 'gzip, br;q=0' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(built())).toBe(true);
  });

  test('the Accept-Encoding reader honours weights and the wildcard', () => {
    expect(accepted(undefined)).toEqual({ br: false, gzip: false });
    expect(accepted('gzip, deflate, br, zstd')).toEqual({ br: true, gzip: true });
    expect(accepted('br;q=0, gzip;q=0.5')).toEqual({ br: false, gzip: true });
    expect(accepted('*')).toEqual({ br: true, gzip: true });
    expect(accepted('*;q=1, gzip;q=0')).toEqual({ br: true, gzip: false });
    expect(accepted('identity')).toEqual({ br: false, gzip: false });
    expect(accepted('br;q=abc')).toEqual({ br: false, gzip: false });
  });
});

describe('the delivery tree does none of the API tree per-request work', () => {
  test('no helmet headers on delivery answers; the API keeps them', async () => {
    for (const url of ['/widget.js', '/serve/widgets/1', '/pixel.js', '/l/nothing-here']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['x-frame-options'], url).toBeUndefined();
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(res.headers['x-dns-prefetch-control'], url).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
    }
    const api = await app.inject({ method: 'GET', url: '/api/health' });
    expect(api.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(api.headers['content-security-policy']).toContain("default-src 'self'");
  });

  test('no locale, no login rules and no request limit on the embedded routes', async () => {
    const before = { ...calls };
    for (let i = 0; i < 5; i++) {
      for (const url of ['/widget.js', '/serve/widgets/1', '/pixel.js', '/px/1.gif']) {
        const res = await app.inject({ method: 'GET', url, headers: { 'accept-language': 'de' } });
        expect(res.statusCode, url).not.toBe(429);
        expect(res.headers['x-ratelimit-limit'], url).toBeUndefined();
      }
    }
    expect(calls).toEqual(before);
    // the API does all three (RATE_LIMIT=2 here)
    const api = await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-language': 'de' } });
    expect(api.headers['x-ratelimit-limit']).toBe('2');
    expect(calls.translator).toBeGreaterThan(before.translator);
    expect(calls.abilityFor).toBeGreaterThan(before.abilityFor);
  });

  test('errors are plain JSON codes, untranslated, and bad input is a 400, not a 500', async () => {
    const headers = { 'accept-language': 'de' };
    const missing = await app.inject({ method: 'GET', url: '/serve/widgets/424242', headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found' });
    const bad = await app.inject({ method: 'GET', url: '/serve/widgets/1/more?offset=-5', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'bad_request' });
    const notAnId = await app.inject({ method: 'GET', url: '/serve/widgets/abc', headers });
    expect(notAnId.statusCode).toBe(404);
  });

  test('delivery requests write no info line per request; API requests do', async () => {
    logLines.length = 0;
    await app.inject({ method: 'GET', url: '/widget.js' });
    await app.inject({ method: 'GET', url: '/serve/widgets/1' });
    await app.inject({ method: 'GET', url: '/pixel.js' });
    expect(logLines).toEqual([]);
    await app.inject({ method: 'GET', url: '/api/health' });
    expect(logLines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });
});
