import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { banners, campaigns, sites, widgets } from '../../db/schema/index.ts';

/** The entities the statistics calls name by id (the rollups' id columns). */
export type StatsEntityKind = 'site' | 'widget' | 'campaign' | 'banner';

const tables = { site: sites, widget: widgets, campaign: campaigns, banner: banners } as const;

/**
 * What the statistics trees look up beside the rollups: which entities a set of users owns, their titles
 * and domains (so rows carry a display name) and the criteo campaigns. Entity tables stay in PostgreSQL even when the rollups move to another store.
 */
export function createStatsTreesRepository(db: Db) {
  return {
    /**
     * Ids of the entities of `kind` owned by these users (undefined: of everyone); `visibleOnly`: of sites
     * and widgets, only those whose site's statistics are not hidden (`stats_visible`).
     */
    async idsOwnedBy(
      kind: StatsEntityKind,
      userIds: readonly number[] | undefined,
      visibleOnly = false,
    ): Promise<number[]> {
      const t = tables[kind];
      if (userIds && userIds.length === 0) return [];
      const visible =
        !visibleOnly || (kind !== 'site' && kind !== 'widget')
          ? undefined
          : kind === 'site'
            ? eq(sites.statsVisible, true)
            : inArray(
                widgets.siteId,
                db.select({ id: sites.id }).from(sites).where(eq(sites.statsVisible, true)),
              );
      const rows = await db
        .select({ id: t.id })
        .from(t)
        .where(and(userIds ? inArray(t.userId, [...userIds]) : undefined, visible));
      return rows.map((r) => r.id);
    },

    /** Which of these sites have the advanced statistics (`advanced_stats`) turned on. */
    async advancedSites(ids: readonly number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: sites.id })
        .from(sites)
        .where(and(inArray(sites.id, [...ids]), eq(sites.advancedStats, true)));
      return rows.map((r) => r.id);
    },

    /** Which of these sites or widgets belong to a site whose statistics an admin hid (`stats_visible` off). */
    async hiddenOf(kind: 'site' | 'widget', ids: readonly number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows =
        kind === 'site'
          ? await db
              .select({ id: sites.id })
              .from(sites)
              .where(and(inArray(sites.id, [...ids]), eq(sites.statsVisible, false)))
          : await db
              .select({ id: widgets.id })
              .from(widgets)
              .innerJoin(sites, eq(sites.id, widgets.siteId))
              .where(and(inArray(widgets.id, [...ids]), eq(sites.statsVisible, false)));
      return rows.map((r) => r.id);
    },

    /** The owner of each of these entities (missing ids are left out). */
    async owners(kind: StatsEntityKind, ids: readonly number[]): Promise<Map<number, number>> {
      const t = tables[kind];
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: t.id, userId: t.userId })
        .from(t)
        .where(inArray(t.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.userId]));
    },

    /** Titles of these entities, by id (missing ids are left out). */
    async titles(kind: StatsEntityKind, ids: readonly number[]): Promise<Map<number, string>> {
      const t = tables[kind];
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: t.id, title: t.title })
        .from(t)
        .where(inArray(t.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.title]));
    },

    /** Domains of these sites, by id. */
    async domains(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: sites.id, domain: sites.domain })
        .from(sites)
        .where(inArray(sites.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.domain]));
    },

    /** Ids of the criteo campaigns (adstype `criteo`), of these owners only when given. */
    async criteoCampaignIds(userIds?: readonly number[]): Promise<number[]> {
      if (userIds && userIds.length === 0) return [];
      const rows = await db
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(
          and(eq(campaigns.adstype, 'criteo'), userIds ? inArray(campaigns.userId, [...userIds]) : undefined),
        );
      return rows.map((r) => r.id);
    },
  };
}
export type StatsTreesRepository = ReturnType<typeof createStatsTreesRepository>;
