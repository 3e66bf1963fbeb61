import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { findUp } from '../lib/paths.ts';
import { previewBootstrap } from './preview-document.ts';
import { sampleSvg } from './sample-image.ts';

/**
 * The delivery tree: what publishers' pages load. No login, answers readable from any origin, and no
 * database read per request beyond the short-lived cache of widget answers.
 */
export async function serveRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { widgetItems } = ctx;
  let script: Buffer | undefined;
  // looked up on use, not at start: a server started before `npm run build` finds it once it exists
  const loadScript = () => {
    if (script) return script;
    try {
      script = readFileSync(findUp('packages/widget/dist/widget.js'));
    } catch {
      // not built yet
    }
    return script;
  };

  app.addHook('onSend', async (_req, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });

  app.get('/widget.js', { schema: { hide: true } }, async (req, reply) => {
    const body = loadScript();
    if (!body) return reply.code(404).send({ error: 'not_found', message: req.t('errors:not_found') });
    return reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(body);
  });

  app.get('/widget-preview.js', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(previewBootstrap),
  );

  const params = z.object({ id: z.string().regex(/^\d{1,18}$/) });

  app.get('/serve/widgets/:id', { schema: { hide: true, params } }, async (req, reply) => {
    const served = await widgetItems.serve(Number((req.params as { id: string }).id));
    if (!served) return reply.code(404).send({ error: 'not_found', message: req.t('errors:not_found') });
    return reply.header('cache-control', 'public, max-age=30').send(served);
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
      if (!served) return reply.code(404).send({ error: 'not_found', message: req.t('errors:not_found') });
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
