import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { type BodyFastPath, type FastPath, type Front, installFront, readBody } from './http-front.ts';

// The delivery front over real sockets, beside a plain node:http server that gets every request no fast
// path takes: HTTP/1.1 as node:http keeps it (order, keep-alive, close, HEAD, errors, time limits) and the
// handover of a connection with the bytes node:http has not parsed yet.

/**
 * `/script` answers a fixed script; `/fast/<ms>/<text>` answers `<text>`, the x-a and cookie fields after
 * <ms> milliseconds (`utf8` answers `é` for it), with no content-length (the front adds the body's); `crlf` writes a field that would
 * split the head.
 */
const fastPaths: FastPath[] = [
  (req) => {
    // `/throw`: a fast path that fails before it answers
    if (req.url === '/throw') throw new Error('boom');
    return false;
  },
  (req, res) => {
    // `/big/<n>`: n bytes
    const big = /^\/big\/(\d+)$/.exec(req.url ?? '');
    if (!big) return false;
    res.writeHead(200, ['content-type', 'text/plain']);
    res.end('b'.repeat(Number(big[1])));
    return true;
  },
  (req, res) => {
    if (req.url !== '/script') return false;
    res.writeHead(200, ['content-type', 'text/javascript', 'content-length', '7']);
    res.end('var a;\n', 'latin1');
    return true;
  },
  (req, res) => {
    const match = /^\/fast\/(\d+)\/(.*)$/.exec(req.url ?? '');
    if (!match) return false;
    const fields = (): string[] =>
      match[2] === 'crlf'
        ? ['x-bad', 'a\r\nset-cookie: evil=1']
        : ['content-type', 'text/plain; charset=utf-8'];
    const answer = () => {
      res.writeHead(200, fields());
      res.end(
        `${match[2] === 'utf8' ? 'é' : match[2]} ${req.headers['x-a'] ?? ''} ${req.headers.cookie ?? ''}`.trim(),
      );
    };
    if (match[1] === '0') answer();
    else setTimeout(answer, Number(match[1]));
    return true;
  },
];

/** `POST /echo` answers the body's length and text once it has all of it. */
const bodyPaths: BodyFastPath[] = [
  (req, res) => {
    // `/413`: answers at once and never reads the body (nor listens for its errors)
    if (req.url !== '/413') return false;
    res.writeHead(413, []);
    res.end('');
    return true;
  },
  (req, res) => {
    // `/late`: asks for its body only after it has gone by (a path must ask before it returns)
    if (req.url !== '/late') return false;
    setTimeout(() => {
      readBody(req, {
        data: () => {},
        end: () => {
          res.writeHead(200, []);
          res.end('read');
        },
        abort: () => {
          res.writeHead(400, []);
          res.end('too late');
        },
      });
    }, 50);
    return true;
  },
  (req, res) => {
    if (req.url !== '/echo') return false;
    const chunks: Buffer[] = [];
    readBody(req, {
      data: (chunk) => chunks.push(chunk),
      abort: () => {
        aborted += 1;
      },
      end: () => {
        const body = Buffer.concat(chunks).toString('latin1');
        res.writeHead(200, ['content-type', 'text/plain']);
        res.end(`echo ${body.length} ${body}`);
      },
    });
    return true;
  },
];
let aborted = 0;
/** Requests node:http's handler got. */
let nodeCalls = 0;

let server: Server | undefined;
/** The server's side of each connection. */
let sockets: Socket[] = [];
let front: Front | undefined;
let closing = false;

async function start(limits: { headersTimeout?: number; keepAliveTimeout?: number } = {}) {
  closing = false;
  server = createServer((req, res) => {
    nodeCalls += 1;
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    req.on('end', () => res.end(`node ${req.method} ${req.url} ${size}`));
  });
  front = installFront(server, {
    fastPaths,
    bodyPaths,
    closing: () => closing,
    headersTimeout: limits.headersTimeout ?? 5_000,
    requestTimeout: 10_000,
    keepAliveTimeout: limits.keepAliveTimeout ?? 5_000,
  });
  sockets = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

afterEach(async () => {
  front?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** Sends the parts (a number: waits that many ms) and reads until the server closes or `ms` pass. */
async function talk(port: number, parts: (string | number)[], ms = 1_500, allowHalfOpen = false) {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen });
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (data: string) => {
    text += data;
  });
  const closed = new Promise<boolean>((resolve) => {
    socket.on('close', () => resolve(true));
    setTimeout(() => resolve(false), ms);
  });
  for (const part of parts) {
    if (typeof part === 'number') await new Promise((resolve) => setTimeout(resolve, part));
    else socket.write(part, 'latin1');
  }
  const didClose = await closed;
  socket.destroy();
  return { text, closed: didClose, answers: answersOf(text) };
}

/** The answers in a stream of them: status, lower-case fields, body (by content-length). */
function answersOf(text: string) {
  const answers: { status: number; fields: Record<string, string>; body: string }[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const [line, ...lines] = text.slice(at, end).split('\r\n');
    const fields: Record<string, string> = {};
    for (const l of lines) {
      const colon = l.indexOf(':');
      fields[l.slice(0, colon).toLowerCase()] = l.slice(colon + 1).trim();
    }
    const length = Number(fields['content-length'] ?? 0);
    answers.push({
      status: Number(line?.split(' ')[1]),
      fields,
      body: text.slice(end + 4, end + 4 + length),
    });
    at = end + 4 + length;
  }
  return answers;
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: a\r\n${extra}\r\n`;

describe('the delivery front', () => {
  test('pipelined requests are answered in their order, a slow answer holding back the quick ones', async () => {
    const port = await start();
    const r = await talk(port, [get('/fast/80/one') + get('/fast/0/two') + get('/script')], 400);
    expect(r.answers.map((a) => a.body)).toEqual(['one', 'two', 'var a;\n']);
    expect(r.answers[0]?.fields).toMatchObject({
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'content-length': '3',
    });
    expect(r.answers[0]?.fields.date).toMatch(/ GMT$/);
    expect(r.closed).toBe(false);
  });

  test('a hundred pipelined requests in one write are all answered, in order', async () => {
    const port = await start();
    const r = await talk(port, [Array.from({ length: 100 }, (_, i) => get(`/fast/0/n${i}`)).join('')], 600);
    expect(r.answers.map((a) => a.body)).toEqual(Array.from({ length: 100 }, (_, i) => `n${i}`));
    expect(r.closed).toBe(false);
  });

  test('a fast path that throws is a 500 in its place; the request after it goes to node:http once', async () => {
    const port = await start();
    nodeCalls = 0;
    const r = await talk(port, [get('/fast/0/a') + get('/throw') + get('/api/x')], 500);
    expect(r.answers.map((a) => `${a.status} ${a.body}`)).toEqual([
      '200 a',
      expect.stringMatching(/^500 /),
      '200 node GET /api/x 0',
    ]);
    expect(nodeCalls).toBe(1);
  });

  test('repeated fields read as node:http reads them; a UTF-8 body is measured in bytes', async () => {
    const port = await start();
    const r = await talk(
      port,
      [get('/fast/0/utf8', 'X-A: 1\r\nx-a: 2\r\nCookie: a=1\r\nCookie: b=2\r\n')],
      300,
    );
    expect(r.answers[0]?.fields['content-length']).toBe(String(Buffer.byteLength('é 1, 2 a=1; b=2')));
    expect(Buffer.from(r.answers[0]?.body ?? '', 'latin1').toString('utf8')).toContain('é 1, 2 a=1; b=2');
  });

  test('the first request no fast path takes hands the connection to node:http with its body, after the answers before it', async () => {
    const port = await start();
    const r = await talk(port, [
      `${get('/fast/60/first')}POST /api/x HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello`,
      30,
      `world${get('/fast/0/later')}`,
      30,
      `POST /api/y HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n`,
    ]);
    expect(r.answers.map((a) => a.body)).toEqual([
      'first',
      'node POST /api/x 10',
      // node:http owns the connection now: a fast path's URL too goes to its handler
      'node GET /fast/0/later 0',
      'node POST /api/y 3',
    ]);
  });

  test('a POST a body path takes is read as it comes, in parts or chunked; another POST goes to node:http', async () => {
    const port = await start();
    const r = await talk(port, [
      'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello',
      40,
      ' world',
      `POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n1\r\nc\r\n0\r\n\r\n`,
      `POST /other HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nxy`,
    ]);
    expect(r.answers.map((a) => a.body)).toEqual(['echo 11 hello world', 'echo 3 abc', 'node POST /other 2']);
    // a body cut short: its reader sees an error, and nothing is written
    const before = aborted;
    const cut = await talk(port, ['POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc'], 100);
    expect(cut.answers).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(aborted).toBe(before + 1);
  });

  test('a path that asks for its body too late is told so, and the next request keeps its own body', async () => {
    const port = await start();
    const { answers } = await talk(port, [
      'POST /late HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc',
      'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n',
      100,
      'hello',
    ]);
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [400, 'too late'],
      [200, 'echo 5 hello'],
    ]);
  });

  test("a chunked body's trailer fields and its URL never reach the next request", async () => {
    const port = await start();
    const r = await talk(
      port,
      [
        `${get('/fast/0/a', 'Transfer-Encoding: chunked\r\n')}0\r\nX-A: 6.6.6.6\r\nCookie: sid=evil\r\n\r\n`,
        50,
        // a head in two reads goes through llhttp's kOnHeaders, where the trailers were gathered
        'GET /fast/0/b HTTP/1.1\r\nHost: a\r\nX-',
        50,
        'A: 1\r\n\r\n',
      ],
      400,
    );
    expect(r.answers.map((a) => a.body)).toEqual(['a', 'b 1']);
  });

  test('a body cut short with no reader listening for its error closes that connection only', async () => {
    const port = await start();
    const cut = await talk(
      port,
      ['POST /413 HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\nabc'],
      100,
    );
    expect(cut.answers.map((a) => a.status)).toEqual([413]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // the process (and the server) still answers
    const next = await talk(port, [get('/fast/0/alive')], 200);
    expect(next.answers.map((a) => a.body)).toEqual(['alive']);
  });

  test('a client that sends without reading is not read further: its answers do not pile up', async () => {
    const port = await start();
    const client = connect(port, '127.0.0.1');
    client.pause();
    const flood = get('/big/20000').repeat(1000);
    for (let i = 0; i < 10; i++) client.write(flood);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const buffered = sockets[0]?.writableLength ?? 0;
    client.destroy();
    // unbounded, 10,000 answers of 20 KB would wait in memory: 200 MB
    expect(buffered).toBeLessThan(1_000_000);
  });

  test('an answer still going out to a slow reader is not idleness: keep-alive and closeIdle let it finish', async () => {
    const port = await start({ keepAliveTimeout: 300 });
    const size = 20_000_000;
    const read = (shutdown: boolean) =>
      new Promise<number>((resolve) => {
        const client = connect(port, '127.0.0.1');
        let received = 0;
        client.on('data', (chunk: Buffer) => {
          received += chunk.length;
        });
        client.on('close', () => resolve(received));
        client.write(get(`/big/${size}`, 'Connection: close\r\n'));
        client.pause();
        setTimeout(() => {
          if (shutdown) front?.closeIdle();
        }, 200);
        // it starts reading only after the keep-alive limit has passed twice
        setTimeout(() => client.resume(), 900);
      });
    for (const shutdown of [false, true]) expect(await read(shutdown)).toBeGreaterThan(size);
  });

  test('reading stops while answers wait for a client that does not read, and goes on when it does', async () => {
    const port = await start();
    const client = connect(port, '127.0.0.1');
    client.pause();
    // one request at a time, each answered with 200 KB: far more than the socket buffers hold
    for (let i = 0; i < 60; i++) {
      client.write(get('/big/200000'));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const server = sockets[0];
    // paused rather than cut off: the answers waiting stay under the limit that would close it
    expect(server?.destroyed).toBe(false);
    expect(server?.writableLength ?? 0).toBeLessThan(1_100_000);
    let received = 0;
    client.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    client.resume();
    for (let i = 0; i < 50 && received <= 60 * 200_000; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    client.destroy();
    expect(received).toBeGreaterThan(60 * 200_000);
  });

  test('a closing answer closes the socket even when the client keeps its side open', async () => {
    const port = await start();
    const r = talk(port, [get('/fast/0/a', 'Connection: close\r\n')], 400, true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sockets[0]?.destroyed).toBe(true);
    expect((await r).answers.map((a) => a.body)).toEqual(['a']);
  });

  test('HEAD answers the head only, with the length of the body it leaves out', async () => {
    const port = await start();
    const r = await talk(port, [`HEAD /script HTTP/1.1\r\nHost: a\r\n\r\n${get('/fast/0/after')}`], 300);
    expect(r.text).toContain('content-length: 7\r\n');
    expect(r.text).not.toContain('var a;');
    expect(r.text).toContain('\r\n\r\nHTTP/1.1 200 OK');
    expect(r.text.endsWith('after')).toBe(true);
  });

  test('Connection: close and HTTP/1.0 close after their answer; HTTP/1.0 keep-alive stays', async () => {
    const port = await start();
    const close = await talk(port, [get('/fast/0/a', 'Connection: close\r\n') + get('/fast/0/b')]);
    expect(close.closed).toBe(true);
    expect(close.answers.map((a) => a.body)).toEqual(['a']);
    expect(close.answers[0]?.fields.connection).toBe('close');
    const old = await talk(port, ['GET /fast/0/a HTTP/1.0\r\n\r\n']);
    expect(old.closed).toBe(true);
    expect(old.answers[0]?.body).toBe('a');
    const kept = await talk(port, ['GET /fast/0/a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n'], 300);
    expect(kept.closed).toBe(false);
    expect(kept.answers[0]?.fields.connection).toBe('keep-alive');
  });

  test('what llhttp refuses is a 400 (a head too large 431), and the connection closes', async () => {
    const port = await start();
    const bad = await talk(port, [
      'GET /fast/0/a HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
    ]);
    expect(bad.closed).toBe(true);
    expect(bad.answers.map((a) => a.status)).toEqual([400]);
    const large = await talk(port, [get('/fast/0/a', `x-big: ${'b'.repeat(20_000)}\r\n`)]);
    expect(large.closed).toBe(true);
    expect(large.answers.map((a) => a.status)).toEqual([431]);
    const junk = await talk(port, ['\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03']);
    expect(junk.closed).toBe(true);
    expect(junk.answers.map((a) => a.status)).toEqual([400]);
    // after an answer too, once no answer is still to come
    const after = await talk(port, [get('/fast/0/a'), 50, 'GARBAGE\r\n\r\n']);
    expect(after.closed).toBe(true);
    expect(after.answers.map((a) => a.status)).toEqual([200, 400]);
    // and after answers still to come: they are written first, then the 400
    for (const wait of ['0', '60']) {
      const pipelined = await talk(port, [`${get(`/fast/${wait}/a`)}GARBAGE\r\n\r\n`], 300);
      expect(pipelined.closed).toBe(true);
      expect(pipelined.answers.map((a) => `${a.status} ${a.body}`)).toEqual(['200 a', '400 ']);
    }
  });

  test('HTTP/1.1 without Host, Expect and Upgrade go to node:http', async () => {
    const port = await start();
    const noHost = await talk(port, ['GET /fast/0/a HTTP/1.1\r\n\r\n']);
    expect(noHost.text).toMatch(/^HTTP\/1.1 400 /);
    expect(noHost.closed).toBe(true);
    const expectation = await talk(port, [get('/fast/0/a', 'Expect: 100-continue\r\n')], 300);
    expect(expectation.answers.at(-1)?.body).toBe('node GET /fast/0/a 0');
  });

  test('a header field with a line break is never written: the answer is a 500', async () => {
    const port = await start();
    const r = await talk(port, [get('/fast/0/crlf')], 300);
    expect(r.answers.map((a) => a.status)).toEqual([500]);
    expect(r.text).not.toContain('evil');
  });

  test('a head that takes longer than headersTimeout gets a 408; an idle connection closes after keepAliveTimeout', async () => {
    const port = await start({ headersTimeout: 200, keepAliveTimeout: 300 });
    const slow = await talk(
      port,
      ['GET /fast/0/a HTTP/1.1\r\n', 150, 'Host: a\r\n', 150, 'X-A: 1\r\n'],
      1_500,
    );
    expect(slow.closed).toBe(true);
    expect(slow.answers.map((a) => a.status)).toEqual([408]);
    const silent = await talk(port, [], 1_500);
    expect(silent.closed).toBe(true);
    const idle = await talk(port, [get('/fast/0/a')], 1_500);
    expect(idle.answers.map((a) => a.body)).toEqual(['a']);
    expect(idle.closed).toBe(true);
  });

  test('closeIdle closes the idle connections; an answer in flight closes its own when written', async () => {
    const port = await start();
    const idle = talk(port, [get('/fast/0/a')], 1_000);
    const busy = talk(port, [get('/fast/300/b')], 1_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    closing = true;
    front?.closeIdle();
    const [i, b] = await Promise.all([idle, busy]);
    expect(i.closed).toBe(true);
    expect(i.answers.map((a) => a.body)).toEqual(['a']);
    expect(b.closed).toBe(true);
    expect(b.answers[0]?.body).toBe('b');
    expect(b.answers[0]?.fields.connection).toBe('close');
  });

  test('a client that sends requests without reading the answers is cut off', async () => {
    const port = await start();
    const r = await talk(port, [get('/fast/200/x').repeat(100)], 1_000);
    expect(r.closed).toBe(true);
    expect(r.answers).toEqual([]);
  });
});
