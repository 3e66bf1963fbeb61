import { id, ledgerEntry, paged, pageQuery, paymentInput, toMicros } from '@adp/contract';
import { assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { toLedgerEntry } from '../ledger/ledger.service.ts';
import { visibleUser } from '../users/users.access.ts';

const params = z.object({ id });

/** A user's payments (money in and out of the platform) and its whole ledger ("transactions"). */
export const paymentsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { ledger } = ctx;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/users/:id/payments',
    { schema: { tags: ['payments'], params, querystring: pageQuery, response: { 200: paged(ledgerEntry) } } },
    async (req) => {
      const user = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'read', subject('Payment', { user_id: user._id }));
      return ledger.list({ userId: Number(user._id), ...req.query, paymentsOnly: true });
    },
  );

  app.post(
    '/users/:id/payments',
    {
      schema: {
        tags: ['payments'],
        params,
        body: z.strictObject({ payment: paymentInput }),
        response: { 201: ledgerEntry },
      },
    },
    async (req, reply) => {
      const user = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'create', subject('Payment', { user_id: user._id }));
      // four eyes, as for payouts: an admin's own balance is changed by another admin
      if (user._id === String(req.user!.id)) throw new AppError(403, 'own_payment');
      const p = req.body.payment;
      const row = await ledger.transfer({
        userId: Number(user._id),
        type: p.type,
        sum: toMicros(p.sum),
        source: p.source,
        actorId: req.user!.id,
      });
      reply.code(201);
      return toLedgerEntry(row);
    },
  );

  app.get(
    '/users/:id/transactions',
    { schema: { tags: ['payments'], params, querystring: pageQuery, response: { 200: paged(ledgerEntry) } } },
    async (req) => {
      const user = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'read', subject('Transaction', { user_id: user._id }));
      return ledger.list({ userId: Number(user._id), ...req.query });
    },
  );
};
