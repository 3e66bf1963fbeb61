import {
  id,
  markedRead,
  notification,
  notificationQuery,
  notificationsPage,
  notificationUpdate,
  unreadCount,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';

const params = z.object({ id });

/**
 * Notifications (SPEC.md sections 7 and 8). Every role that may read notifications (all but dummy) sees
 * its own; admins (and readonly admins) also the exchange's `nurl` and `burl` of every campaign. Only the
 * owner marks a notification read (someone else's is 404, like an unknown id), and not a readonly role:
 * DESIGN.md's readonly roles never write, their own read marks included.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);
  const reader = (ability: AppAbility, userId: number | string | undefined) => {
    assertCan(ability, 'read', 'Notification');
    return Number(userId);
  };
  const marker = (ability: AppAbility, userId: number | string | undefined) => {
    assertCan(ability, 'update', subject('Notification', { user_id: String(userId) }));
    return Number(userId);
  };

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
      const userId = reader(req.ability, req.user?.id);
      const { unread, ...q } = req.query;
      return ctx.notifications.list({
        ...q,
        unread: unread === 'true',
        viewer: { id: userId, admin: req.ability.can('manage', 'ACL') },
      });
    },
  );

  app.get(
    '/notifications/unread-count',
    { schema: { tags: ['notifications'], response: { 200: unreadCount } } },
    async (req) => ({ count: await ctx.notifications.unreadCount(reader(req.ability, req.user?.id)) }),
  );

  app.post(
    '/notifications/read-all',
    { schema: { tags: ['notifications'], response: { 200: markedRead } } },
    async (req) => ({ marked: await ctx.notifications.markAllRead(marker(req.ability, req.user?.id)) }),
  );

  app.put(
    '/notifications/:id',
    {
      schema: {
        tags: ['notifications'],
        params,
        body: notificationUpdate,
        response: { 200: notification },
      },
    },
    async (req) => {
      const userId = marker(req.ability, req.user?.id);
      const row = await ctx.notifications.setRead(Number(req.params.id), userId, req.body.read);
      if (!row) throw new AppError(404, 'not_found');
      return row;
    },
  );
};
