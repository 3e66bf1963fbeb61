import { type EntityLogsQuery, entityLogs, entityLogsQuery, id } from '@adp/contract';
import { assertCan, type Subject } from '@adp/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { listEntityLogs } from './entity-logs.repository.ts';

export interface EntityLogsRouteOptions {
  /** The database the log is read from (with `entityType`), or `list` instead. */
  db?: Parameters<typeof listEntityLogs>[0];
  /** Reads one entity's log page (e.g. a repository's `logs`), instead of `db`. */
  list?: (entityId: number, q: EntityLogsQuery) => ReturnType<typeof listEntityLogs>;
  /** The plural path segment: `partners` gives `GET /partners/:id/logs` (under the tree's prefix). */
  resource: string;
  /** The `entityType` the module records with `recordEntityLog` (partner, dsppartner, …). */
  entityType: string;
  /** Who may read the log: `read` on this subject (Partner, DspPartner, … are admin-only). */
  subject: Subject;
  /**
   * Whether the entity exists (for this caller). A log of an unknown id is a 404, like the entity;
   * the log of a deleted entity stays readable only when this says so (e.g. a soft-deleted row).
   */
  exists: (id: number) => Promise<boolean>;
  tags?: string[];
}

/**
 * Registers `GET /<resource>/:id/logs` → `{items: [{_id, action, user_id, user_name, changes:
 * [{field, before, after}], created_at}], total, page, limit}`, newest first, paged (`page`, `limit`).
 * Call it inside a module's routes plugin, after its `authenticate` hook.
 * @example registerEntityLogsRoute(app, { list: repo.logs, resource: 'partners', entityType: 'partner',
 *   subject: 'Partner', exists: async (id) => Boolean(await repo.findById(id)) })
 */
export function registerEntityLogsRoute(app: FastifyInstance, opts: EntityLogsRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `/${opts.resource}/:id/logs`,
    {
      schema: {
        tags: opts.tags ?? [opts.resource],
        params: z.object({ id }),
        querystring: entityLogsQuery,
        response: { 200: entityLogs },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', opts.subject);
      const entityId = Number(req.params.id);
      if (!(await opts.exists(entityId))) throw new AppError(404, 'not_found');
      if (opts.list) return opts.list(entityId, req.query);
      if (!opts.db) throw new Error('registerEntityLogsRoute needs db or list');
      return listEntityLogs(opts.db, opts.entityType, entityId, req.query);
    },
  );
}
