import type { WidgetItem, WidgetSettings } from '@adp/contract';
import { widgetSettings } from '@adp/contract';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { materials, sites, widgets } from '../db/schema/index.ts';

export interface ServedWidget {
  widget: { _id: string; settings: WidgetSettings };
  items: WidgetItem[];
}

const TTL_MS = 60_000;

/**
 * What a widget shows. Until the ad index of the delivery issue exists, a widget shows its site's own
 * materials (recommendations, not sponsored). Answers are kept in memory for a minute so a busy widget
 * costs one database read a minute, not one per page view.
 */
export function createWidgetItems(db: Db, publicUrl: string) {
  const cache = new Map<number, { at: number; value: ServedWidget | null; siteId: number | null }>();

  async function forSite(siteId: number, limit: number, offset: number): Promise<WidgetItem[]> {
    const rows = await db
      .select()
      .from(materials)
      .where(and(eq(materials.siteId, siteId), gt(materials.expiresAt, new Date())))
      .orderBy(desc(materials.publishedAt), desc(materials.id))
      .limit(limit)
      .offset(offset);
    return rows.map((m) => ({
      id: `m${m.id}`,
      title: m.title,
      text: m.description,
      image: m.image,
      url: m.url,
      sponsored: false,
    }));
  }

  return {
    forSite,
    /** Placeholder items for previews of a site with no materials yet. */
    samples(n: number): WidgetItem[] {
      return Array.from({ length: n }, (_, i) => ({
        id: `sample-${i + 1}`,
        title: `Sample headline number ${i + 1} for your widget preview`,
        text: 'A short description of the article or ad appears here, truncated by the widget settings.',
        image: `${publicUrl}/serve/sample/${(i % 8) + 1}.svg`,
        url: `${publicUrl}/`,
        brand: 'AdPlatform',
        sponsored: i % 3 === 0,
      }));
    },
    forget(widgetId: number) {
      cache.delete(widgetId);
    },
    /** The saved widget with its first items, or null when it does not serve (inactive, unmoderated…). */
    async serve(widgetId: number): Promise<ServedWidget | null> {
      const hit = cache.get(widgetId);
      if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
      const [row] = await db
        .select({ w: widgets, siteStatus: sites.status })
        .from(widgets)
        .innerJoin(sites, eq(sites.id, widgets.siteId))
        .where(eq(widgets.id, widgetId));
      let value: ServedWidget | null = null;
      let siteId: number | null = null;
      if (
        row &&
        row.w.status === 'active' &&
        row.w.moderation === 'approved' &&
        row.siteStatus === 'active'
      ) {
        siteId = row.w.siteId;
        const settings = widgetSettings.parse(row.w.settings);
        const first =
          settings.type === 'builder'
            ? settings.blocks.reduce((n, b) => n + b.items, 0)
            : settings.columns * settings.rows;
        value = {
          widget: { _id: String(row.w.id), settings },
          items: await forSite(row.w.siteId, Math.max(first, 1), 0),
        };
      }
      if (cache.size > 10_000) cache.clear();
      cache.set(widgetId, { at: Date.now(), value, siteId });
      return value;
    },
    async more(widgetId: number, offset: number, limit: number): Promise<WidgetItem[] | null> {
      // serve() fills the cache entry, so the site is known without reading the widget again
      if (!(await this.serve(widgetId))) return null;
      const siteId = cache.get(widgetId)?.siteId;
      return siteId ? forSite(siteId, limit, offset) : null;
    },
  };
}
export type WidgetItems = ReturnType<typeof createWidgetItems>;
