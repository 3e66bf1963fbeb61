// The reference servers of `npm run bench`: `node scripts/bench-bare.mjs node|fastify <port>` answers every
// GET with the same small JSON, with nothing else in the way (no hooks, no plugins, no logging).
import { createServer } from 'node:http';

const [kind, port] = process.argv.slice(2);
const body = '{"ok":true}';

if (kind === 'node') {
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
  console.error('usage: bench-bare.mjs node|fastify <port>');
  process.exit(2);
}
