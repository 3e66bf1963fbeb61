import type { RevenueTermsChange, RevenueTermsEntity, RevenueTermsLogQuery } from '@adp/contract';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { revenueTermsChanges, users } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';

export interface RevenueTermsChangeValues {
  actorId: number;
  entityType: RevenueTermsEntity;
  entityId: number;
  field: string;
  before: unknown;
  after: unknown;
}

export function createRevenueTermsRepository(db: Db) {
  return {
    async insert(rows: RevenueTermsChangeValues[]) {
      if (rows.length) await db.insert(revenueTermsChanges).values(rows);
    },

    /** Newest first. */
    list(q: RevenueTermsLogQuery) {
      const filters: SQL[] = [];
      if (q.entity_type) filters.push(eq(revenueTermsChanges.entityType, q.entity_type));
      if (q.entity_id) filters.push(eq(revenueTermsChanges.entityId, Number(q.entity_id)));
      const where = filters.length ? and(...filters) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(revenueTermsChanges).where(where),
        ({ limit, offset }) =>
          db
            .select({ change: revenueTermsChanges, actorName: users.name })
            .from(revenueTermsChanges)
            .leftJoin(users, eq(users.id, revenueTermsChanges.actorId))
            .where(where)
            .orderBy(desc(revenueTermsChanges.id))
            .limit(limit)
            .offset(offset),
        ({ change, actorName }): RevenueTermsChange => ({
          _id: String(change.id),
          entity_type: change.entityType as RevenueTermsEntity,
          entity_id: String(change.entityId),
          field: change.field,
          before: (change.before ?? null) as RevenueTermsChange['before'],
          after: (change.after ?? null) as RevenueTermsChange['after'],
          actor_id: change.actorId === null ? null : String(change.actorId),
          actor_name: actorName,
          created_at: change.createdAt.toISOString(),
        }),
      );
    },
  };
}
export type RevenueTermsRepository = ReturnType<typeof createRevenueTermsRepository>;
