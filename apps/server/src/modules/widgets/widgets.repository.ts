import { fromMicros, toMicros, type Widget, type WidgetInput, widgetSettings } from '@adp/contract';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { widgets } from '../../db/schema/index.ts';
import { changesDecision, type ModerationColumns } from '../../lib/moderation.ts';
import { pageOf } from '../../lib/paging.ts';
import { moderationNotice, notify } from '../notifications/notices.ts';

type WidgetRow = typeof widgets.$inferSelect;

export function toWidget(row: WidgetRow): Widget {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    site_id: String(row.siteId),
    title: row.title,
    status: row.status as Widget['status'],
    processor: row.processor as Widget['processor'],
    // settings saved by an older version get today's defaults for fields added since
    settings: widgetSettings.parse(row.settings),
    earn_processor: row.earnProcessor as Widget['earn_processor'],
    earn_value: fromMicros(row.earnValue),
    criteo_type: row.criteoType as Widget['criteo_type'],
    marketplace_url: row.marketplaceUrl,
    moderation: row.moderation as Widget['moderation'],
    moderation_reason: row.moderationReason,
    created_at: row.createdAt.toISOString(),
  };
}

function columns(input: Partial<Omit<WidgetInput, 'site_id'>>) {
  const c: Partial<typeof widgets.$inferInsert> = {};
  if (input.title !== undefined) c.title = input.title;
  if (input.status !== undefined) c.status = input.status;
  if (input.processor !== undefined) c.processor = input.processor;
  if (input.settings !== undefined) c.settings = input.settings as Record<string, unknown>;
  if (input.earn_processor !== undefined) c.earnProcessor = input.earn_processor;
  if (input.earn_value !== undefined) c.earnValue = toMicros(input.earn_value);
  if (input.criteo_type !== undefined) c.criteoType = input.criteo_type;
  if (input.marketplace_url !== undefined) c.marketplaceUrl = input.marketplace_url;
  return c;
}

export function createWidgetsRepository(db: Db) {
  return {
    async row(id: number) {
      const [row] = await db.select().from(widgets).where(eq(widgets.id, id));
      return row;
    },
    async list(q: {
      page: number;
      limit: number;
      siteId?: number | undefined;
      userIds?: number[] | undefined;
      moderation?: string | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.siteId !== undefined) conds.push(eq(widgets.siteId, q.siteId));
      if (q.userIds) conds.push(inArray(widgets.userId, q.userIds));
      if (q.moderation) conds.push(eq(widgets.moderation, q.moderation));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(widgets).where(where),
        (w) =>
          db.select().from(widgets).where(where).orderBy(desc(widgets.id)).limit(w.limit).offset(w.offset),
        toWidget,
      );
    },
    async insert(siteId: number, userId: number, input: WidgetInput, moderation: string) {
      const [row] = await db
        .insert(widgets)
        .values({ siteId, userId, title: input.title, ...columns(input), moderation })
        .returning();
      return toWidget(row!);
    },
    async update(
      id: number,
      input: Partial<Omit<WidgetInput, 'site_id'>>,
      extra: Partial<typeof widgets.$inferInsert> = {},
    ) {
      const [row] = await db
        .update(widgets)
        .set({ ...columns(input), ...extra, updatedAt: new Date() })
        .where(eq(widgets.id, id))
        .returning();
      return row && toWidget(row);
    },
    /** A moderator's decision and the owner's notification of it, in one transaction. */
    async decide(id: number, columns: ModerationColumns) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(widgets)
          .set({ ...columns, updatedAt: new Date() })
          .where(and(eq(widgets.id, id), changesDecision(widgets, columns)))
          .returning();
        if (!row) {
          // the same decision again: nothing changes, nobody is told twice
          const [same] = await tx.select().from(widgets).where(eq(widgets.id, id));
          return same && toWidget(same);
        }
        await notify(tx, moderationNotice('widget', { ...row, name: row.title }, columns));
        return toWidget(row);
      });
    },
    /** Which of these ids are widgets that are live: active and approved by a moderator. */
    async liveIds(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: widgets.id })
        .from(widgets)
        .where(
          and(inArray(widgets.id, ids), eq(widgets.status, 'active'), eq(widgets.moderation, 'approved')),
        );
      return new Set(rows.map((r) => r.id));
    },
    async remove(id: number) {
      await db.delete(widgets).where(eq(widgets.id, id));
    },
  };
}
export type WidgetsRepository = ReturnType<typeof createWidgetsRepository>;
