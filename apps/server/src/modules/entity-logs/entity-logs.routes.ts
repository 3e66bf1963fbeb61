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
   * Whether the entity exists (for this caller). A log of an unknown id is a 404, like the entity,
   * unless `deletedReadable`.
   */
  exists: (id: number) => Promise<boolean>;
  /**
   * A deleted entity's log stays readable (its last entry is the deletion: who and what). Only for
   * subjects whose readers see every entity of the kind (admins): `exists` cannot tell deleted from not
   * visible to the caller.
   */
  deletedReadable?: boolean;
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
      const exists = await opts.exists(entityId);
      if (!opts.list && !opts.db) throw new Error('registerEntityLogsRoute needs db or list');
      const page = opts.list
        ? await opts.list(entityId, req.query)
        : await listEntityLogs(opts.db!, opts.entityType, entityId, req.query);
      if (!exists && (!opts.deletedReadable || page.total === 0)) throw new AppError(404, 'not_found');
      return page;
    },
  );
}
