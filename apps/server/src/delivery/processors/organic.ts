import type { WidgetItem } from '@adp/contract';
import type { IndexedWidget } from '../ad-index.ts';
import { type Material, materialItem, type WidgetItems } from '../widget-items.ts';
import { rankBySimilarity } from './similarity.ts';

/** Where a processor's unsponsored items come from (see processors.ts and the README table). */
export type OrganicSource =
  | 'newest'
  | 'random'
  | 'language'
  | 'recommend'
  | 'news'
  | 'exchange'
  | 'exchange_group'
  | 'exchange_owner'
  | 'promotions';

export interface OrganicRequest {
  widget: Pick<IndexedWidget, 'siteId' | 'siteCategory' | 'publisherId'>;
  browserLanguage: string | null;
  pageUrl: string | null;
  count: number;
  offset: number;
  random?: () => number;
}

const DAY_MS = 86_400_000;

/**
 * Scheme-less, lower-case host, no trailing slash, no fragment, no UTM marks: how a page URL and a material
 * URL meet (a visitor who came by a marked link, mark_traffic's or a newsletter's, reads the same article).
 */
export function pageKey(url: string): string | null {
  try {
    const u = new URL(url);
    let search = u.search;
    if (search.includes('utm_')) {
      const params = u.searchParams;
      for (const k of [...params.keys()]) if (k.startsWith('utm_')) params.delete(k);
      search = params.size ? `?${params}` : '';
    }
    return `${u.host.toLowerCase().replace(/^www\./, '')}${u.pathname.replace(/\/+$/, '')}${search}`;
  } catch {
    return null;
  }
}

/** The site's material the visitor reads (by the page URL), from the cached materials; null when unknown. */
export async function pageMaterial(
  content: WidgetItems,
  siteId: number,
  pageUrl: string | null,
): Promise<Material | null> {
  const key = pageUrl && pageKey(pageUrl);
  if (!key) return null;
  const own = await content.siteMaterials(siteId);
  return own.find((m) => pageKey(m.url) === key) ?? null;
}

/** The list in random order, drawn lazily (partial Fisher–Yates): taking a few of many costs a few draws. */
export function* randomOrder<T>(list: readonly T[], random: () => number = Math.random): Generator<T> {
  const a = list.slice();
  for (let i = 0; i < a.length; i++) {
    const j = i + Math.floor(random() * (a.length - i));
    const x = a[j] as T;
    a[j] = a[i] as T;
    a[i] = x;
    yield x;
  }
}

function take<T>(from: Iterable<T>, n: number): T[] {
  const out: T[] = [];
  if (n <= 0) return out;
  for (const x of from) {
    out.push(x);
    if (out.length >= n) break;
  }
  return out;
}

const primary = (lang: string | null | undefined) => (lang ?? '').toLowerCase().split(/[-_]/)[0] ?? '';

/**
 * The unsponsored items of one answer: the site's own materials in the processor's order, other sites'
 * materials (exchange) or the site's promotion pages. Reads memory only (the caches of widget-items.ts).
 */
export async function organicItems(
  content: WidgetItems,
  source: OrganicSource,
  r: OrganicRequest,
): Promise<WidgetItem[]> {
  if (r.count <= 0) return [];
  const random = r.random ?? Math.random;
  const page = (list: readonly Material[]) => list.slice(r.offset, r.offset + r.count).map(materialItem);
  const here = r.pageUrl ? pageKey(r.pageUrl) : null;
  const notThisPage = (m: Material) => here === null || pageKey(m.url) !== here;
  switch (source) {
    case 'newest':
      return content.materials(r.widget.siteId, r.count, r.offset);
    case 'random':
      return take(
        randomOrder((await content.siteMaterials(r.widget.siteId)).filter(notThisPage), random),
        r.count,
      ).map(materialItem);
    case 'language': {
      const want = primary(r.browserLanguage);
      const own = await content.siteMaterials(r.widget.siteId);
      if (!want) return page(own);
      const first = own.filter((m) => primary(m.language) === want);
      return page(first.concat(own.filter((m) => primary(m.language) !== want)));
    }
    case 'recommend': {
      const read = await pageMaterial(content, r.widget.siteId, r.pageUrl);
      const others = (await content.siteMaterials(r.widget.siteId)).filter(notThisPage);
      if (!read) return page(others);
      return page(rankBySimilarity(`${read.title} ${read.text}`, others, (m) => `${m.title} ${m.text}`));
    }
    case 'news': {
      const since = Date.now() - DAY_MS;
      const own = await content.siteMaterials(r.widget.siteId);
      return page(own.filter((m) => m.publishedAt !== null && m.publishedAt >= since));
    }
    case 'exchange':
    case 'exchange_group':
    case 'exchange_owner': {
      const { siteId, siteCategory, publisherId } = r.widget;
      const pool = (await content.pool()).filter(
        (m) =>
          m.siteId !== siteId &&
          (source !== 'exchange_group' || m.siteCategory === siteCategory) &&
          (source !== 'exchange_owner' || m.siteOwner === publisherId),
      );
      // at most two articles of one site, so one busy site does not fill the widget
      const perSite = new Map<number, number>();
      const picked: Material[] = [];
      for (const m of randomOrder(pool, random)) {
        if (picked.length >= r.count) break;
        const n = perSite.get(m.siteId) ?? 0;
        if (n >= 2) continue;
        perSite.set(m.siteId, n + 1);
        picked.push(m);
      }
      return picked.map(materialItem);
    }
    case 'promotions':
      return take(randomOrder(await content.promotionPages(r.widget.siteId), random), r.count);
  }
}
