import { z } from 'zod';
import { id } from './common.ts';
import { isTimeZone, statsQuery } from './stats.ts';

/** The admin reports of GET /api/reports and /api/reportsexport (SPEC.md sections 2 and 7). */
export const reportTypes = [
  'sites',
  'campaigns',
  'clicks',
  'affiliates',
  'ecpms',
  'criteo',
  'postback',
] as const;
export type ReportType = (typeof reportTypes)[number];

/**
 * How a value of a report column is written: `day` 'YYYY-MM-DD' (a day of the query's `tz`), `instant`
 * an ISO instant in UTC, `id` an id as a string, `text`, `int` a count, `money` currency units, `percent`
 * a percentage with 2 decimals.
 */
export type ReportColumnKind = 'day' | 'instant' | 'id' | 'text' | 'int' | 'money' | 'percent';
export interface ReportColumn {
  key: string;
  kind: ReportColumnKind;
}

const col = (key: string, kind: ReportColumnKind): ReportColumn => ({ key, kind });

/** The reports whose rows are statistics over a range, per entity, as one row or a row per day. */
export const groupedReports = [
  'sites',
  'campaigns',
  'ecpms',
  'criteo',
] as const satisfies readonly ReportType[];

/**
 * The columns of each report, in order: the keys of its rows and, as they are (English snake_case,
 * stable across languages so spreadsheets and scripts can rely on them), the header of its export. The
 * dashboard shows them translated. Grouped reports with `group=day` start with a `day` column.
 */
export const reportColumns: Record<ReportType, readonly ReportColumn[]> = {
  sites: [
    col('site_id', 'id'),
    col('site', 'text'),
    col('domain', 'text'),
    col('user_id', 'id'),
    col('user', 'text'),
    col('impressions', 'int'),
    col('clicks', 'int'),
    col('ctr', 'percent'),
    col('earned', 'money'),
    col('ecpm', 'money'),
  ],
  campaigns: [
    col('campaign_id', 'id'),
    col('campaign', 'text'),
    col('user_id', 'id'),
    col('user', 'text'),
    col('impressions', 'int'),
    col('clicks', 'int'),
    col('ctr', 'percent'),
    col('spent', 'money'),
    col('conversions', 'int'),
  ],
  clicks: [
    col('created_at', 'instant'),
    col('click_id', 'id'),
    col('status', 'text'),
    col('reason', 'text'),
    col('campaign_id', 'id'),
    col('banner_id', 'id'),
    col('site_id', 'id'),
    col('widget_id', 'id'),
    col('country', 'text'),
    col('device', 'text'),
    col('os', 'text'),
    col('browser', 'text'),
    col('ip', 'text'),
    col('price', 'money'),
    col('publisher_earned', 'money'),
  ],
  affiliates: [
    col('user_id', 'id'),
    col('user', 'text'),
    col('name', 'text'),
    col('earn_percent', 'percent'),
    col('referred', 'int'),
    col('earned', 'money'),
  ],
  ecpms: [
    col('site_id', 'id'),
    col('site', 'text'),
    col('widget_id', 'id'),
    col('widget', 'text'),
    col('impressions', 'int'),
    col('earned', 'money'),
    col('ecpm', 'money'),
  ],
  criteo: [
    col('campaign_id', 'id'),
    col('campaign', 'text'),
    col('user_id', 'id'),
    col('user', 'text'),
    col('impressions', 'int'),
    col('clicks', 'int'),
    col('ctr', 'percent'),
    col('spent', 'money'),
    col('ecpm', 'money'),
  ],
  postback: [
    col('converted_at', 'instant'),
    col('click_id', 'id'),
    col('conversion_status', 'text'),
    col('conversion_sum', 'money'),
    col('campaign_id', 'id'),
    col('site_id', 'id'),
    col('widget_id', 'id'),
    col('price', 'money'),
    col('created_at', 'instant'),
  ],
};

/** A report's columns for a group: grouped reports by day start with the day. */
export function reportColumnsOf(type: ReportType, group: ReportGroup): readonly ReportColumn[] {
  const columns = reportColumns[type];
  return group === 'day' && (groupedReports as readonly string[]).includes(type)
    ? [col('day', 'day'), ...columns]
    : columns;
}

export const reportGroups = ['day', 'total'] as const;
export type ReportGroup = (typeof reportGroups)[number];

/** The group a report answers by when the query names none: eCPMs and criteo by day, the rest in total. */
export function defaultReportGroup(type: ReportType): ReportGroup {
  return type === 'ecpms' || type === 'criteo' ? 'day' : 'total';
}

const filters = {
  type: z.enum(reportTypes),
  from: z.string().optional(),
  to: z.string().optional(),
  tz: z.string().refine(isTimeZone, { message: 'invalid' }).default('UTC'),
  /** Grouped reports (sites, campaigns, ecpms, criteo) only: a row per day, or one for the range. */
  group: z.enum(reportGroups).optional(),
  /** Only this user's: its sites (sites, ecpms), campaigns (campaigns, criteo), the clicks and conversions of either, or itself (affiliates). */
  user_id: id.optional(),
  site_id: id.optional(),
  campaign_id: id.optional(),
  /** Clicks only: charged or invalid clicks. */
  status: z.enum(['charged', 'invalid']).optional(),
};

/** The range checks of statsQuery (days, `from` not after `to`, at most STATS_MAX_DAYS), on the same fields. */
function checkRange(
  q: { from?: string | undefined; to?: string | undefined; tz: string },
  ctx: z.RefinementCtx,
) {
  const range = statsQuery.safeParse({ from: q.from, to: q.to, tz: q.tz });
  if (range.success) return;
  for (const issue of range.error.issues) {
    if (issue.path[0] === 'from' || issue.path[0] === 'to') ctx.addIssue({ ...issue } as never);
  }
}

/**
 * GET /api/reports: one page of a report (admins and adminreadonly only). `from`/`to` are days of `tz`
 * (both included, default today), validated like GET /api/stats; `page` and `limit` (≤ 500) page the
 * rows; `user_id`, `site_id`, `campaign_id` narrow them (an unknown id is a 404).
 * @example reportsQuery.parse({ type: 'sites', from: '2026-03-01', to: '2026-03-31' })
 */
export const reportsQuery = z
  .object({
    ...filters,
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    limit: z.coerce.number().int().min(1).max(500).default(50),
  })
  .superRefine(checkRange);
export type ReportsQuery = z.output<typeof reportsQuery>;

export const reportFormats = ['csv', 'xlsx'] as const;
export type ReportFormat = (typeof reportFormats)[number];

/**
 * GET /api/reportsexport: every row of the report (the same filters, no paging) as a CSV or XLSX file,
 * streamed: the server reads the database in chunks, so the file's size is not bounded by memory. The
 * header row is the columns' keys (reportColumns).
 */
export const reportsExportQuery = z
  .object({ ...filters, format: z.enum(reportFormats) })
  .superRefine(checkRange);
export type ReportsExportQuery = z.output<typeof reportsExportQuery>;

/** A report row: the values of its columns (reportColumnsOf), keyed by the column's key. */
export const reportRow = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));
export type ReportRow = z.infer<typeof reportRow>;

/** One page of a report's rows and how many rows the whole report has. */
export const reportAnswer = z.object({ rows: z.array(reportRow), total: z.number().int() });
export type ReportAnswer = z.infer<typeof reportAnswer>;

/** The file name of an export: `report-<type>-<from>-<to>.<format>`. */
export function reportFileName(type: ReportType, from: string, to: string, format: ReportFormat): string {
  return `report-${type}-${from}-${to}.${format}`;
}
