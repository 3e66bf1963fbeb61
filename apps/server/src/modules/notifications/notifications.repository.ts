import {
  exchangeNotificationTypes,
  fromMicros,
  type Notification,
  type NotificationsExchange,
} from '@adp/contract';
import { and, count, desc, eq, inArray, isNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { pageOf } from '../../lib/paging.ts';
import { checkLowAccountBalances, checkLowBalances } from './notices.ts';

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
    /**
     * A page, newest first, of what `viewer` may see: their own notifications, and for an admin also the
     * exchange's notices of every campaign. `unread` keeps the unread ones; `exchange` leaves the exchange's
     * notices out (`exclude`) or keeps only them (`only`).
     */
    async list(q: {
      page: number;
      limit: number;
      type?: string | undefined;
      unread?: boolean | undefined;
      exchange?: NotificationsExchange | undefined;
      viewer: { id: number; admin: boolean };
    }) {
      const own = eq(notifications.userId, q.viewer.id);
      const exchangeTypes = [...exchangeNotificationTypes];
      const filters: SQL[] = [
        q.viewer.admin ? (or(own, inArray(notifications.type, exchangeTypes)) as SQL) : own,
      ];
      if (q.type) filters.push(eq(notifications.type, q.type));
      if (q.unread) filters.push(isNull(notifications.readAt));
      if (q.exchange === 'exclude') filters.push(notInArray(notifications.type, exchangeTypes));
      if (q.exchange === 'only') filters.push(inArray(notifications.type, exchangeTypes));
      const where = and(...filters);
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
    /** The bell's count: the user's own unread notifications, the exchange's per-bid notices left out. */
    async unreadCount(userId: number) {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, userId),
            isNull(notifications.readAt),
            notInArray(notifications.type, [...exchangeNotificationTypes]),
          ),
        );
      return Number(row?.n ?? 0);
    },
    /** Marks one of `userId`'s own notifications read or unread; undefined when it is not theirs. */
    async setRead(id: number, userId: number, read: boolean) {
      const [row] = await db
        .update(notifications)
        .set({ readAt: read ? sql`coalesce(${notifications.readAt}, now())` : null })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .returning();
      return row && toNotification(row);
    },
    /**
     * Deletes up to `limit` of the exchange's per-impression notices (nurl, burl) created before `before`,
     * oldest first (the retention job, with the raw events): how many.
     */
    async deleteExchangeNoticesBefore(before: Date, limit: number): Promise<number> {
      const result = await db.execute(sql`
        with gone as (
          delete from notifications where ctid = any(array(
            select ctid from notifications
            where created_at < ${before.toISOString()}::timestamptz
              and type in (${sql.join(
                exchangeNotificationTypes.map((type) => sql`${type}`),
                sql`, `,
              )})
            order by created_at limit ${limit}))
          returning 1)
        select count(*)::int as n from gone`);
      // both drivers answer {rows}; the shared Db type cannot say so
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    },
    /** The low-balance job (notices.ts): told once per fall below the threshold. */
    checkLowBalances: (threshold?: bigint) => checkLowBalances(db, threshold),
    checkLowAccountBalances: (threshold: bigint) => checkLowAccountBalances(db, threshold),
    /**
     * The low-balance job's run: both checks at the thresholds as the admin set them now (micro-units; 0
     * skips a check). Its result is the job's on the system page.
     */
    async checkAllLowBalances(low: { campaign: bigint; account: bigint }) {
      const campaigns = low.campaign > 0n ? await checkLowBalances(db, low.campaign) : null;
      const accounts = low.account > 0n ? await checkLowAccountBalances(db, low.account) : null;
      return { campaigns, accounts };
    },
    /** Marks every unread notification of `userId` read: how many. */
    async markAllRead(userId: number) {
      const rows = await db
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning({ id: notifications.id });
      return rows.length;
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
