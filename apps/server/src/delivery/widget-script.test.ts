import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { previewBootstrap } from './preview-document.ts';
import { notModified, widgetScriptRoutes } from './widget-script.ts';

// The script routes as the delivery tree mounts them (src/delivery/index.ts: a hook adds the CORS
// headers), over real keep-alive sockets: the answers are written by node:http directly.
let app: FastifyInstance;
let port: number;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(async (embedded) => {
    embedded.addHook('onRequest', (_req, reply, done) => {
      reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
      done();
    });
    await embedded.register(widgetScriptRoutes);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  await app.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  reused: boolean;
}

function get(headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { port, host: '127.0.0.1', path: '/widget-preview.js', method, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            reused: req.reusedSocket,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const script = Buffer.from(previewBootstrap);

describe('the script answers, written by node:http', () => {
  test('each form decodes to the script, with its length, caching and CORS headers, on one connection', async () => {
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get({ 'accept-encoding': 'gzip' });
    const plain = await get();
    expect(brotliDecompressSync(br.body).equals(script)).toBe(true);
    expect(gunzipSync(gz.body).equals(script)).toBe(true);
    expect(plain.body.equals(script)).toBe(true);
    expect([br, gz, plain].map((a) => a.headers['content-encoding'])).toEqual(['br', 'gzip', undefined]);
    for (const a of [br, gz, plain]) {
      expect(a.status).toBe(200);
      expect(Number(a.headers['content-length'])).toBe(a.body.length);
      expect(a.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(a.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
      expect(a.headers.vary).toBe('accept-encoding');
      expect(a.headers.etag).toBe(br.headers.etag);
      expect(a.headers['access-control-allow-origin']).toBe('*');
      expect(a.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(a.headers.connection).toBe('keep-alive');
    }
    // the second and third answers came over the socket of the first: its framing was right
    expect([gz.reused, plain.reused]).toEqual([true, true]);
  });

  test('HEAD answers the GET head without a body, and the connection goes on', async () => {
    const getBr = await get({ 'accept-encoding': 'br' });
    const head = await get({ 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(getBr.headers['content-length']);
    expect(head.headers['content-encoding']).toBe('br');
    const after = await get({ 'accept-encoding': 'br' });
    expect(after.reused).toBe(true);
    expect(after.body.equals(getBr.body)).toBe(true);
  });

  test('304 without a body for the current ETag, strong, weak, in a list or *; 200 for another', async () => {
    const { etag } = (await get()).headers;
    for (const tag of [String(etag), `W/${etag}`, `"old", W/${etag}`, '*']) {
      const res = await get({ 'if-none-match': tag, 'accept-encoding': 'br' });
      expect(res.status, tag).toBe(304);
      expect(res.body.length, tag).toBe(0);
      expect(res.headers.etag, tag).toBe(etag);
      expect(res.headers.vary, tag).toBe('accept-encoding');
      expect(res.headers['access-control-allow-origin'], tag).toBe('*');
    }
    const stale = await get({ 'if-none-match': '"old"' });
    expect(stale.status).toBe(200);
    expect(stale.reused).toBe(true);
  });

  test('a client that asks to close gets its answer and a closed connection', async () => {
    const res = await get({ connection: 'close' });
    expect(res.status).toBe(200);
    expect(res.headers.connection).toBe('close');
    expect(res.body.equals(script)).toBe(true);
  });

  test('the If-None-Match reader', () => {
    expect(notModified('"a"', '"a"')).toBe(true);
    expect(notModified('W/"a"', '"a"')).toBe(true);
    expect(notModified(' "b" ,W/"a" ', '"a"')).toBe(true);
    expect(notModified('*', '"a"')).toBe(true);
    expect(notModified('"b", W/"c"', '"a"')).toBe(false);
    expect(notModified('"a', '"a"')).toBe(false);
  });
});
