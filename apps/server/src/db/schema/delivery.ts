import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * One row per click that reached `/click/<token>` with a token we signed: charged (`status = 'charged'`) or
 * not (`status = 'invalid'`, with its `reason`). `token_key` (impression id + position) is unique, so a
 * replayed token can never be charged twice, even across a crash. Forged tokens name nothing we can trust
 * and are only counted (`click_rejections`).
 */
export const clicks = pgTable(
  'clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The public click id advertisers pass back to `/postback?click_id=`: random, not guessable. */
    clickId: text('click_id').notNull(),
    /** Impression id and item position of the token: at most one row per shown item. */
    tokenKey: text('token_key').notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    campaignId: bigint('campaign_id', { mode: 'number' }).notNull(),
    bannerId: bigint('banner_id', { mode: 'number' }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    visitorId: text('visitor_id').notNull().default(''),
    ip: text('ip').notNull().default(''),
    country: text('country').notNull().default(''),
    /** The GeoIP city's (English) name; '' when unknown or the database has no cities. */
    city: text('city').notNull().default(''),
    device: text('device').notNull().default(''),
    os: text('os').notNull().default(''),
    browser: text('browser').notNull().default(''),
    /** What the campaign paid and how it was split, micro-units (all 0 for an invalid click). */
    price: bigint('price', { mode: 'bigint' }).notNull().default(sql`0`),
    publisherEarned: bigint('publisher_earned', { mode: 'bigint' }).notNull().default(sql`0`),
    agencyEarned: bigint('agency_earned', { mode: 'bigint' }).notNull().default(sql`0`),
    referralEarned: bigint('referral_earned', { mode: 'bigint' }).notNull().default(sql`0`),
    platformEarned: bigint('platform_earned', { mode: 'bigint' }).notNull().default(sql`0`),
    convertedAt: timestamp('converted_at', { withTimezone: true }),
    conversionSum: bigint('conversion_sum', { mode: 'bigint' }),
    conversionStatus: text('conversion_status'),
    /** The page the visitor clicked on, as its browser named it (Referer), without query and fragment. */
    referrer: text('referrer').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('clicks_token_key').on(t.tokenKey),
    uniqueIndex('clicks_click_id_key').on(t.clickId),
    index('clicks_campaign_created_idx').on(t.campaignId, t.createdAt),
    index('clicks_widget_created_idx').on(t.widgetId, t.createdAt),
    index('clicks_site_created_idx').on(t.siteId, t.createdAt),
  ],
);

/** Clicks on tokens we did not sign (forged, altered, malformed), counted per hour and reason. */
export const clickRejections = pgTable(
  'click_rejections',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('click_rejections_key').on(t.hour, t.reason)],
);

/**
 * Hourly rollups: the only thing statistics read. One row per (hour, campaign, creative, site, widget,
 * country, city, device, OS, browser); 0 stands for "none" in the id columns (a site's own material has no
 * campaign) and '' for "unknown" in the text columns, so the key is a plain unique index to upsert into.
 * Money columns are micro-units.
 */
export const rollups = pgTable(
  'rollups',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    campaignId: bigint('campaign_id', { mode: 'number' }).notNull(),
    bannerId: bigint('banner_id', { mode: 'number' }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    country: text('country').notNull(),
    /** The GeoIP city's (English) name; '' when unknown (a country-only database). */
    city: text('city').notNull().default(''),
    device: text('device').notNull(),
    os: text('os').notNull(),
    browser: text('browser').notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    viewable: bigint('viewable', { mode: 'number' }).notNull().default(0),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    invalidClicks: bigint('invalid_clicks', { mode: 'number' }).notNull().default(0),
    conversions: bigint('conversions', { mode: 'number' }).notNull().default(0),
    spent: bigint('spent', { mode: 'bigint' }).notNull().default(sql`0`),
    earned: bigint('earned', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('rollups_key').on(
      t.hour,
      t.campaignId,
      t.bannerId,
      t.siteId,
      t.widgetId,
      t.country,
      t.city,
      t.device,
      t.os,
      t.browser,
    ),
    index('rollups_campaign_hour_idx').on(t.campaignId, t.hour),
    index('rollups_banner_hour_idx').on(t.bannerId, t.hour),
    index('rollups_site_hour_idx').on(t.siteId, t.hour),
    index('rollups_widget_hour_idx').on(t.widgetId, t.hour),
  ],
);

/** The sums every rollup table carries (money in micro-units). */
const rollupSums = () => ({
  impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
  viewable: bigint('viewable', { mode: 'number' }).notNull().default(0),
  clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
  invalidClicks: bigint('invalid_clicks', { mode: 'number' }).notNull().default(0),
  conversions: bigint('conversions', { mode: 'number' }).notNull().default(0),
  spent: bigint('spent', { mode: 'bigint' }).notNull().default(sql`0`),
  earned: bigint('earned', { mode: 'bigint' }).notNull().default(sql`0`),
});

/*
 * Coarser rollups, written with `rollups` by the same upsert (same transaction, same deltas), so they
 * always agree with it. The statistics store reads the smallest one that can answer a query:
 * - `rollups_campaign_hours` / `rollups_site_hours`: per UTC hour and campaign + creative, or site +
 *   widget (at most 24 rows a day per creative or widget whatever the traffic): time series in any
 *   timezone, breakdowns by creative, campaign, site or widget;
 * - `rollups_campaign_days` / `rollups_site_days`: per UTC day, campaign or site, and one value of a
 *   low-cardinality dimension (`dim`: see `rollupDims`; the country: at most about 250 rows a day per
 *   campaign or site): breakdowns by country; the hours of a range outside its whole UTC days (a day of
 *   a timezone other than UTC's) come from the hourly `rollups`.
 * The other breakdowns (city, device, OS, browser, a campaign by site, …) read `rollups`.
 * Updated far more often than inserted: fillfactor 70 leaves room for HOT updates (migration 0013).
 */
export const rollupsCampaignHours = pgTable(
  'rollups_campaign_hours',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    campaignId: bigint('campaign_id', { mode: 'number' }).notNull(),
    bannerId: bigint('banner_id', { mode: 'number' }).notNull(),
    ...rollupSums(),
  },
  (t) => [
    primaryKey({ name: 'rollups_campaign_hours_pk', columns: [t.campaignId, t.hour, t.bannerId] }),
    index('rollups_campaign_hours_banner_idx').on(t.bannerId, t.hour),
  ],
);

export const rollupsSiteHours = pgTable(
  'rollups_site_hours',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    ...rollupSums(),
  },
  (t) => [
    primaryKey({ name: 'rollups_site_hours_pk', columns: [t.siteId, t.hour, t.widgetId] }),
    index('rollups_site_hours_widget_idx').on(t.widgetId, t.hour),
  ],
);

/**
 * The `dim` codes of the daily rollups: which column of `rollups` their `value` is. Only the country for
 * now: each dimension adds about as many rows to every write as the country does (device 2, OS 3 and
 * browser 4 would be next), and their breakdowns read `rollups` meanwhile.
 */
export const rollupDims = { country: 1 } as const;

export const rollupsCampaignDays = pgTable(
  'rollups_campaign_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    campaignId: bigint('campaign_id', { mode: 'number' }).notNull(),
    dim: smallint('dim').notNull(),
    value: text('value').notNull(),
    ...rollupSums(),
  },
  (t) => [primaryKey({ name: 'rollups_campaign_days_pk', columns: [t.campaignId, t.dim, t.day, t.value] })],
);

export const rollupsSiteDays = pgTable(
  'rollups_site_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    dim: smallint('dim').notNull(),
    value: text('value').notNull(),
    ...rollupSums(),
  },
  (t) => [primaryKey({ name: 'rollups_site_days_pk', columns: [t.siteId, t.dim, t.day, t.value] })],
);

/** The platform's own income per charged click (what is left after publisher, agency and referrer). */
/**
 * What a CPM site's widget earned in one closed UTC hour (its drawn answers × the widget's earn value per
 * thousand): one row per widget and hour, written with its ledger credit, so an hour is paid once whichever
 * instance runs the job.
 */
export const cpmCredits = pgTable(
  'cpm_credits',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull(),
    sum: bigint('sum', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'cpm_credits_pk', columns: [t.hour, t.widgetId] }),
    index('cpm_credits_site_hour_idx').on(t.siteId, t.hour),
  ],
);

export const platformLedger = pgTable(
  'platform_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    sum: bigint('sum', { mode: 'bigint' }).notNull(),
    ref: text('ref'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('platform_ledger_created_idx').on(t.createdAt)],
);

/**
 * Raw impressions and views, one row per counted beacon: its sponsored items in `campaign_ids` and
 * `banner_ids` (the same order, one impression or view each), written by the delivery flush in the same
 * transaction as their rollups. A beacon's items share everything else, so a row per beacon rather than per
 * item writes a quarter of the rows of a four-slot widget (the bulk of the flush's database time). Statistics
 * never read it (they read `rollups`); it is the record the rollups can be checked against or rebuilt from
 * (`unnest` the two arrays), and is kept RAW_EVENTS_DAYS days. Narrow on purpose: no impression id, IP or URL.
 * Append-only in time order, so a BRIN index on `at` (a few pages for millions of rows) is enough for the
 * retention job's deletes and any scan by time.
 */
export const events = pgTable(
  'events',
  {
    at: timestamp('at', { withTimezone: true }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    /** 1 an impression, 2 a view (viewable impression): see `eventKinds`. */
    kind: smallint('kind').notNull(),
    country: text('country').notNull(),
    city: text('city').notNull().default(''),
    device: text('device').notNull(),
    os: text('os').notNull(),
    browser: text('browser').notNull(),
    visitorId: text('visitor_id').notNull(),
    /** The campaign of each item counted. */
    campaignIds: bigint('campaign_ids', { mode: 'number' }).array().notNull(),
    /** The creative of each item counted, in the order of `campaign_ids`. */
    bannerIds: bigint('banner_ids', { mode: 'number' }).array().notNull(),
  },
  (t) => [index('events_at_brin').using('brin', t.at)],
);

/** The `events.kind` codes. */
export const eventKinds = { impression: 1, view: 2 } as const;
