import {
  errorBody,
  id,
  paged,
  pageQuery,
  paymentProviders,
  topup,
  topupInput,
  topupStart,
} from '@adp/contract';
import { assertCan, subject } from '@adp/permissions';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { visibleBy } from '../../lib/visible.ts';
import { visibleUser } from '../users/users.access.ts';
import { toTopup } from './topups.service.ts';

const params = z.object({ id });

/** Dashboard calls: start a top-up, list and read them. */
export const topupsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { topups } = ctx;
  app.addHook('onRequest', app.authenticate);
  const visibleTopup = visibleBy('TopUp', topups.find);

  app.post(
    '/users/:id/topups',
    {
      schema: {
        tags: ['payments'],
        params,
        body: z.strictObject({ topup: topupInput }),
        // 409 payments_not_configured: no provider is set up (GET /api/payments/providers is empty)
        response: { 201: topupStart, 409: errorBody },
      },
    },
    async (req, reply) => {
      const user = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'create', subject('TopUp', { user_id: user._id }));
      reply.code(201);
      return topups.start(
        { id: Number(user._id), email: user.email },
        req.body.topup.sum,
        req.body.topup.provider,
      );
    },
  );

  app.get(
    '/users/:id/topups',
    { schema: { tags: ['payments'], params, querystring: pageQuery, response: { 200: paged(topup) } } },
    async (req) => {
      const user = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'read', subject('TopUp', { user_id: user._id }));
      return topups.list(Number(user._id), req.query.page, req.query.limit);
    },
  );

  app.get(
    '/topups/:id',
    { schema: { tags: ['payments'], params, response: { 200: topup } } },
    async (req) => {
      return toTopup(await visibleTopup(req.params.id, req.ability));
    },
  );

  app.get(
    '/payments/providers',
    { schema: { tags: ['payments'], response: { 200: paymentProviders } } },
    async () => ({ providers: topups.providerNames }),
  );
};

/** Stripe's webhook: no login, the signature over the raw body is the proof. */
export const stripeWebhookRoutes = async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  // the raw bytes instead of the API's JSON parser, in this plugin's scope only
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 512 * 1024 },
    (_req, body, done) => done(null, body),
  );
  app.post('/payments/stripe/webhook', { schema: { hide: true } }, async (req) => {
    const sig = req.headers['stripe-signature'];
    const result = await ctx.topups.stripeWebhook(req.body as Buffer, Array.isArray(sig) ? sig[0] : sig);
    return { received: true, result };
  });
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The sandbox provider's payment page, outside /api because the browser is sent here. The link's token
 * stands in for the login (the browser carries no bearer token on a redirect).
 */
export const sandboxPageRoutes = async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  const { topups, config } = ctx;
  const query = z.object({ token: z.string().min(10).max(100) });

  app.get(
    '/payments/sandbox/:id',
    { schema: { hide: true, params, querystring: query } },
    async (req, reply) => {
      const { id: topupId } = req.params as { id: string };
      const { token } = req.query as { token: string };
      const row = await topups.find(Number(topupId));
      if (row?.provider !== 'sandbox' || row.token !== token) throw new AppError(404, 'not_found');
      const t = req.t;
      const amount = new Intl.NumberFormat(req.locale, { style: 'currency', currency: 'USD' }).format(
        Number(row.sum) / 1e6,
      );
      const form = (action: 'confirm' | 'fail', label: string, cls: string) =>
        `<form method="post" action="/payments/sandbox/${row.id}/${action}"><input type="hidden" name="token" value="${esc(token)}"><button class="${cls}" type="submit">${esc(label)}</button></form>`;
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      return `<!doctype html><html lang="${req.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(t('payments:sandbox_title'))}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f5fa;margin:0;display:grid;place-items:center;min-height:100vh;color:#2f2b3d}
main{background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.08);padding:32px;max-width:420px;width:calc(100% - 32px)}
h1{font-size:1.3rem;margin:0 0 8px}p{color:#6d6b77}.amount{font-size:2rem;font-weight:700;margin:16px 0;color:#2f2b3d}
.row{display:flex;gap:12px;flex-wrap:wrap}button{border:0;border-radius:8px;padding:12px 20px;font-size:1rem;cursor:pointer}
.ok{background:#28c76f;color:#fff}.bad{background:#ea5455;color:#fff}</style></head>
<body><main><h1>${esc(t('payments:sandbox_title'))}</h1><p>${esc(t('payments:sandbox_note'))}</p>
<div class="amount">${esc(amount)}</div>${
        row.status === 'pending'
          ? `<div class="row">${form('confirm', t('payments:sandbox_confirm'), 'ok')}${form('fail', t('payments:sandbox_fail'), 'bad')}</div>`
          : `<p>${esc(t(`payments:status_${row.status}`))}</p>`
      }</main></body></html>`;
    },
  );

  for (const action of ['confirm', 'fail'] as const) {
    app.post(
      `/payments/sandbox/:id/${action}`,
      { schema: { hide: true, params, body: z.object({ token: z.string().max(100) }) } },
      async (req, reply) => {
        const { id: topupId } = req.params as { id: string };
        const { token } = req.body as { token: string };
        const outcome = await topups.sandboxDecide(Number(topupId), token, action === 'confirm');
        if (outcome === 'unknown') throw new AppError(404, 'not_found');
        const page = outcome === 'paid' ? 'payment-success' : 'payment-failed';
        return reply.redirect(`${config.publicUrl}/${page}?topup=${topupId}`, 303);
      },
    );
  }
};
