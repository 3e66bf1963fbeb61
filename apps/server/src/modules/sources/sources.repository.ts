import type { BlockedSource } from '@adp/contract';
import { and, count, desc, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { blockedSources, sites, widgets } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';
import { notify } from '../notifications/notices.ts';

export type BlockedSourceRow = typeof blockedSources.$inferSelect;

const idOrNull = (v: number | null) => (v === null ? null : String(v));

/** Blocked traffic sources (SPEC.md section 4); delivery reads them in `loadIndex`. */
export function createSourcesRepository(db: Db) {
  const joined = () =>
    db
      .select({ b: blockedSources, siteDomain: sites.domain, widgetTitle: widgets.title })
      .from(blockedSources)
      .leftJoin(widgets, eq(widgets.id, blockedSources.widgetId))
      .leftJoin(sites, sql`${sites.id} = coalesce(${blockedSources.siteId}, ${widgets.siteId})`);
  const toBlockedSource = (
    r: { b: BlockedSourceRow; siteDomain: string | null; widgetTitle: string | null },
    now = new Date(),
  ): BlockedSource => ({
    _id: String(r.b.id),
    campaign_id: idOrNull(r.b.campaignId),
    site_id: idOrNull(r.b.siteId),
    widget_id: idOrNull(r.b.widgetId),
    site_domain: r.siteDomain ?? '',
    widget_title: r.b.widgetId === null ? null : (r.widgetTitle ?? ''),
    reason: r.b.reason,
    until: r.b.until ? r.b.until.toISOString() : null,
    active: r.b.until === null || r.b.until.getTime() > now.getTime(),
    created_by: idOrNull(r.b.createdBy),
    created_at: r.b.createdAt.toISOString(),
    updated_at: r.b.updatedAt.toISOString(),
  });
  return {
    async row(id: number): Promise<BlockedSourceRow | undefined> {
      const [row] = await db.select().from(blockedSources).where(eq(blockedSources.id, id));
      return row;
    },
    async find(id: number): Promise<BlockedSource | undefined> {
      const [row] = await joined().where(eq(blockedSources.id, id));
      return row && toBlockedSource(row);
    },
    /** One campaign's blocks, or (`campaignId` null) the blocks of every campaign; `undefined` = all blocks. */
    async list(q: { page: number; limit: number; campaignId?: number | null | undefined }) {
      const conds: SQL[] = [];
      if (q.campaignId === null) conds.push(isNull(blockedSources.campaignId));
      else if (q.campaignId !== undefined) conds.push(eq(blockedSources.campaignId, q.campaignId));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(blockedSources).where(where),
        (w) => joined().where(where).orderBy(desc(blockedSources.id)).limit(w.limit).offset(w.offset),
        (r) => toBlockedSource(r),
      );
    },
    /**
     * Whether the site exists and (`approvedOnly`) an admin approved it: an advertiser blocks public
     * inventory only, so the answer's domain tells nothing of sites that never served.
     */
    async siteExists(id: number, approvedOnly = false) {
      const [row] = await db
        .select({ id: sites.id })
        .from(sites)
        .where(and(eq(sites.id, id), approvedOnly ? eq(sites.moderation, 'approved') : undefined));
      return Boolean(row);
    },
    /** Whether the widget exists and (`approvedOnly`) it and its site are approved. */
    async widgetExists(id: number, approvedOnly = false) {
      const [row] = await db
        .select({ id: widgets.id })
        .from(widgets)
        .innerJoin(sites, eq(sites.id, widgets.siteId))
        .where(
          and(
            eq(widgets.id, id),
            approvedOnly
              ? and(eq(widgets.moderation, 'approved'), eq(sites.moderation, 'approved'))
              : undefined,
          ),
        );
      return Boolean(row);
    },
    /**
     * Blocks the source for the campaign (null: every campaign), or renews the block that holds now (its
     * reason and end replaced): one transaction that takes an advisory lock on the campaign and source
     * first, so two requests at once cannot both find no block and insert two. A new block notifies the
     * publisher in the same transaction: which of its sites or widgets, by one advertiser's campaign or by
     * the platform (never which advertiser or campaign, nor the advertiser's reason; the platform's reason
     * is told). Nobody is told of blocking their own inventory.
     */
    async blockOrRenew(values: typeof blockedSources.$inferInsert & { campaignId: number | null }) {
      const { campaignId } = values;
      const siteId = values.siteId ?? null;
      const widgetId = values.widgetId ?? null;
      return db.transaction(async (tx) => {
        const key = `blocked_source:${campaignId ?? ''}:${siteId ?? ''}:${widgetId ?? ''}`;
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
        const [held] = await tx
          .select({ id: blockedSources.id })
          .from(blockedSources)
          .where(
            and(
              campaignId === null
                ? isNull(blockedSources.campaignId)
                : eq(blockedSources.campaignId, campaignId),
              siteId === null ? isNull(blockedSources.siteId) : eq(blockedSources.siteId, siteId),
              widgetId === null ? isNull(blockedSources.widgetId) : eq(blockedSources.widgetId, widgetId),
              or(isNull(blockedSources.until), gt(blockedSources.until, sql`now()`)),
            ),
          )
          .limit(1);
        if (held) {
          await tx
            .update(blockedSources)
            .set({ reason: values.reason, until: values.until, updatedAt: new Date() })
            .where(eq(blockedSources.id, held.id));
          return { id: held.id, created: false };
        }
        const [row] = await tx.insert(blockedSources).values(values).returning({ id: blockedSources.id });
        const [source] = widgetId
          ? await tx
              .select({ siteId: sites.id, site: sites.domain, userId: sites.userId, widget: widgets.title })
              .from(widgets)
              .innerJoin(sites, eq(sites.id, widgets.siteId))
              .where(eq(widgets.id, widgetId))
          : await tx
              .select({ siteId: sites.id, site: sites.domain, userId: sites.userId, widget: sql<null>`null` })
              .from(sites)
              .where(eq(sites.id, siteId ?? 0));
        if (source && source.userId !== values.createdBy) {
          const byPlatform = campaignId === null;
          await notify(tx, {
            type: 'source_blocked',
            userId: source.userId,
            payload: {
              by: byPlatform ? 'platform' : 'advertiser',
              site_id: String(source.siteId),
              site: source.site,
              widget_id: widgetId ? String(widgetId) : null,
              widget: source.widget,
              reason: byPlatform && values.reason ? values.reason : null,
              until: values.until ? values.until.toISOString() : null,
            },
          });
        }
        return { id: row!.id, created: true };
      });
    },
    async update(id: number, values: Partial<typeof blockedSources.$inferInsert>) {
      await db
        .update(blockedSources)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(blockedSources.id, id));
    },
    async remove(id: number) {
      await db.delete(blockedSources).where(eq(blockedSources.id, id));
    },
  };
}
export type SourcesRepository = ReturnType<typeof createSourcesRepository>;
