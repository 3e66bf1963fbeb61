import { maintenanceInput, maintenanceState, systemHealth } from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/**
 * How long a browser (or a proxy: the answer is the same for everyone) may keep the public maintenance
 * answer. Every anonymous page load asks; a switch turned on reaches visitors without a session within this
 * time (signed-in non-admins get the API's 503 at once). The under-maintenance page's re-check and the
 * admins' switch ask past the cache.
 */
export const MAINTENANCE_MAX_AGE_S = 30;

/**
 * GET /api/system (admins and read-only admins): the platform's health. GET /api/system/maintenance
 * (anyone, logged in or not: the dashboard asks before it shows a page) and PUT (admins) the maintenance
 * switch.
 */
export const systemRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/system/maintenance',
    { schema: { tags: ['system'], security: [], response: { 200: maintenanceState } } },
    async (_req, reply) => {
      reply.header('cache-control', `public, max-age=${MAINTENANCE_MAX_AGE_S}`);
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
