import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * DSP partners (issue 11, outbound): demand platforms our widgets' slots are offered to over OpenRTB.
 * Money columns are micro-units; lists are sources (a site's domain or a site id as text).
 */
export const dspPartners = pgTable(
  'dsp_partners',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    endpoint: text('endpoint').notNull(),
    openrtbVersion: text('openrtb_version').notNull().default('2.5'),
    dailyMoneyLimit: bigint('daily_money_limit', { mode: 'bigint' }),
    dailyBudgetLimit: bigint('daily_budget_limit', { mode: 'number' }),
    maxRequestTime: integer('max_request_time').notNull().default(300),
    whitelist: text('whitelist').array().notNull().default(sql`'{}'::text[]`),
    blacklist: text('blacklist').array().notNull().default(sql`'{}'::text[]`),
    adPosition: integer('ad_position').notNull().default(0),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // one partner per name, in any case (the lists and statistics name partners by it)
  (t) => [uniqueIndex('dsp_partners_name_key').on(sql`lower(${t.name})`)],
);

/** Sources one DSP partner is never offered. */
export const dspPartnerBlacklist = pgTable(
  'dsp_partner_blacklist',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dspPartnerId: bigint('dsp_partner_id', { mode: 'number' })
      .notNull()
      .references(() => dspPartners.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dsp_partner_blacklist_source').on(t.dspPartnerId, t.source)],
);

/**
 * Hourly outbound auction rows per (hour, partner, site, widget, campaign, RTB partner, country, city,
 * device, OS): requests sent, bids received, wins, timeouts, errors and what the partner paid (the sum of
 * its clearing prices per impression, micro-units). 0 = none in the id columns, '' = unknown in the text
 * ones. The DSP partner statistics read this table only.
 */
export const dspRollups = pgTable(
  'dsp_rollups',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    dspPartnerId: bigint('dsp_partner_id', { mode: 'number' }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    campaignId: bigint('campaign_id', { mode: 'number' }).notNull(),
    rtbPartnerId: bigint('rtb_partner_id', { mode: 'number' }).notNull(),
    country: text('country').notNull(),
    city: text('city').notNull(),
    device: text('device').notNull(),
    os: text('os').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    bids: bigint('bids', { mode: 'number' }).notNull().default(0),
    wins: bigint('wins', { mode: 'number' }).notNull().default(0),
    timeouts: bigint('timeouts', { mode: 'number' }).notNull().default(0),
    errors: bigint('errors', { mode: 'number' }).notNull().default(0),
    revenue: bigint('revenue', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('dsp_rollups_key').on(
      t.hour,
      t.dspPartnerId,
      t.siteId,
      t.widgetId,
      t.campaignId,
      t.rtbPartnerId,
      t.country,
      t.city,
      t.device,
      t.os,
    ),
    index('dsp_rollups_partner_hour_idx').on(t.dspPartnerId, t.hour),
  ],
);

/**
 * The DSP partners' won slots, booked once each (`win_id`: the auction's id, unique): the clearing price
 * per impression the partner owes (micro-units) and how it was split (DESIGN.md money split: the
 * publisher by the widget's earn processor, the agency group its phoenix rate of that, referrers their
 * percent of the platform's income, the platform the rest). Written in the transaction of the ledger
 * rows and balance credits it caused.
 */
export const dspWins = pgTable(
  'dsp_wins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    winId: text('win_id').notNull(),
    dspPartnerId: bigint('dsp_partner_id', { mode: 'number' }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    revenue: bigint('revenue', { mode: 'bigint' }).notNull(),
    publisherEarned: bigint('publisher_earned', { mode: 'bigint' }).notNull(),
    agencyEarned: bigint('agency_earned', { mode: 'bigint' }).notNull(),
    referralEarned: bigint('referral_earned', { mode: 'bigint' }).notNull(),
    platformEarned: bigint('platform_earned', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dsp_wins_win_key').on(t.winId),
    index('dsp_wins_partner_created_idx').on(t.dspPartnerId, t.createdAt),
  ],
);
