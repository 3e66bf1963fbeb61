import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { OutboundError, safeFetch } from './safe-fetch.ts';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/big') {
      res.writeHead(200);
      res.end(Buffer.alloc(2048, 'x'));
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 2000);
    } else if (req.url === '/redirect-private') {
      res.writeHead(302, { location: 'http://10.0.0.1/secret' });
      res.end();
    } else if (req.url === '/redirect-ok') {
      res.writeHead(301, { location: '/hello' });
      res.end();
    } else if (req.url === '/echo' || req.url === '/echo-307') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/echo-307') {
          res.writeHead(307, { location: '/echo' });
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            method: req.method,
            type: req.headers['content-type'] ?? null,
            token: req.headers['x-token'] ?? null,
            length: req.headers['content-length'] ?? null,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      });
    } else if (req.url === '/post-redirect') {
      res.writeHead(303, { location: '/echo' });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const reason = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof OutboundError ? e.reason : String(e);
  }
};

test('loopback, private and metadata addresses are refused unless loopback is allowed for tests', async () => {
  expect(await reason(safeFetch(`${base}/hello`))).toBe('blocked_address');
  expect(await reason(safeFetch('http://localhost:1/'))).toBe('blocked_address');
  expect(await reason(safeFetch('http://169.254.169.254/latest/meta-data'))).toBe('blocked_address');
  expect(await reason(safeFetch('http://[::1]/'))).toBe('blocked_address');
  expect(await reason(safeFetch('file:///etc/passwd'))).toBe('bad_url');
  const ok = await safeFetch(`${base}/hello`, { allowLoopback: true });
  expect(ok.body.toString()).toBe('hello');
});

test.each([
  'http://[::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::127.0.0.1]/',
  'http://[::]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::a00:1]/',
  'http://[2002:7f00:1::]/',
  'http://[2002:a9fe:a9fe::]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://127.1/',
  'http://0x7f.0.0.1/',
  'http://2130706433/',
  'http://0177.0.0.1/',
  'http://0.0.0.0/',
  'http://0/',
])('%s is refused as a loopback, private or unspecified address', async (url) => {
  expect(await reason(safeFetch(url, { timeoutMs: 2000 }))).toBe('blocked_address');
});

test('redirects are followed and checked again', async () => {
  expect((await safeFetch(`${base}/redirect-ok`, { allowLoopback: true })).body.toString()).toBe('hello');
  expect(await reason(safeFetch(`${base}/redirect-private`, { allowLoopback: true }))).toBe(
    'blocked_address',
  );
});

test('size and time are capped', async () => {
  expect(await reason(safeFetch(`${base}/big`, { allowLoopback: true, maxBytes: 1024 }))).toBe('too_large');
  expect(await reason(safeFetch(`${base}/slow`, { allowLoopback: true, timeoutMs: 300 }))).toBe('timeout');
});

test('POST sends its headers and body; 307 repeats the POST, 303 continues as a GET without the body', async () => {
  const body = JSON.stringify({ imp: [{ id: '1' }] });
  const post = (path: string) =>
    safeFetch(`${base}${path}`, {
      allowLoopback: true,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-token': 'abc', 'content-length': '1' },
      body,
    }).then((r) => JSON.parse(r.body.toString()));
  expect(await post('/echo')).toEqual({
    method: 'POST',
    type: 'application/json',
    token: 'abc',
    length: String(Buffer.byteLength(body)),
    body,
  });
  expect(await post('/echo-307')).toMatchObject({ method: 'POST', body });
  expect(await post('/post-redirect')).toMatchObject({ method: 'GET', body: '' });
  // a plain call is still a GET with no body
  expect(
    await safeFetch(`${base}/echo`, { allowLoopback: true }).then((r) => JSON.parse(r.body.toString())),
  ).toMatchObject({ method: 'GET', body: '' });
});
