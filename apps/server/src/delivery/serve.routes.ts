import { MONEY_MAX, toMicros } from '@adp/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { DeliveryRequest } from './engine.ts';
import { sendFastAnswer } from './fast-answer.ts';
import { sampleSvg } from './sample-image.ts';
import {
  clickAnswer,
  credentialedHeaders,
  deliveryVisitor,
  widgetIdPattern as idPattern,
  serveWidgetAnswer,
} from './serve-answer.ts';
import { cookieAttributes } from './visitor-cookie.ts';

/**
 * What a widget on a publisher's page asks for (its items, more as the visitor scrolls), what it reports
 * (impressions, viewable), where a click goes, and advertisers' conversions. Decisions come from memory
 * (the ad index); a click is charged before its redirect.
 */
export async function serveRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { engine } = ctx.delivery;
  const attributes = cookieAttributes(ctx.config.publicUrl);

  /** The visitor as delivery reads it; a new visitor gets its `vid` cookie with this answer. */
  function visitorOf(req: FastifyRequest, reply: FastifyReply): DeliveryRequest {
    const visitor = deliveryVisitor(req.headers, req.ip, (req.query as { url?: unknown }).url, attributes);
    if (visitor.cookie) reply.header('set-cookie', visitor.cookie);
    return visitor.request;
  }
  /** Answers read by a script on the publisher's page, with our cookie (serve-answer.ts says which fields). */
  function credentialed(req: FastifyRequest, reply: FastifyReply) {
    const fields = credentialedHeaders(req.headers.origin);
    for (let i = 0; i < fields.length; i += 2) reply.header(fields[i] as string, fields[i + 1]);
  }

  // the hottest route (also answered before the framework: serve-fast-path.ts; both write serve-answer.ts's
  // answer): the id is checked by hand rather than by a schema, and a bad one is simply unknown
  app.get('/serve/widgets/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const q = req.query as { url?: unknown };
    const answer = await serveWidgetAnswer(engine, attributes, id, req.headers, req.ip, q.url);
    return sendFastAnswer(reply, answer);
  });

  app.get(
    '/serve/widgets/:id/more',
    {
      schema: {
        hide: true,
        params: z.object({ id: z.string().regex(idPattern) }),
        querystring: z.object({
          offset: z.coerce.number().int().min(0).max(10_000).default(0),
          url: z.string().max(8000).optional(),
          // the creatives the widget already shows ("b12,b40" or "12,40"): the next ones are others
          seen: z
            .string()
            .max(1200)
            .regex(/^(b?\d{1,12})(,b?\d{1,12})*$/)
            .optional(),
        }),
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const { offset, seen } = req.query as { offset: number; seen?: string };
      credentialed(req, reply);
      const shown = new Set(
        (seen ? seen.split(',') : []).slice(0, 100).map((v) => Number(v.replace('b', ''))),
      );
      const visitor = visitorOf(req, reply);
      const more = await engine.more(Number(id), offset, shown.size ? { ...visitor, seen: shown } : visitor);
      if (!more) return reply.code(404).send({ error: 'not_found' });
      return more;
    },
  );

  // the beacons: 204 whether or not this use counted (a second use counts nothing); a forged one is a 400
  for (const [path, kind] of [
    ['/serve/i/:token', 'impression'],
    ['/serve/v/:token', 'view'],
  ] as const) {
    app.get(path, async (req, reply) => {
      credentialed(req, reply);
      const token = (req.params as { token: string }).token;
      // a HEAD (a link checker, a prefetch) counts nothing
      const result = await engine.beacon(kind, token, req.method === 'HEAD');
      if (result === 'bad_token') return reply.code(400).send({ error: 'bad_token' });
      return reply.code(204).send();
    });
  }

  // a click on one of the site's own materials (the link is the article's own): counted, never charged
  app.get('/serve/m/:token', { schema: { hide: true } }, async (req, reply) => {
    credentialed(req, reply);
    const result = await engine.materialClick((req.params as { token: string }).token, req.method === 'HEAD');
    if (result === 'bad_token') return reply.code(400).send({ error: 'bad_token' });
    return reply.code(204).send();
  });

  // a click inside advertiser markup (criteo: its own links in an iframe, which no redirect of ours sees),
  // reported by the embed script: counted and charged as `/click/<token>` would be, answered without a
  // redirect
  app.get('/serve/c/:token', { schema: { hide: true } }, async (req, reply) => {
    credentialed(req, reply);
    const token = (req.params as { token: string }).token;
    const result = await engine.click(token, visitorOf(req, reply), req.method === 'HEAD');
    if (result.status === 'bad_token') return reply.code(400).send({ error: 'bad_token' });
    return reply.code(204).send();
  });

  // the click (also answered before the framework: click-fast-path.ts; both write serve-answer.ts's answer)
  app.get('/click/:token', async (req, reply) => {
    const { token } = req.params as { token: string };
    const answer = await clickAnswer(
      engine,
      attributes,
      token,
      req.headers,
      req.ip,
      (req.query as { url?: unknown }).url,
      req.method === 'HEAD',
    );
    return sendFastAnswer(reply, answer);
  });

  // advertisers' servers report conversions of the clicks they received ({click_id} in their URL)
  app.get(
    '/postback',
    {
      schema: {
        hide: true,
        querystring: z.object({
          click_id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
          sum: z
            .string()
            .regex(/^\d{1,10}(\.\d{1,6})?$/)
            .refine((v) => Number(v) <= MONEY_MAX)
            .optional(),
          status: z
            .string()
            .regex(/^[A-Za-z0-9_.-]{1,32}$/)
            .optional(),
        }),
      },
    },
    async (req, reply) => {
      const q = req.query as { click_id: string; sum?: string; status?: string };
      const result = await engine.postback(
        q.click_id,
        q.sum ? toMicros(q.sum) : null,
        q.status ?? null,
        req.method === 'HEAD',
      );
      if (!result) return reply.code(404).send({ error: 'not_found' });
      return reply.code(204).send();
    },
  );

  app.get('/serve/sample/:n', { schema: { hide: true } }, async (req, reply) => {
    const n = Number.parseInt((req.params as { n: string }).n, 10);
    if (!Number.isInteger(n) || n < 1 || n > 8) return reply.code(404).send({ error: 'not_found' });
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(sampleSvg(n));
  });
}
