import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** An instant as a timestamptz, through epoch seconds (as the statistics store does). */
const instant = (date: Date) => sql`to_timestamp(${date.getTime() / 1000}::double precision)`;

export interface TopArticleSumsPage {
  items: TopArticleSums[];
  total: number;
  totals: { impressions: number; clicks: number };
  page: number;
  limit: number;
}

export interface TopArticleSums {
  materialId: number;
  title: string | null;
  url: string | null;
  impressions: number;
  clicks: number;
}

const orderBy: Record<'impressions' | 'clicks' | 'ctr' | 'title', SQL> = {
  impressions: sql`impressions`,
  clicks: sql`clicks`,
  ctr: sql`clicks::numeric / nullif(impressions, 0)`,
  title: sql`lower(m.title)`,
};

/**
 * What a site's top articles and impression rate read: the hourly counts delivery writes
 * (material_stats, widget_traffic), summed over a range of hours.
 */
export function createSiteTrafficRepository(db: Db) {
  /**
   * A page of the site's articles shown from `from` (included) to `to` (excluded) with their sums, the
   * number of such articles and the sums over all of them. Ties are broken by the article id.
   */
  async function topArticles(q: {
    siteId: number;
    from: Date;
    to: Date;
    sort: keyof typeof orderBy;
    order: 'asc' | 'desc';
    page: number;
    limit: number;
  }): Promise<TopArticleSumsPage> {
    const direction = q.order === 'asc' ? sql`asc nulls first` : sql`desc nulls last`;
    const result = await db.execute(sql`
        with sums as (
          select material_id, sum(impressions)::bigint as impressions, sum(clicks)::bigint as clicks
            from material_stats
           where site_id = ${q.siteId} and hour >= ${instant(q.from)} and hour < ${instant(q.to)}
           group by material_id)
        select s.material_id::text as material_id, m.title, m.url, s.impressions::text as impressions,
               s.clicks::text as clicks, count(*) over ()::text as total,
               sum(s.impressions) over ()::text as all_impressions, sum(s.clicks) over ()::text as all_clicks
          from sums s left join materials m on m.id = s.material_id
         order by ${orderBy[q.sort]} ${direction}, s.material_id
         limit ${q.limit} offset ${(q.page - 1) * q.limit}`);
    const rows = rowsOf<{
      material_id: string;
      title: string | null;
      url: string | null;
      impressions: string;
      clicks: string;
      total: string;
      all_impressions: string;
      all_clicks: string;
    }>(result);
    const first = rows[0];
    // a page past the end has no rows to carry the totals: ask again for the first one
    if (!first && q.page > 1) {
      const again = await topArticles({ ...q, page: 1, limit: 1 });
      return { ...again, items: [], page: q.page, limit: q.limit };
    }
    return {
      items: rows.map(
        (r): TopArticleSums => ({
          materialId: Number(r.material_id),
          title: r.title,
          url: r.url,
          impressions: Number(r.impressions),
          clicks: Number(r.clicks),
        }),
      ),
      total: Number(first?.total ?? 0),
      totals: {
        impressions: Number(first?.all_impressions ?? 0),
        clicks: Number(first?.all_clicks ?? 0),
      },
      page: q.page,
      limit: q.limit,
    };
  }

  return {
    topArticles,

    /**
     * The site's widget answers per widget and UTC hour (epoch seconds) from `from` to `to`: served
     * (`requests`) and drawn (`rendered`).
     */
    async widgetTraffic(q: { siteId: number; widgetIds: number[]; from: Date; to: Date }) {
      if (!q.widgetIds.length) return [];
      const result = await db.execute(sql`
        select widget_id::text as widget_id, extract(epoch from hour)::bigint::text as hour,
               requests::text as requests, rendered::text as rendered
          from widget_traffic
         where site_id = ${q.siteId}
           and widget_id = any(${`{${q.widgetIds.map((n) => Math.trunc(n)).join(',')}}`}::bigint[])
           and hour >= ${instant(q.from)} and hour < ${instant(q.to)}`);
      return rowsOf<{ widget_id: string; hour: string; requests: string; rendered: string }>(result).map(
        (r) => ({
          widgetId: Number(r.widget_id),
          hour: Number(r.hour),
          requests: Number(r.requests),
          rendered: Number(r.rendered),
        }),
      );
    },
  };
}
