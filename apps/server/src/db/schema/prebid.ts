import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Prebid partners (issue 11): Prebid Servers that call us as a bidder at POST /rtb/prebid/{key}. The key
 * names the partner in its bid requests; creatives may target partners (targeting prebidPartnerId).
 */
export const prebidPartners = pgTable(
  'prebid_partners',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    /** The `{prebidPartnerKey}` of its bidder endpoint: random, unique. */
    key: text('key').notNull(),
    /** The bidder code the Prebid Server uses for us (informative). */
    bidderCode: text('bidder_code').notNull().default(''),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('prebid_partners_key').on(t.key),
    // one partner per name, in any case
    uniqueIndex('prebid_partners_name_key').on(sql`lower(${t.name})`),
  ],
);

/**
 * Hourly rows of the Prebid bidder endpoint per (hour, partner, campaign, banner, country, device):
 * bid requests, bids answered, wins (nurl), billed impressions and the money spent (micro-units).
 * 0 = none in the id columns, '' = unknown in the text ones. Prebid partner statistics read only this.
 */
export const prebidStats = pgTable(
  'prebid_stats',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    prebidPartnerId: bigint('prebid_partner_id', { mode: 'number' }).notNull(),
    campaignId: bigint('campaign_id', { mode: 'number' }).notNull(),
    bannerId: bigint('banner_id', { mode: 'number' }).notNull(),
    country: text('country').notNull(),
    device: text('device').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    bids: bigint('bids', { mode: 'number' }).notNull().default(0),
    wins: bigint('wins', { mode: 'number' }).notNull().default(0),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    spent: bigint('spent', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('prebid_stats_key').on(
      t.hour,
      t.prebidPartnerId,
      t.campaignId,
      t.bannerId,
      t.country,
      t.device,
    ),
    index('prebid_stats_partner_hour_idx').on(t.prebidPartnerId, t.hour),
    check('prebid_stats_spent_nonneg', sql`${t.spent} >= 0`),
  ],
);
