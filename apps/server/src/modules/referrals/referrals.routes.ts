import { id, referralSummary } from '@adp/contract';
import { assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { visibleUser } from '../users/users.access.ts';

export const referralsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/users/:id/referrals',
    { schema: { tags: ['users'], params: z.object({ id }), response: { 200: referralSummary } } },
    async (req) => {
      const user = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'read', subject('Referral', { user_id: user._id }));
      return ctx.referrals.summary(Number(user._id));
    },
  );
};
