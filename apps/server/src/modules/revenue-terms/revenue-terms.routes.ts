import { revenueTermsLog, revenueTermsLogQuery } from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

export const revenueTermsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const terms = ctx.revenueTerms;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/revenue-terms-log',
    {
      schema: {
        tags: ['revenue terms'],
        querystring: revenueTermsLogQuery,
        response: { 200: revenueTermsLog },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'RevenueTerms');
      return terms.repo.list(req.query);
    },
  );
};
