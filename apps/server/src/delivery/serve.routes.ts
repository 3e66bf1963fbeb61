import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { sampleSvg } from './sample-image.ts';

/**
 * What a widget on a publisher's page asks for: its settings and items, more items as the visitor
 * scrolls, and the sample pictures of previews. No database read per request beyond the short-lived
 * cache of widget answers.
 */
export async function serveRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { widgetItems } = ctx;
  const idPattern = /^\d{1,18}$/;
  const params = z.object({ id: z.string().regex(idPattern) });
  // a cached answer is the same object until it expires: serialised once, not on every page view
  const serialized = new WeakMap<object, string>();

  // the hottest route: the id is checked by hand rather than by a schema, and a bad one is simply unknown
  app.get('/serve/widgets/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const served = idPattern.test(id) ? await widgetItems.serve(Number(id)) : null;
    if (!served) return reply.code(404).send({ error: 'not_found' });
    let body = serialized.get(served);
    if (body === undefined) {
      body = JSON.stringify(served);
      serialized.set(served, body);
    }
    return reply
      .header('cache-control', 'public, max-age=30')
      .type('application/json; charset=utf-8')
      .send(body);
  });

  app.get(
    '/serve/widgets/:id/more',
    {
      schema: {
        hide: true,
        params,
        querystring: z.object({ offset: z.coerce.number().int().min(0).max(10_000).default(0) }),
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const { offset } = req.query as { offset: number };
      const served = await widgetItems.serve(Number(id));
      if (!served) return reply.code(404).send({ error: 'not_found' });
      const per = Math.max(served.widget.settings.columns * served.widget.settings.rows, 1);
      const items = (await widgetItems.more(Number(id), offset, per)) ?? [];
      return { items };
    },
  );

  app.get('/serve/sample/:n', { schema: { hide: true } }, async (req, reply) => {
    const n = Number.parseInt((req.params as { n: string }).n, 10);
    if (!Number.isInteger(n) || n < 1 || n > 8) return reply.code(404).send({ error: 'not_found' });
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(sampleSvg(n));
  });
}
