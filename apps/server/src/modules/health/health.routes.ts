import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        security: [],
        response: { 200: z.object({ status: z.literal('ok'), db: z.enum(['pglite', 'postgres']) }) },
      },
    },
    async () => ({ status: 'ok' as const, db: await ctx.health.ping() }),
  );
};
