import { fromMicros, type Notification } from '@adp/contract';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { pageOf } from '../../lib/paging.ts';

type NotificationRow = typeof notifications.$inferSelect;
export type NotificationInsert = typeof notifications.$inferInsert;

export function toNotification(row: NotificationRow): Notification {
  return {
    _id: String(row.id),
    type: row.type,
    user_id: row.userId === null ? null : String(row.userId),
    campaign_id: row.campaignId === null ? null : String(row.campaignId),
    payload: row.payload,
    price: row.price === null ? null : fromMicros(row.price),
    read_at: row.readAt ? row.readAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Notifications: written by whoever notices something (in its own transaction), listed newest first. */
export function createNotificationsRepository(db: Db) {
  return {
    async insert(tx: DbOrTx, values: NotificationInsert) {
      await tx.insert(notifications).values(values);
    },
    /** A page, newest first; `userId` limits it to one user's notifications (non-admins). */
    async list(q: { page: number; limit: number; type?: string | undefined; userId?: number }) {
      const filters: SQL[] = [];
      if (q.type) filters.push(eq(notifications.type, q.type));
      if (q.userId !== undefined) filters.push(eq(notifications.userId, q.userId));
      const where = filters.length ? and(...filters) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(notifications).where(where),
        (w) =>
          db
            .select()
            .from(notifications)
            .where(where)
            .orderBy(desc(notifications.id))
            .limit(w.limit)
            .offset(w.offset),
        toNotification,
      );
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
