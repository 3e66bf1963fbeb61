import type { EntityLog, EntityLogAction, EntityLogsQuery } from '@adp/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { entityLogs, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { type Page, pageOf } from '../../lib/paging.ts';

type Values = Record<string, unknown>;
type Changes = Record<string, { before: unknown; after: unknown }>;

/** Fields that every entity carries and that are never a change of their own. */
const IGNORED = new Set(['_id', 'created_at', 'updated_at']);

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields that differ between two API views of an entity (`null` for a create's before or a
 * delete's after). Only `fields` are looked at when given; `undefined` values are "not sent".
 * @example entityLogChanges({ rate: 1, name: 'a' }, { rate: 2, name: 'a' }) // { rate: { before: 1, after: 2 } }
 */
export function entityLogChanges(
  before: Values | null,
  after: Values | null,
  fields?: readonly string[],
): Changes {
  const keys = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const out: Changes = {};
  for (const key of keys) {
    if (IGNORED.has(key)) continue;
    const b = before ? before[key] : undefined;
    const a = after ? after[key] : undefined;
    if (before && after && a === undefined) continue;
    if (before && after && same(b, a)) continue;
    // a create lists what was set, a delete what was there: empty values are no change
    if (!before && (a === undefined || a === null)) continue;
    if (!after && (b === undefined || b === null)) continue;
    out[key] = { before: b ?? null, after: a ?? null };
  }
  return out;
}

export interface EntityLogEntry {
  /** The resource's singular API name (partner, dsppartner, prebidpartner, …). */
  entityType: string;
  entityId: number | string;
  /** The acting user (req.user id); null for the platform itself. */
  userId: number | string | null;
  action: EntityLogAction;
  /** The entity as the API shows it before the change; null for a create. */
  before: Values | null;
  /** The entity as the API shows it after the change; null for a delete. */
  after: Values | null;
  /** Only these fields are logged (e.g. leave out secrets); all of them when absent. */
  fields?: readonly string[];
}

/**
 * Records one change of an entity. Call it with the transaction (`tx`) that makes the change, so the
 * log row exists exactly when the change does. An update that changes nothing writes no row.
 * @example await db.transaction(async (tx) => {
 *   const [row] = await tx.update(partners).set(values).where(eq(partners.id, id)).returning();
 *   await recordEntityLog(tx, { entityType: 'partner', entityId: id, userId: actorId, action: 'update',
 *     before: toPartner(old), after: toPartner(row) });
 * });
 */
export async function recordEntityLog(tx: DbOrTx, entry: EntityLogEntry): Promise<void> {
  const changes = entityLogChanges(entry.before, entry.after, entry.fields);
  if (entry.action === 'update' && Object.keys(changes).length === 0) return;
  await tx.insert(entityLogs).values({
    entityType: entry.entityType,
    entityId: Number(entry.entityId),
    userId: entry.userId === null ? null : Number(entry.userId),
    action: entry.action,
    // an array keeps the fields in order (a jsonb object would sort its keys)
    changes: Object.entries(changes).map(([field, c]) => ({ field, ...c })),
  });
}

/**
 * The log of one entity, newest first. `hidden` names fields never shown (credentials that older entries
 * may still hold).
 */
export function listEntityLogs(
  db: Db,
  entityType: string,
  entityId: number,
  q: EntityLogsQuery,
  hidden: readonly string[] = [],
): Promise<Page<EntityLog>> {
  const where = and(eq(entityLogs.entityType, entityType), eq(entityLogs.entityId, entityId));
  return pageOf(
    q,
    db.select({ n: count() }).from(entityLogs).where(where),
    ({ limit, offset }) =>
      db
        .select({ log: entityLogs, userName: users.name })
        .from(entityLogs)
        .leftJoin(users, eq(users.id, entityLogs.userId))
        .where(where)
        .orderBy(desc(entityLogs.createdAt), desc(entityLogs.id))
        .limit(limit)
        .offset(offset),
    ({ log, userName }): EntityLog => ({
      _id: String(log.id),
      entity_type: log.entityType,
      entity_id: String(log.entityId),
      action: log.action as EntityLogAction,
      user_id: log.userId === null ? null : String(log.userId),
      user_name: userName,
      changes: ((log.changes ?? []) as EntityLog['changes'])
        .filter((c) => !hidden.includes(c.field))
        .map((c) => ({ field: c.field, before: c.before ?? null, after: c.after ?? null })),
      created_at: log.createdAt.toISOString(),
    }),
  );
}
