import { notificationQuery, notificationsPage } from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/**
 * GET /api/notifications: admins (and readonly admins) see every notification, other users only their
 * own; `type` filters (nurl, burl, …).
 */
export const notificationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/notifications',
    {
      schema: {
        tags: ['notifications'],
        querystring: notificationQuery,
        response: { 200: notificationsPage },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Notification');
      const all = req.ability.can('manage', 'ACL');
      return ctx.notifications.list({ ...req.query, ...(all ? {} : { userId: Number(req.user?.id) }) });
    },
  );
};
