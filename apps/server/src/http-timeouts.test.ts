import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from './config.ts';
import { createTestApp, type TestApp } from './test/test-app.ts';

/** What the server sent on a socket until it closed it, and how long after `since` it closed. */
function untilClosed(socket: Socket, since: number): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, ms: Date.now() - since }));
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('the HTTP server cuts slow clients off (slowloris), the fast paths as well as the API', () => {
  const HEADERS_MS = 300;
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: '600',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '400',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  test('a request head that never ends: 408 and the socket closed after the head limit', async () => {
    // /widget.js and /serve/… are answered before Fastify; /api/… by it: one server, one limit
    for (const path of ['/widget.js', '/serve/widgets/1', '/api/health']) {
      const socket = await open(port);
      const started = Date.now();
      const closed = untilClosed(socket, started);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow`);
      // one more header line now and then, never the empty line that ends the head
      const drip = setInterval(() => socket.write('x'), 50);
      const { text, ms } = await closed.finally(() => clearInterval(drip));
      expect(text, path).toMatch(/^HTTP\/1\.1 408 /);
      expect(ms, path).toBeGreaterThanOrEqual(HEADERS_MS - 20);
      expect(ms, path).toBeLessThan(1_500);
    }
  });

  test('a connection that sends nothing is closed after the head limit too', async () => {
    const socket = await open(port);
    const { ms } = await untilClosed(socket, Date.now());
    expect(ms).toBeGreaterThanOrEqual(HEADERS_MS - 20);
    expect(ms).toBeLessThan(1_500);
  });

  test('an answered keep-alive socket stays open for the next request, then closes when idle', async () => {
    const socket = await open(port);
    const closed = untilClosed(socket, Date.now());
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    // a second request past the head limit (measured from the first) is still answered: an idle socket
    // between requests is the keep-alive limit's, not the head's
    await new Promise((r) => setTimeout(r, HEADERS_MS + 50));
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const answered = Date.now();
    const { text } = await closed;
    expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(text).toContain('Keep-Alive: timeout=');
    // then idle: closed after the keep-alive limit (400 ms), not Node's default 5 s
    expect(Date.now() - answered).toBeLessThan(1_500);
  });
});

describe('HTTP timeouts in the configuration', () => {
  test('defaults: 10 s for the head, 120 s for the request, 72 s for an idle keep-alive socket', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 120_000,
      keepAliveTimeout: 72_000,
    });
  });

  test('the head may not outlast the request, nor be unlimited', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '0' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' }).http.requestTimeout).toBe(0);
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
  });
});
