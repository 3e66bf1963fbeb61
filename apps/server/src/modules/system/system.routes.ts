import { maintenanceInput, maintenanceState, systemHealth } from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/**
 * GET /api/system (admins and read-only admins): the platform's health. GET /api/system/maintenance
 * (anyone, logged in or not: the dashboard asks before it shows a page) and PUT (admins) the maintenance
 * switch.
 */
export const systemRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/system/maintenance',
    { schema: { tags: ['system'], response: { 200: maintenanceState } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return ctx.system.maintenance();
    },
  );

  app.get(
    '/system',
    { onRequest: app.authenticate, schema: { tags: ['system'], response: { 200: systemHealth } } },
    async (req, reply) => {
      assertCan(req.ability, 'read', 'System');
      reply.header('cache-control', 'no-store');
      return ctx.system.health();
    },
  );

  app.put(
    '/system/maintenance',
    {
      onRequest: app.authenticate,
      schema: { tags: ['system'], body: maintenanceInput, response: { 200: maintenanceState } },
    },
    async (req) => {
      assertCan(req.ability, 'update', 'System');
      const state = await ctx.system.setMaintenance(req.body.maintenance.enabled);
      req.log.info({ maintenance: state.enabled, by: req.user?.id }, 'maintenance switched');
      return state;
    },
  );
};
