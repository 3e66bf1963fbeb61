import { platformSettings, platformSettingsUpdate } from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';

export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);

  // every client needs min_payout for its withdrawal form (and may read the low-balance thresholds it is told by)
  app.get('/settings', { schema: { tags: ['system'], response: { 200: platformSettings } } }, async () =>
    ctx.settings.get(),
  );

  app.put(
    '/settings',
    {
      schema: {
        tags: ['system'],
        body: z.strictObject({ settings: platformSettingsUpdate }),
        response: { 200: platformSettings },
      },
    },
    async (req) => {
      assertCan(req.ability, 'update', 'System');
      return ctx.settings.update(req.body.settings);
    },
  );
};
