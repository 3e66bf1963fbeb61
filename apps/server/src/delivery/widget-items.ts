import type { WidgetItem } from '@adp/contract';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { materials } from '../db/schema/index.ts';

const TTL_MS = 60_000;
/** The newest materials of a site kept in memory; deeper pages of an infinite widget read the database. */
const CACHED = 100;

/**
 * A site's own materials (parsed articles: recommendations, not sponsored) as widget items. The newest
 * are kept in memory for a minute, so a busy widget costs one database read a minute, not one per view.
 */
export function createWidgetItems(db: Db, publicUrl: string) {
  const cache = new Map<number, { at: number; items: Promise<WidgetItem[]> }>();

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
    /** Up to `limit` of the site's materials from `offset`, newest first. */
    async materials(siteId: number, limit: number, offset: number): Promise<WidgetItem[]> {
      if (limit <= 0) return [];
      if (offset + limit > CACHED) return forSite(siteId, limit, offset);
      let hit = cache.get(siteId);
      if (!hit || Date.now() - hit.at >= TTL_MS) {
        if (cache.size > 10_000) cache.clear();
        hit = { at: Date.now(), items: forSite(siteId, CACHED, 0) };
        // a failed read is not kept: the next request tries again
        hit.items.catch(() => cache.delete(siteId));
        cache.set(siteId, hit);
      }
      return (await hit.items).slice(offset, offset + limit);
    },
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
    /** The site's materials changed (parsed, cleared): the next request reads them again. */
    forgetSite(siteId: number) {
      cache.delete(siteId);
    },
  };
}
export type WidgetItems = ReturnType<typeof createWidgetItems>;
