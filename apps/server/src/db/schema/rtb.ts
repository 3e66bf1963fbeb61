import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { banners, campaigns } from './inventory.ts';
import { users } from './users.ts';

/**
 * An RTB partner: an exchange or SSP that sends us OpenRTB bid requests at `/rtb/openrtb2/<key>`. The key
 * is random and names the partner in the URL; `max_request_ms` caps the request's `tmax`; `daily_limit`
 * (micro-units, null = none) caps what its wins may charge per UTC day.
 */
export const rtbPartners = pgTable(
  'rtb_partners',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    key: text('key').notNull(),
    status: text('status').notNull().default('active'),
    maxRequestMs: integer('max_request_ms').notNull().default(200),
    dailyLimit: bigint('daily_limit', { mode: 'bigint' }),
    currency: text('currency').notNull().default('USD'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rtb_partners_key').on(t.key),
    // one partner per name, in any case
    uniqueIndex('rtb_partners_name_key').on(sql`lower(${t.name})`),
  ],
);

/**
 * Notifications of the platform: the exchange's win (`nurl`) and billing (`burl`) notices, and later other
 * types (a text column on purpose). `price` is micro-units when the type has one.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    campaignId: bigint('campaign_id', { mode: 'number' }).references(() => campaigns.id, {
      onDelete: 'cascade',
    }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    price: bigint('price', { mode: 'bigint' }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_created_idx').on(t.createdAt),
    index('notifications_user_idx').on(t.userId, t.createdAt),
    // the header's unread count: a user's unread rows only
    index('notifications_unread_idx').on(t.userId).where(sql`read_at is null`),
  ],
);

/**
 * One win (`nurl`) or billing (`burl`) notice of one bid, at most once each: the unique key refuses a
 * replay (also two at once). A burl's `charged` is what the campaign paid (0 when its balance was short).
 */
export const rtbNotices = pgTable(
  'rtb_notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bidId: text('bid_id').notNull(),
    kind: text('kind').notNull(),
    /** A partner with notices cannot be deleted (its billing record stays): it is set inactive instead. */
    partnerId: bigint('partner_id', { mode: 'number' }).references(() => rtbPartners.id, {
      onDelete: 'restrict',
    }),
    /** A bid to a Prebid Server (POST /rtb/prebid/:key) names its Prebid partner here instead (no link: the partner may go). */
    prebidPartnerId: bigint('prebid_partner_id', { mode: 'number' }),
    campaignId: bigint('campaign_id', { mode: 'number' })
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    bannerId: bigint('banner_id', { mode: 'number' })
      .notNull()
      .references(() => banners.id, { onDelete: 'cascade' }),
    source: text('source').notNull().default(''),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    charged: bigint('charged', { mode: 'bigint' }).notNull().default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('rtb_notices_bid_kind').on(t.bidId, t.kind)],
);

/** A source of an RTB partner's traffic: the site domain or app bundle its requests name, with an id for the stats. */
export const rtbSources = pgTable(
  'rtb_sources',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    partnerId: bigint('partner_id', { mode: 'number' })
      .notNull()
      .references(() => rtbPartners.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('rtb_sources_key').on(t.partnerId, t.name)],
);

/** The exchange's hourly statistics (what the rtb-stats calls sum): wins, billed impressions and spend. */
export const rtbStats = pgTable(
  'rtb_stats',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    partnerId: bigint('partner_id', { mode: 'number' }).notNull(),
    sourceId: bigint('source_id', { mode: 'number' }).notNull(),
    campaignId: bigint('campaign_id', { mode: 'number' }).notNull(),
    bannerId: bigint('banner_id', { mode: 'number' }).notNull(),
    wins: bigint('wins', { mode: 'number' }).notNull().default(0),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    spent: bigint('spent', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('rtb_stats_key').on(t.hour, t.partnerId, t.sourceId, t.campaignId, t.bannerId),
    index('rtb_stats_campaign_idx').on(t.campaignId, t.hour),
    index('rtb_stats_banner_idx').on(t.bannerId, t.hour),
    check('rtb_stats_spent_nonneg', sql`${t.spent} >= 0`),
  ],
);
