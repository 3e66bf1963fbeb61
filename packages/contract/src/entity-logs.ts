import { z } from 'zod';
import { id, paged, pageQuery } from './common.ts';

/**
 * The generic audit log of an entity (`GET /api/<resource>/<id>/logs`): who created, changed or deleted
 * it, when, and each changed field's value before and after, as the API shows them.
 * @example { _id: '3', entity_type: 'partner', entity_id: '7', action: 'update', user_id: '1',
 *   user_name: 'Admin', changes: [{ field: 'agency_rate', before: 10, after: 12.5 }], created_at: '…' }
 */
export const entityLogAction = z.enum(['create', 'update', 'delete']);
export type EntityLogAction = z.infer<typeof entityLogAction>;

/** One changed field; values are whatever JSON the API shows for that field (null when absent). */
export const entityLogChange = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type EntityLogChange = z.infer<typeof entityLogChange>;

export const entityLog = z.object({
  _id: id,
  entity_type: z.string(),
  entity_id: id,
  action: entityLogAction,
  user_id: id.nullable(),
  user_name: z.string().nullable(),
  changes: z.array(entityLogChange),
  created_at: z.string(),
});
export type EntityLog = z.infer<typeof entityLog>;

/** Newest first, paged like every list. */
export const entityLogsQuery = pageQuery;
export type EntityLogsQuery = z.infer<typeof entityLogsQuery>;
export const entityLogs = paged(entityLog);
export type EntityLogs = z.infer<typeof entityLogs>;
