import { z } from 'zod';
import { id } from './common.ts';
import { moneyTotal } from './money.ts';

/** An AdSense report import: uploaded (rows parsed, sites mapped), then approved once. */
export const adsenseStatuses = ['uploaded', 'approved'] as const;
export const adsenseStatus = z.enum(adsenseStatuses);
export type AdsenseStatus = z.infer<typeof adsenseStatus>;

/** `current`: today's UTF-8 CSV; `legacy`: the older UTF-16 LE, tab-separated export. */
export const adsenseFormats = ['current', 'legacy'] as const;
export type AdsenseFormat = (typeof adsenseFormats)[number];

/** One problem of a row: `detail` is the message in the caller's language. */
export const adsenseRowError = z.object({ field: z.string(), code: z.string(), detail: z.string() });
export type AdsenseRowError = z.infer<typeof adsenseRowError>;

/** SPEC.md "Adsense income: site, date, impressions, clicks, adsense revenue, own income, site income". */
export const adsenseIncome = z.object({
  _id: id,
  line: z.number().int(),
  date: z.string().nullable(),
  /** The site, domain, URL or ad unit as the report names it. */
  source: z.string(),
  site_id: id.nullable(),
  site_title: z.string().nullable(),
  user_id: id.nullable(),
  page_views: z.number().int(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  adsense_revenue: moneyTotal,
  /** The publisher's share: what approval credits (or would credit) to the site's owner. */
  site_income: moneyTotal.nullable(),
  /** What the platform keeps: the revenue less the site's share and the site owner's referrer's part. */
  own_income: moneyTotal.nullable(),
  errors: z.array(adsenseRowError),
});
export type AdsenseIncome = z.infer<typeof adsenseIncome>;

export const adsenseImport = z.object({
  _id: id,
  file_name: z.string(),
  format: z.enum(adsenseFormats),
  currency: z.string(),
  status: adsenseStatus,
  rows_count: z.number().int(),
  error_rows: z.number().int(),
  adsense_revenue: moneyTotal,
  site_income: moneyTotal,
  own_income: moneyTotal,
  uploaded_by: id.nullable(),
  approved_by: id.nullable(),
  approved_at: z.string().nullable(),
  created_at: z.string(),
});
export type AdsenseImport = z.infer<typeof adsenseImport>;

/** The upload's answer and `GET /api/adsense/{id}`: the import with its parsed rows and their errors. */
export const adsenseImportDetail = adsenseImport.extend({ rows: z.array(adsenseIncome) });
export type AdsenseImportDetail = z.infer<typeof adsenseImportDetail>;

/**
 * `POST /api/adsense/approve` with `{adsense: {_id, rows?}}`: `rows` changes the site of some rows
 * before crediting (null leaves a row unmapped, so it is not credited).
 */
export const adsenseApprove = z.strictObject({
  adsense: z.strictObject({
    _id: id,
    rows: z
      .array(z.strictObject({ _id: id, site_id: id.nullable() }))
      .max(10_000)
      .optional(),
  }),
});
export type AdsenseApprove = z.infer<typeof adsenseApprove>;

/**
 * GET /api/sites/{id}/adsense-incomes (page, limit): the site's AdSense days that an approved import
 * credited, newest first, for the site's owner (and whoever may read the site). `site_income` is the site's
 * share as the import credited it (before the owner's agency takes its rate of it); `publisher_income` what
 * the owner's balance got of it (the share less its agency's rate; null for a day approved before that was
 * recorded).
 */
export const siteAdsenseDay = z.object({
  date: z.string(),
  page_views: z.number().int(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  site_income: moneyTotal,
  publisher_income: moneyTotal.nullable(),
  import_id: id,
});
export type SiteAdsenseDay = z.infer<typeof siteAdsenseDay>;
