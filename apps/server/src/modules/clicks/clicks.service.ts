import {
  type ClickRow,
  type ClickSourceGroup,
  type ClickSourcesPage,
  type ClicksPage,
  dayEnd,
  dayStart,
  daysBetween,
  fromMicros,
  type GeoClicksPage,
  type ImpressionRatePage,
  type ImpressionsPage,
  type PixelClicksPage,
  type PostbackPage,
  type ReportColumn,
  type ReportRow,
  type TopArticleSort,
  type TopArticlesPage,
} from '@adp/contract';
import { primed } from '../reports/report-files.ts';
import type { StatsService } from '../stats/stats.service.ts';
import type { ClickListRow, ClicksKeyset, ClicksOwner, ClicksRepository } from './clicks.repository.ts';

/** How a viewer sees a click list: admins see everything; `hideSites` hides site and widget from others. */
export interface ClicksViewer {
  admin: boolean;
  /** The campaign's `hide_clicks_sites` (campaign lists only). */
  hideSites?: boolean;
}

export interface RangeRequest {
  from: string;
  to: string;
  tz: string;
  page: number;
  limit: number;
}

const micros = (v: bigint | null) => (v === null ? null : fromMicros(v));
const idOf = (n: number) => (n > 0 ? String(n) : null);

/** Viewable per impression in percent, 2 decimals, rounded half up; 0 without impressions. */
export function rateOf(viewable: number, impressions: number): number {
  if (impressions <= 0) return 0;
  return Math.floor((viewable * 20_000 + impressions) / (2 * impressions)) / 100;
}

/** A page of a list already in memory (aggregates are short: one row per widget, country, …). */
function slice<T>(rows: T[], q: { page: number; limit: number }) {
  return {
    items: rows.slice((q.page - 1) * q.limit, q.page * q.limit),
    total: rows.length,
    page: q.page,
    limit: q.limit,
  };
}

/**
 * Click-level lists (a campaign's, a site's, a widget's clicks; pixel clicks; postback conversions) and
 * the aggregates beside them (impressions by widget, geo clicks, click sources, impression rate).
 * Who sees what is decided here: `price` for the advertiser's lists, `earned` for the publisher's, both
 * and the visitor's IP for admins; no site or widget for a non-admin when the campaign hides them.
 */
export function createClicksService(repo: ClicksRepository, stats: StatsService) {
  function toRow(r: ClickListRow, owner: ClicksOwner, viewer: ClicksViewer): ClickRow {
    const { c } = r;
    const hidden = owner === 'campaign' && viewer.hideSites === true && !viewer.admin;
    const row: ClickRow = {
      _id: c.clickId,
      created_at: c.createdAt.toISOString(),
      campaign_id: String(c.campaignId),
      banner_id: String(c.bannerId),
      banner_title: r.bannerTitle,
      site_id: hidden ? null : idOf(c.siteId),
      site_title: hidden ? null : r.siteTitle,
      widget_id: hidden ? null : idOf(c.widgetId),
      widget_title: hidden ? null : r.widgetTitle,
      country: c.country,
      city: c.city,
      device: c.device,
      os: c.os,
      browser: c.browser,
      status: c.status === 'charged' ? 'valid' : 'invalid',
      reason: c.reason,
      converted_at: c.convertedAt ? c.convertedAt.toISOString() : null,
      conversion_sum: micros(c.conversionSum),
      conversion_status: c.conversionStatus,
    };
    if (owner === 'campaign' || viewer.admin) row.price = fromMicros(c.price);
    if (owner !== 'campaign' || viewer.admin) row.earned = fromMicros(c.publisherEarned);
    if (viewer.admin) row.ip = c.ip;
    return row;
  }

  const instants = (q: { from: string; to: string; tz: string }) => ({
    from: dayStart(q.from, q.tz),
    to: dayEnd(q.to, q.tz),
  });
  const statusOf = (s: 'valid' | 'invalid' | undefined): 'charged' | 'invalid' | undefined =>
    s === 'valid' ? 'charged' : s === 'invalid' ? 'invalid' : undefined;
  const sitesHidden = (owner: ClicksOwner, viewer: ClicksViewer) =>
    owner === 'campaign' && viewer.hideSites === true && !viewer.admin;

  /** Rows a file chunk reads from the database. */
  const FILE_CHUNK = 1000;

  /**
   * The columns of a click list's file, as its screen shows them to this viewer: the advertiser's `price`,
   * the publisher's `earned`, both and the IP for admins, no site or widget when the campaign hides them,
   * the conversion for postback.
   */
  function fileColumns(owner: ClicksOwner, viewer: ClicksViewer, converted: boolean): ReportColumn[] {
    const hidden = sitesHidden(owner, viewer);
    const col = (key: string, kind: ReportColumn['kind']): ReportColumn => ({ key, kind });
    return [
      ...(converted ? [col('converted_at', 'instant')] : []),
      col('created_at', 'instant'),
      col('click_id', 'text'),
      col('status', 'text'),
      col('reason', 'text'),
      col('campaign_id', 'id'),
      col('banner_id', 'id'),
      col('banner_title', 'text'),
      ...(hidden
        ? []
        : [
            col('site_id', 'id'),
            col('site_title', 'text'),
            col('widget_id', 'id'),
            col('widget_title', 'text'),
          ]),
      col('country', 'text'),
      col('city', 'text'),
      col('device', 'text'),
      col('os', 'text'),
      col('browser', 'text'),
      ...(viewer.admin ? [col('ip', 'text')] : []),
      ...(owner === 'campaign' || viewer.admin ? [col('price', 'money')] : []),
      ...(owner !== 'campaign' || viewer.admin ? [col('earned', 'money')] : []),
      ...(converted ? [col('conversion_status', 'text'), col('conversion_sum', 'money')] : []),
    ];
  }

  /** A click as its file's row (toRow's view of it, the click id under its name). */
  function fileRow(r: ClickListRow, owner: ClicksOwner, viewer: ClicksViewer): ReportRow {
    const { _id, ...row } = toRow(r, owner, viewer);
    return { click_id: _id, ...row };
  }

  return {
    /**
     * A click list (`converted`: the postback list) as a file: its columns, and every click of the range
     * newest first, FILE_CHUNK at a time by keyset. The first chunk is read before this answers, so a
     * failing query is an error answer, not a cut-off file. `rows` false: the columns alone (the 24-hour
     * rule holds the rows back), nothing read.
     */
    async clicksFile(
      owner: ClicksOwner,
      id: number,
      viewer: ClicksViewer,
      q: { from: string; to: string; tz: string; status?: 'valid' | 'invalid' | undefined },
      converted = false,
      rows = true,
    ): Promise<{ columns: ReportColumn[]; chunks: AsyncGenerator<ReportRow[]> }> {
      const f = { owner, id, ...instants(q), status: statusOf(q.status), converted };
      const chunks = async function* () {
        if (!rows) return;
        let before: ClicksKeyset | undefined;
        for (;;) {
          const rows = await repo.chunk(f, FILE_CHUNK, before);
          if (rows.length > 0) yield rows.map((r) => fileRow(r, owner, viewer));
          const last = rows[rows.length - 1];
          if (rows.length < FILE_CHUNK || !last) return;
          before = { at: last.at, id: last.c.id };
        }
      };
      return { columns: fileColumns(owner, viewer, converted), chunks: await primed(chunks()) };
    },

    /**
     * A campaign's pixel clicks as a file: the clicks file's columns and the pixel's, and how to read every
     * row of the range (one query: pixel clicks are the few clicks whose visitor reached a pixel).
     */
    pixelClicksFile(
      campaignId: number,
      ownerId: number,
      viewer: ClicksViewer,
      q: { from: string; to: string; tz: string; status?: 'valid' | 'invalid' | undefined },
    ): { columns: ReportColumn[]; read: () => Promise<ReportRow[]> } {
      const read = async () => {
        const page = await this.pixelClicks(campaignId, ownerId, viewer, {
          ...q,
          page: 1,
          limit: Number.MAX_SAFE_INTEGER,
        });
        return page.items.map(({ _id, ...row }): ReportRow => ({ click_id: _id, ...row }));
      };
      const columns: ReportColumn[] = [
        ...fileColumns('campaign', viewer, false),
        { key: 'pixel_id', kind: 'id' },
        { key: 'pixel_title', kind: 'text' },
        { key: 'pixel_url', kind: 'text' },
        { key: 'pixel_seen_at', kind: 'instant' },
        { key: 'pixel_visits', kind: 'int' },
      ];
      return { columns, read };
    },

    async clicks(
      owner: ClicksOwner,
      id: number,
      viewer: ClicksViewer,
      q: RangeRequest & { status?: 'valid' | 'invalid' | undefined },
    ): Promise<ClicksPage> {
      const page = await repo.list({
        owner,
        id,
        ...instants(q),
        status: statusOf(q.status),
        page: q.page,
        limit: q.limit,
      });
      return {
        ...page,
        items: page.items.map((r) => toRow(r, owner, viewer)),
        sites_hidden: sitesHidden(owner, viewer),
      };
    },

    async postback(
      campaignId: number,
      viewer: ClicksViewer,
      q: RangeRequest & { status?: 'valid' | 'invalid' | undefined },
    ): Promise<PostbackPage> {
      const range = {
        owner: 'campaign' as const,
        id: campaignId,
        ...instants(q),
        status: statusOf(q.status),
      };
      const [page, totals] = await Promise.all([
        repo.list({ ...range, converted: true, page: q.page, limit: q.limit }),
        repo.conversions(range),
      ]);
      return {
        ...page,
        items: page.items.map((r) => toRow(r, 'campaign', viewer)),
        sites_hidden: sitesHidden('campaign', viewer),
        conversions: totals.n,
        sum: fromMicros(totals.sum),
      };
    },

    async pixelClicks(
      campaignId: number,
      ownerId: number,
      viewer: ClicksViewer,
      q: RangeRequest & { status?: 'valid' | 'invalid' | undefined },
    ): Promise<PixelClicksPage> {
      const page = await repo.pixelClicks({
        id: campaignId,
        ownerId,
        ...instants(q),
        status: statusOf(q.status),
        page: q.page,
        limit: q.limit,
      });
      return {
        ...page,
        items: page.items.map((r) => ({
          ...toRow(r, 'campaign', viewer),
          pixel_id: String(r.pixelId),
          pixel_title: r.pixelTitle,
          pixel_url: r.pixelUrl,
          pixel_seen_at: r.pixelSeenAt.toISOString(),
          pixel_visits: r.pixelVisits,
        })),
        sites_hidden: sitesHidden('campaign', viewer),
      };
    },

    /** The campaign's impressions by widget (with its site) from the rollups, most impressions first. */
    async impressions(campaignId: number, viewer: ClicksViewer, q: RangeRequest): Promise<ImpressionsPage> {
      const answer = await stats.query('campaign', campaignId, {
        from: q.from,
        to: q.to,
        tz: q.tz,
        group: 'widget',
      });
      const t = answer.total;
      const totals = {
        impressions: t.impressions,
        viewable: t.viewable,
        clicks: t.clicks,
        invalid_clicks: t.invalid_clicks,
        ctr: t.ctr,
        spent: t.spent,
      };
      if (sitesHidden('campaign', viewer))
        return { items: [], total: 0, page: q.page, limit: q.limit, sites_hidden: true, totals };
      const page = slice(answer.rows, q);
      // 'unknown' (no widget) and 'rtb' (bought through the exchange) name no widget of ours
      const named = (key: string) => key !== 'unknown' && key !== 'rtb';
      const names = await repo.widgetsWithSites(
        page.items.filter((r) => named(r.key)).map((r) => Number(r.key)),
      );
      return {
        ...page,
        items: page.items.map((r) => {
          const w = named(r.key) ? names.get(Number(r.key)) : undefined;
          return {
            exchange: r.key === 'rtb',
            site_id: w ? String(w.siteId) : null,
            site_title: w?.siteTitle ?? null,
            widget_id: named(r.key) ? r.key : null,
            widget_title: w?.title ?? null,
            impressions: r.impressions,
            viewable: r.viewable,
            clicks: r.clicks,
            invalid_clicks: r.invalid_clicks,
            ctr: r.ctr,
            spent: r.spent,
          };
        }),
        sites_hidden: false,
        totals,
      };
    },

    /** Clicks by country from the rollups (city once the rollups have it), most clicks first. */
    async geoClicks(subject: 'campaign' | 'site', id: number, q: RangeRequest): Promise<GeoClicksPage> {
      const answer = await stats.query(subject, id, {
        from: q.from,
        to: q.to,
        tz: q.tz,
        group: 'geo',
        sort: 'clicks',
        order: 'desc',
      });
      // every place with clicks or money: a campaign's money there is all it spent there (clicks and the
      // exchange's impressions), so the column adds up to the campaign's spend (a site's: its earnings)
      const moneyOf = (r: (typeof answer.rows)[number]) => (subject === 'campaign' ? r.spent : r.earned);
      const rows = answer.rows
        .filter((r) => r.clicks > 0 || r.invalid_clicks > 0 || moneyOf(r) !== 0)
        .map((r) => {
          // the key is `<country>|<city>`; an unknown country is 'unknown', an unknown city ''
          const bar = r.key.indexOf('|');
          return { ...r, country: r.key.slice(0, bar) || 'unknown', city: r.key.slice(bar + 1) };
        })
        .map((r) => ({
          country: r.country,
          city: r.city,
          clicks: r.clicks,
          invalid_clicks: r.invalid_clicks,
          money: moneyOf(r),
        }));
      return slice(rows, q);
    },

    async clickSources(
      siteId: number,
      q: RangeRequest & { group: ClickSourceGroup },
    ): Promise<ClickSourcesPage> {
      const [page, refreshedAt] = await Promise.all([
        repo.sources({ siteId, ...instants(q), group: q.group, page: q.page, limit: q.limit }),
        repo.sourcesRefreshedAt(),
      ]);
      return {
        ...page,
        items: page.items.map((s) => ({
          key: s.key,
          widget_title: s.widgetTitle,
          clicks: s.clicks,
          invalid_clicks: s.invalidClicks,
          earned: fromMicros(s.earned),
        })),
        refreshed_at: refreshedAt ? refreshedAt.toISOString() : null,
      };
    },

    /** The job of SPEC.md section 9: click sources recomputed (every 20 minutes). */
    refreshSources: (now = new Date()) => repo.refreshSources(now),

    /** Per widget of the site (a page of them): the viewable rate by day and over the range. */
    async impressionRate(siteId: number, q: RangeRequest): Promise<ImpressionRatePage> {
      const page = await repo.siteWidgets(siteId, q);
      const days = daysBetween(q.from, q.to);
      // widget answers served and drawn, per widget and day of `tz` (each UTC hour to the day it starts in)
      const starts = days.map((day) => dayStart(day, q.tz).getTime());
      const dayOf = (hourSeconds: number) => {
        const at = hourSeconds * 1000;
        let i = -1;
        while (i + 1 < starts.length && (starts[i + 1] ?? 0) <= at) i++;
        return days[i];
      };
      const traffic = new Map<string, { requests: number; rendered: number }>();
      for (const r of await repo.widgetTraffic({
        siteId,
        widgetIds: page.items.map((w) => w.id),
        ...instants(q),
      })) {
        const day = dayOf(r.hour);
        if (!day) continue;
        for (const key of [`${r.widgetId}|${day}`, `${r.widgetId}|`]) {
          const t = traffic.get(key) ?? { requests: 0, rendered: 0 };
          t.requests += r.requests;
          t.rendered += r.rendered;
          traffic.set(key, t);
        }
      }
      const rates = (
        t: { requests: number; rendered: number } | undefined,
        impressions: number,
        viewable: number,
      ) => ({
        requests: t?.requests ?? 0,
        rendered: t?.rendered ?? 0,
        impression_rate: rateOf(t?.rendered ?? 0, t?.requests ?? 0),
        impressions,
        viewable,
        rate: rateOf(viewable, impressions),
      });
      const items = await Promise.all(
        page.items.map(async (w) => {
          const answer = await stats.byDay('widget', w.id, { from: q.from, to: q.to, tz: q.tz });
          const byDay = new Map(answer.rows.map((r) => [r.key, r]));
          return {
            widget_id: String(w.id),
            widget_title: w.title,
            ...rates(traffic.get(`${w.id}|`), answer.total.impressions, answer.total.viewable),
            days: days.map((day) => {
              const r = byDay.get(day);
              return { day, ...rates(traffic.get(`${w.id}|${day}`), r?.impressions ?? 0, r?.viewable ?? 0) };
            }),
          };
        }),
      );
      return { ...page, items };
    },

    /** The site's own articles shown in its widgets over the range: a sorted page and the totals. */
    async topArticles(
      siteId: number,
      q: RangeRequest & { sort: TopArticleSort; order: 'asc' | 'desc' },
    ): Promise<TopArticlesPage> {
      const page = await repo.topArticles({ ...q, siteId, ...instants(q) });
      return {
        ...page,
        items: page.items.map((a) => ({
          material_id: String(a.materialId),
          title: a.title,
          url: a.url,
          impressions: a.impressions,
          clicks: a.clicks,
          ctr: rateOf(a.clicks, a.impressions),
        })),
        totals: { ...page.totals, ctr: rateOf(page.totals.clicks, page.totals.impressions) },
      };
    },
  };
}
export type ClicksService = ReturnType<typeof createClicksService>;
