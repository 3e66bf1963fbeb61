import {
  id,
  paged,
  pageQuery,
  withdrawal,
  withdrawalApprove,
  withdrawalInput,
  withdrawalReject,
  withdrawalStatus,
  withOwnerName,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { readScope } from '../../lib/scope.ts';
import { visibleBy } from '../../lib/visible.ts';
import { visibleUser } from '../users/users.access.ts';

const params = z.object({ id });

export const withdrawalsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { withdrawals } = ctx;
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/users/:id/withdrawals',
    {
      schema: {
        tags: ['payments'],
        params,
        body: z.strictObject({ withdrawal: withdrawalInput }),
        response: { 201: withdrawal },
      },
    },
    async (req, reply) => {
      const user = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'create', subject('Withdrawal', { user_id: user._id }));
      // a payout is asked for by the account's owner only, to the details the owner gives: an admin
      // cannot send anyone's balance to details of the admin's choosing (and then approve that himself)
      if (user._id !== String(req.user!.id)) throw new AppError(403, 'not_own_withdrawal');
      reply.code(201);
      return withdrawals.request(Number(user._id), req.body.withdrawal);
    },
  );

  app.get(
    '/users/:id/withdrawals',
    { schema: { tags: ['payments'], params, querystring: pageQuery, response: { 200: paged(withdrawal) } } },
    async (req) => {
      const user = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'read', subject('Withdrawal', { user_id: user._id }));
      return withdrawals.list({ ...req.query, userIds: [Number(user._id)] });
    },
  );

  app.get(
    '/withdrawals',
    {
      schema: {
        tags: ['payments'],
        querystring: pageQuery.extend({ status: withdrawalStatus.optional() }),
        response: { 200: paged(withOwnerName(withdrawal)) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Withdrawal');
      const scope = readScope(req.ability, 'Withdrawal', 'user_id');
      const page = await withdrawals.list({
        ...req.query,
        userIds: scope === 'all' ? undefined : scope.map(Number),
      });
      return ctx.ownerNames.withOwnerNames(page);
    },
  );

  const visible = visibleBy('Withdrawal', withdrawals.find, (w) => w.user_id);
  const decided = async (withdrawalId: string, ability: AppAbility, actorId: number) => {
    const found = await visible(withdrawalId, ability);
    assertCan(ability, 'update', subject('Withdrawal', found));
    // four eyes on money leaving the platform: an admin's own payout is another admin's decision
    if (found.user_id === String(actorId)) throw new AppError(403, 'own_withdrawal');
    return found;
  };

  app.post(
    '/withdrawals/:id/approve',
    { schema: { tags: ['payments'], params, body: withdrawalApprove, response: { 200: withdrawal } } },
    async (req) => {
      await decided(req.params.id, req.ability, req.user!.id);
      return withdrawals.approve(Number(req.params.id), req.user!.id, req.body.reference);
    },
  );

  app.post(
    '/withdrawals/:id/reject',
    { schema: { tags: ['payments'], params, body: withdrawalReject, response: { 200: withdrawal } } },
    async (req) => {
      await decided(req.params.id, req.ability, req.user!.id);
      return withdrawals.reject(Number(req.params.id), req.user!.id, req.body.reason);
    },
  );
};
