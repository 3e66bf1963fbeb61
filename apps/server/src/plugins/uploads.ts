import type { FastifyInstance } from 'fastify';
import type { Storage } from '../lib/storage.ts';

/**
 * Serves uploaded files publicly at /uploads/<key>. Keys carry a random part and are never rewritten,
 * so a file can be cached for a year; a replaced logo gets a new key.
 */
export async function uploadsPlugin(app: FastifyInstance, opts: { storage: Storage }) {
  app.get('/uploads/*', { schema: { hide: true } }, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    const file = await opts.storage.get(key);
    if (!file) return reply.code(404).send({ error: 'not_found', message: req.t('errors:not_found') });
    return (
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        // creatives and logos are shown on publishers' pages, other origins
        .header('cross-origin-resource-policy', 'cross-origin')
        .type(file.contentType)
        .send(file.bytes)
    );
  });
}
