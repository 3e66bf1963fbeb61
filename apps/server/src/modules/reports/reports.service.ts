import {
  dayEnd,
  dayStart,
  daysBetween,
  defaultReportGroup,
  fromMicros,
  type ReportAnswer,
  type ReportColumn,
  type ReportGroup,
  type ReportRow,
  type ReportType,
  reportColumnsOf,
  statsRange,
} from '@adp/contract';
import { AppError } from '../../lib/errors.ts';
import type { StatsStore } from '../stats/stats.repository.ts';
import { ctrOf, ecpmOf } from '../stats/stats.service.ts';
import type { StatsReportBy, StatsReportRow } from '../stats/stats-report.repository.ts';
import type { ClickReportRow, ClicksCursor, ClicksFilter, ReportsRepository } from './reports.repository.ts';

/** How many rows an export reads from the database at a time. */
export const EXPORT_CHUNK = 1000;

/** The filters of a report, as the contract's queries carry them. */
export interface ReportRequest {
  type: ReportType;
  from?: string | undefined;
  to?: string | undefined;
  tz: string;
  group?: ReportGroup | undefined;
  user_id?: string | undefined;
  site_id?: string | undefined;
  campaign_id?: string | undefined;
  status?: 'charged' | 'invalid' | undefined;
}

/** A report's filters resolved: the days, the instants they span, the ids, the group. */
interface Resolved {
  type: ReportType;
  from: string;
  to: string;
  tz: string;
  start: Date;
  end: Date;
  group: ReportGroup;
  userId?: number | undefined;
  siteId?: number | undefined;
  campaignId?: number | undefined;
  status?: 'charged' | 'invalid' | undefined;
}

/** What a statistics report (sites, campaigns, ecpms, criteo) asks the store for, before paging. */
interface StatsPlan {
  by: StatsReportBy;
  perDay: boolean;
  tz: string;
  from: Date;
  to: Date;
  siteIds?: readonly number[] | undefined;
  campaignIds?: readonly number[] | undefined;
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);
const money = (micros: bigint | null) => (micros === null ? null : fromMicros(micros));

function clickRow(c: ClickReportRow): ReportRow {
  return {
    created_at: iso(c.createdAt),
    click_id: c.clickId,
    status: c.status,
    reason: c.reason,
    campaign_id: String(c.campaignId),
    banner_id: String(c.bannerId),
    site_id: String(c.siteId),
    widget_id: String(c.widgetId),
    country: c.country,
    device: c.device,
    os: c.os,
    browser: c.browser,
    ip: c.ip,
    price: money(c.price),
    publisher_earned: money(c.publisherEarned),
  };
}

function postbackRow(c: ClickReportRow): ReportRow {
  return {
    converted_at: iso(c.convertedAt),
    click_id: c.clickId,
    conversion_status: c.conversionStatus,
    conversion_sum: money(c.conversionSum),
    campaign_id: String(c.campaignId),
    site_id: String(c.siteId),
    widget_id: String(c.widgetId),
    price: money(c.price),
    created_at: iso(c.createdAt),
  };
}

/**
 * The admin reports: a page of rows (GET /api/reports) or every row in chunks (the streamed export).
 * Statistics come from the statistics store (rollups), raw clicks and conversions from the clicks table,
 * referral earnings from the ledger. Who may read them is the routes' business (admins only).
 */
export function createReportsService(deps: {
  repo: ReportsRepository;
  store: Pick<StatsStore, 'report' | 'reportCount'>;
  /** Rows per database read of an export (tests make it small to cross chunk borders). */
  chunk?: number;
}) {
  const { repo, store } = deps;
  const chunk = deps.chunk ?? EXPORT_CHUNK;

  async function resolve(q: ReportRequest): Promise<Resolved> {
    const { from, to } = statsRange(q);
    const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
    const r: Resolved = {
      type: q.type,
      from,
      to,
      tz: q.tz,
      start: dayStart(from, q.tz),
      end: dayEnd(to, q.tz),
      group: q.group ?? defaultReportGroup(q.type),
      userId: num(q.user_id),
      siteId: num(q.site_id),
      campaignId: num(q.campaign_id),
      status: q.status,
    };
    // an unknown id in a filter is a 404, as the entity's own GET answers
    if (r.userId !== undefined && !(await repo.userExists(r.userId))) throw new AppError(404, 'not_found');
    if (r.siteId !== undefined && !(await repo.siteExists(r.siteId))) throw new AppError(404, 'not_found');
    if (r.campaignId !== undefined && !(await repo.campaignExists(r.campaignId)))
      throw new AppError(404, 'not_found');
    return r;
  }

  /** Intersects an id filter with one more list (undefined: no filter yet). */
  const narrow = (ids: readonly number[] | undefined, more: readonly number[]) =>
    ids === undefined ? more : ids.filter((id) => more.includes(id));

  async function statsPlan(r: Resolved): Promise<StatsPlan> {
    let siteIds: readonly number[] | undefined = r.siteId === undefined ? undefined : [r.siteId];
    let campaignIds: readonly number[] | undefined = r.campaignId === undefined ? undefined : [r.campaignId];
    // the user filter means the user's own side: publishers' sites, advertisers' campaigns
    const publisher = r.type === 'sites' || r.type === 'ecpms';
    if (r.userId !== undefined) {
      if (publisher) siteIds = narrow(siteIds, await repo.siteIdsOf(r.userId));
      else campaignIds = narrow(campaignIds, await repo.campaignIdsOf(r.userId));
    }
    if (r.type === 'criteo') campaignIds = narrow(campaignIds, await repo.campaignIdsOf(r.userId, 'criteo'));
    const by: StatsReportBy = r.type === 'sites' ? 'site' : r.type === 'ecpms' ? 'widget' : 'campaign';
    return { by, perDay: r.group === 'day', tz: r.tz, from: r.start, to: r.end, siteIds, campaignIds };
  }

  /** Store rows as report rows, with the names of their sites, widgets or campaigns. */
  async function statsRows(type: ReportType, rows: StatsReportRow[]): Promise<ReportRow[]> {
    const ids = [...new Set(rows.map((r) => r.id))];
    const dayOf = (r: StatsReportRow): ReportRow => (r.day === null ? {} : { day: r.day });
    if (type === 'sites') {
      const names = new Map((await repo.siteNames(ids)).map((s) => [s.id, s]));
      return rows.map((r) => {
        const s = names.get(r.id);
        return {
          ...dayOf(r),
          site_id: String(r.id),
          site: s?.title ?? '',
          domain: s?.domain ?? '',
          user_id: s ? String(s.userId) : null,
          user: s?.email ?? '',
          impressions: r.impressions,
          clicks: r.clicks,
          ctr: ctrOf(r.clicks, r.impressions),
          earned: fromMicros(r.earned),
          ecpm: ecpmOf(r.earned, r.impressions),
        };
      });
    }
    if (type === 'ecpms') {
      const names = new Map((await repo.widgetNames(ids)).map((w) => [w.id, w]));
      return rows.map((r) => {
        const w = names.get(r.id);
        return {
          ...dayOf(r),
          site_id: w ? String(w.siteId) : null,
          site: w?.siteTitle ?? '',
          widget_id: String(r.id),
          widget: w?.title ?? '',
          impressions: r.impressions,
          earned: fromMicros(r.earned),
          ecpm: ecpmOf(r.earned, r.impressions),
        };
      });
    }
    const names = new Map((await repo.campaignNames(ids)).map((c) => [c.id, c]));
    return rows.map((r) => {
      const c = names.get(r.id);
      const head = {
        ...dayOf(r),
        campaign_id: String(r.id),
        campaign: c?.title ?? '',
        user_id: c ? String(c.userId) : null,
        user: c?.email ?? '',
        impressions: r.impressions,
        clicks: r.clicks,
        ctr: ctrOf(r.clicks, r.impressions),
        spent: fromMicros(r.spent),
      };
      return type === 'criteo'
        ? { ...head, ecpm: ecpmOf(r.spent, r.impressions) }
        : { ...head, conversions: r.conversions };
    });
  }

  const clicksFilter = (r: Resolved): ClicksFilter => ({
    from: r.start,
    to: r.end,
    userId: r.userId,
    siteId: r.siteId,
    campaignId: r.campaignId,
    status: r.type === 'clicks' ? r.status : undefined,
    converted: r.type === 'postback',
  });

  const empty = (plan: StatsPlan) => plan.siteIds?.length === 0 || plan.campaignIds?.length === 0;

  return {
    /** The columns of a report as the request groups it (the export's header). */
    columns(q: ReportRequest): readonly ReportColumn[] {
      return reportColumnsOf(q.type, q.group ?? defaultReportGroup(q.type));
    },

    /** The range a request names, filled in: for the export's file name. */
    range: (q: ReportRequest) => statsRange(q),

    /** One page of a report and its row count. */
    async page(q: ReportRequest, window: { page: number; limit: number }): Promise<ReportAnswer> {
      const r = await resolve(q);
      const offset = (window.page - 1) * window.limit;
      switch (r.type) {
        case 'clicks':
        case 'postback': {
          const f = clicksFilter(r);
          const [total, rows] = await Promise.all([
            repo.clicksCount(f),
            repo.clicks(f, { limit: window.limit, offset }),
          ]);
          return { rows: rows.map(r.type === 'clicks' ? clickRow : postbackRow), total };
        }
        case 'affiliates': {
          const [total, rows] = await Promise.all([
            repo.affiliatesCount(r.start, r.end, r.userId),
            repo.affiliates(r.start, r.end, { limit: window.limit, offset, userId: r.userId }),
          ]);
          return { rows: rows.map(affiliateRow), total };
        }
        default: {
          const plan = await statsPlan(r);
          if (empty(plan)) return { rows: [], total: 0 };
          const [total, rows] = await Promise.all([
            store.reportCount(plan),
            store.report({ ...plan, limit: window.limit, offset }),
          ]);
          return { rows: await statsRows(r.type, rows), total };
        }
      }
    },

    /**
     * Every row of a report, `chunk` (EXPORT_CHUNK) rows of the database at a time (keyset pages: never the whole
     * report in memory). The filters are checked (404 for an unknown id) before the first chunk is asked
     * for, so the caller can answer an error before it starts the file.
     */
    async rows(q: ReportRequest): Promise<AsyncGenerator<ReportRow[]>> {
      const r = await resolve(q);
      const plan =
        r.type === 'clicks' || r.type === 'postback' || r.type === 'affiliates' ? null : await statsPlan(r);
      return (async function* () {
        if (r.type === 'clicks' || r.type === 'postback') {
          const f = clicksFilter(r);
          const map = r.type === 'clicks' ? clickRow : postbackRow;
          let before: ClicksCursor | undefined;
          for (;;) {
            const rows = await repo.clicks(f, { limit: chunk, before });
            if (rows.length > 0) yield rows.map(map);
            const last = rows[rows.length - 1];
            if (rows.length < chunk || !last) return;
            before = { at: last.at, id: last.id };
          }
        }
        if (r.type === 'affiliates') {
          let afterId: number | undefined;
          for (;;) {
            const rows = await repo.affiliates(r.start, r.end, {
              limit: chunk,
              userId: r.userId,
              ...(afterId === undefined ? {} : { afterId }),
            });
            if (rows.length > 0) yield rows.map(affiliateRow);
            if (rows.length < chunk) return;
            afterId = rows[rows.length - 1]?.id;
          }
        }
        if (!plan || empty(plan)) return;
        // by day: one day of the timezone at a time, each in id order; in total: the range in id order
        const spans = plan.perDay
          ? daysBetween(r.from, r.to).map((day) => ({ from: dayStart(day, r.tz), to: dayEnd(day, r.tz) }))
          : [{ from: plan.from, to: plan.to }];
        for (const span of spans) {
          let afterId: number | undefined;
          for (;;) {
            const rows = await store.report({ ...plan, ...span, limit: chunk, afterId });
            if (rows.length > 0) yield await statsRows(r.type, rows);
            if (rows.length < chunk) break;
            afterId = rows[rows.length - 1]?.id;
          }
        }
      })();
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;

function affiliateRow(a: {
  id: number;
  email: string;
  name: string;
  earnPercent: string;
  referred: number;
  earned: bigint;
}): ReportRow {
  return {
    user_id: String(a.id),
    user: a.email,
    name: a.name,
    earn_percent: Number(a.earnPercent),
    referred: a.referred,
    earned: fromMicros(a.earned),
  };
}
