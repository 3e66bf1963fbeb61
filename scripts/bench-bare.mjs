// The reference servers of `npm run bench`: `node scripts/bench-bare.mjs node|fastify <port>` answers every
// GET with the same small JSON, with nothing else in the way (no hooks, no plugins, no logging);
// `node-script` answers the built embed script as /widget.js sends it to a browser (the same brotli bytes
// from memory, head and body in one write), to show what the 5 KB alone cost next to the 11-byte JSON;
// `node-echo` answers a captured answer of our server (serve, bid) with nothing else in the way.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { brotliCompressSync, constants } from 'node:zlib';

const [kind, port] = process.argv.slice(2);
const body = '{"ok":true}';

if (kind === 'node-script') {
  const script = readFileSync(new URL('../packages/widget/dist/widget.js', import.meta.url));
  const br = brotliCompressSync(script, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: script.length,
    },
  });
  // a latin1 string holds the bytes one for one, and node:http writes it together with the head
  const text = br.toString('latin1');
  createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/javascript; charset=utf-8',
      'content-encoding': 'br',
      'content-length': br.length,
    });
    res.end(text, 'latin1');
  }).listen(Number(port), '127.0.0.1', () => process.send?.('up'));
} else if (kind === 'node-echo') {
  // `node-echo <port>`: answers with the status, header fields and body the parent process sends it (a
  // captured answer of our server), after reading the request's body: what those bytes alone cost
  let answer = { status: 200, headers: {}, body: '' };
  process.on('message', (m) => {
    answer = m;
    process.send?.('set');
  });
  createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
    });
  }).listen(Number(port), '127.0.0.1', () => process.send?.('up'));
} else if (kind === 'node') {
  createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  }).listen(Number(port), '127.0.0.1', () => process.send?.('up'));
} else if (kind === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/*', (_req, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  });
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  process.send?.('up');
} else {
  console.error('usage: bench-bare.mjs node|node-script|node-echo|fastify <port>');
  process.exit(2);
}
