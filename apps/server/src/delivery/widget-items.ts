import type { WidgetItem } from '@adp/contract';
import { and, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { materials, promotionPages, promotions, sites } from '../db/schema/index.ts';

const TTL_MS = 60_000;
/** The newest materials of a site kept in memory; deeper pages of an infinite widget read the database. */
const CACHED = 100;
/** The newest materials of all serving sites kept for the exchange processors. */
const POOL = 5000;

/** A parsed article of a site, as the processors read it. */
export interface Material {
  id: number;
  siteId: number;
  url: string;
  title: string;
  text: string;
  image: string;
  language: string | null;
  category: string;
  /** ms since the epoch; null when the feed gave no date */
  publishedAt: number | null;
}

/** A material of the exchange pool: with its site's category and owner. */
export interface PoolMaterial extends Material {
  siteCategory: string;
  siteOwner: number;
}

/** The item of each material the caches hold: the same object every time, so what is made of it is kept. */
const itemOfMaterial = new WeakMap<Material, WidgetItem>();

/**
 * A material as a widget item. One item per material object: the caches hand out the same materials for a
 * minute, and the engine keeps each item's JSON (and its UTM-marked copy) per item object.
 */
export const materialItem = (m: Material): WidgetItem => {
  let item = itemOfMaterial.get(m);
  if (!item) {
    item = Object.freeze({
      id: `m${m.id}`,
      title: m.title,
      text: m.text,
      image: m.image,
      url: m.url,
      // every item names its brand (DESIGN.md's item shape); the site's own articles have none
      brand: '',
      sponsored: false,
    });
    itemOfMaterial.set(m, item);
  }
  return item;
};

/** A value read at most once a minute per key; a failed read is not kept, the next request tries again. */
function minuteCache<K, V>(load: (key: K) => Promise<V>) {
  const cache = new Map<K, { at: number; value: Promise<V> }>();
  return {
    get(key: K): Promise<V> {
      let hit = cache.get(key);
      if (!hit || Date.now() - hit.at >= TTL_MS) {
        if (cache.size > 10_000) cache.clear();
        hit = { at: Date.now(), value: load(key) };
        hit.value.catch(() => cache.delete(key));
        cache.set(key, hit);
      }
      return hit.value;
    },
    forget(key: K) {
      cache.delete(key);
    },
  };
}

const materialColumns = {
  id: materials.id,
  siteId: materials.siteId,
  url: materials.url,
  title: materials.title,
  text: materials.description,
  image: materials.image,
  language: materials.language,
  category: materials.category,
  publishedAt: materials.publishedAt,
};
const toMaterial = <T extends { publishedAt: Date | null }>(r: T) => ({
  ...r,
  publishedAt: r.publishedAt ? r.publishedAt.getTime() : null,
});

/**
 * A site's own materials (parsed articles: recommendations, not sponsored) as widget items, and what the
 * processors read besides: the materials of every serving site (the exchange processors) and a site's
 * active promotion pages. Everything is kept in memory for a minute, so a busy widget costs one database
 * read a minute, not one per view.
 */
export function createWidgetItems(db: Db, publicUrl: string) {
  async function rowsOfSite(siteId: number, limit: number, offset: number): Promise<Material[]> {
    const rows = await db
      .select(materialColumns)
      .from(materials)
      .where(and(eq(materials.siteId, siteId), gt(materials.expiresAt, new Date())))
      .orderBy(desc(materials.publishedAt), desc(materials.id))
      .limit(limit)
      .offset(offset);
    return rows.map(toMaterial);
  }
  async function forSite(siteId: number, limit: number, offset: number): Promise<WidgetItem[]> {
    return (await rowsOfSite(siteId, limit, offset)).map(materialItem);
  }

  const siteCache = minuteCache((siteId: number) => rowsOfSite(siteId, CACHED, 0));

  const poolCache = minuteCache(async (_: 'all'): Promise<PoolMaterial[]> => {
    const rows = await db
      .select({ ...materialColumns, siteCategory: sites.category, siteOwner: sites.userId })
      .from(materials)
      .innerJoin(sites, eq(sites.id, materials.siteId))
      .where(
        and(
          gt(materials.expiresAt, new Date()),
          eq(sites.status, 'active'),
          sql`${sites.moderation} <> 'rejected'`,
        ),
      )
      .orderBy(sql`${materials.publishedAt} desc nulls last`, desc(materials.id))
      .limit(POOL);
    return rows.map(toMaterial);
  });

  const promotionCache = minuteCache(async (siteId: number): Promise<WidgetItem[]> => {
    const now = new Date();
    const rows = await db
      .select({
        id: promotionPages.id,
        title: promotionPages.title,
        text: promotionPages.text,
        image: promotionPages.image,
        url: promotionPages.url,
      })
      .from(promotionPages)
      .innerJoin(promotions, eq(promotions.id, promotionPages.promotionId))
      .where(
        and(
          eq(promotions.siteId, siteId),
          eq(promotions.status, 'active'),
          eq(promotionPages.status, 'active'),
          or(isNull(promotions.startsAt), lte(promotions.startsAt, now)),
          or(isNull(promotions.endsAt), gt(promotions.endsAt, now)),
        ),
      )
      .orderBy(desc(promotionPages.id))
      .limit(CACHED);
    return rows.map((r) => ({
      id: `p${r.id}`,
      title: r.title,
      text: r.text,
      image: r.image ? `${publicUrl}/uploads/${r.image}` : '',
      url: r.url,
      brand: '',
      sponsored: false,
    }));
  });

  return {
    forSite,
    /** Up to `limit` of the site's materials from `offset`, newest first. */
    async materials(siteId: number, limit: number, offset: number): Promise<WidgetItem[]> {
      if (limit <= 0) return [];
      if (offset + limit > CACHED) return forSite(siteId, limit, offset);
      return (await siteCache.get(siteId)).slice(offset, offset + limit).map(materialItem);
    },
    /** The site's newest materials (up to 100), newest first, from memory. */
    siteMaterials: (siteId: number) => siteCache.get(siteId),
    /** The newest materials of every serving site (up to 5,000), from memory. */
    pool: () => poolCache.get('all'),
    /** The site's promotion pages of its running promotions, from memory. */
    promotionPages: (siteId: number) => promotionCache.get(siteId),
    /** Placeholder items for previews of a site with no materials yet. */
    /** Placeholder items of a preview without materials, in the words of the caller's language. */
    samples(n: number, words: SampleWords = englishSamples): WidgetItem[] {
      return Array.from({ length: n }, (_, i) => ({
        id: `sample-${i + 1}`,
        title: words.title(i + 1),
        text: words.text,
        image: `${publicUrl}/serve/sample/${(i % 8) + 1}.svg`,
        url: `${publicUrl}/`,
        brand: 'AdPlatform',
        sponsored: i % 3 === 0,
      }));
    },
    /** The site's materials changed (parsed, cleared): the next request reads them again. */
    forgetSite(siteId: number) {
      siteCache.forget(siteId);
      promotionCache.forget(siteId);
    },
  };
}
export type WidgetItems = ReturnType<typeof createWidgetItems>;

/** The texts of a preview's placeholder items (the n-th headline, the description). */
export interface SampleWords {
  title: (n: number) => string;
  text: string;
}
const englishSamples: SampleWords = {
  title: (n) => `Sample headline number ${n} for your widget preview`,
  text: 'A short description of the article or ad appears here, truncated by the widget settings.',
};
