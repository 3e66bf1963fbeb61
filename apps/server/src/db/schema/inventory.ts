import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** A publisher's site. The parser settings are one JSON document: they are read and written together. */
export const sites = pgTable(
  'sites',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    domain: text('domain').notNull(),
    status: text('status').notNull().default('inactive'),
    category: text('category').notNull().default('other'),
    country: text('country'),
    language: text('language'),
    timezone: text('timezone').notNull().default('UTC'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    blacklistWords: jsonb('blacklist_words').$type<string[]>().notNull().default([]),
    materialsLifetime: integer('materials_lifetime').notNull().default(30),
    urlMask: text('url_mask').notNull().default(''),
    useNoindex: boolean('use_noindex').notNull().default(false),
    markTraffic: boolean('mark_traffic').notNull().default(false),
    advancedStats: boolean('advanced_stats').notNull().default(false),
    statsVisible: boolean('stats_visible').notNull().default(true),
    statsOnScroll: boolean('stats_on_scroll').notNull().default(false),
    strictItemsAmount: boolean('strict_items_amount').notNull().default(false),
    isInfinite: boolean('is_infinite').notNull().default(false),
    paymentMethod: text('payment_method').notNull().default('revshare'),
    /** When `payment_method` last changed: CPM pays the whole hours after it (delivery/cpm-earnings.ts). */
    paymentMethodChangedAt: timestamp('payment_method_changed_at', { withTimezone: true })
      .notNull()
      .defaultNow(),
    /** Micro-units per thousand ad impressions of a `cpm` site's widgets. */
    cpmRate: bigint('cpm_rate', { mode: 'bigint' }).notNull().default(sql`0`),
    agencyRate: numeric('agency_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    billingWidget: bigint('billing_widget', { mode: 'number' }),
    affiliateUserId: bigint('affiliate_user_id', { mode: 'number' }),
    affiliateEarnPercent: numeric('affiliate_earn_percent', { precision: 5, scale: 2 })
      .notNull()
      .default('0'),
    defaultAdvertorialUrl: text('default_advertorial_url'),
    parser: jsonb('parser').$type<Record<string, unknown>>().notNull().default({}),
    moderation: text('moderation').notNull().default('pending'),
    moderationReason: text('moderation_reason'),
    parsedAt: timestamp('parsed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sites_user_idx').on(t.userId), uniqueIndex('sites_domain_key').on(t.domain)],
);

/** Articles parsed from a site; they expire after the site's materials lifetime. */
export const materials = pgTable(
  'materials',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    image: text('image').notNull().default(''),
    category: text('category').notNull().default(''),
    language: text('language'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('materials_site_url_key').on(t.siteId, t.url),
    index('materials_expires_idx').on(t.expiresAt),
  ],
);

export const widgets = pgTable(
  'widgets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    status: text('status').notNull().default('active'),
    processor: text('processor').notNull().default('default'),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    earnProcessor: text('earn_processor').notNull().default('percent'),
    /** Percent (as micro-units of a percent) or fixed CPC in micro-units, by earn_processor. */
    earnValue: bigint('earn_value', { mode: 'bigint' }).notNull().default(sql`50000000`),
    criteoType: text('criteo_type'),
    marketplaceUrl: text('marketplace_url'),
    moderation: text('moderation').notNull().default('pending'),
    moderationReason: text('moderation_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('widgets_site_idx').on(t.siteId), index('widgets_user_idx').on(t.userId)],
);

export const promotions = pgTable(
  'promotions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    url: text('url').notNull(),
    status: text('status').notNull().default('active'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('promotions_site_idx').on(t.siteId)],
);

export const promotionPages = pgTable(
  'promotion_pages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    promotionId: bigint('promotion_id', { mode: 'number' })
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    text: text('text').notNull().default(''),
    image: text('image'),
    url: text('url').notNull(),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('promotion_pages_promotion_idx').on(t.promotionId)],
);

export const socialGroups = pgTable(
  'social_groups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    facebookPageId: text('facebook_page_id').notNull(),
    accessToken: text('access_token').notNull().default(''),
    autopublish: boolean('autopublish').notNull().default(false),
    rightsCheckedAt: timestamp('rights_checked_at', { withTimezone: true }),
    validDays: integer('valid_days').notNull().default(3),
    useDescription: boolean('use_description').notNull().default(true),
    categoryBlacklist: text('category_blacklist').notNull().default(''),
    dateOrder: text('date_order').notNull().default('desc'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('social_groups_site_idx').on(t.siteId)],
);

/** What was posted where, so the job never posts a material twice to one page. */
export const socialPosts = pgTable(
  'social_posts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => socialGroups.id, { onDelete: 'cascade' }),
    materialId: bigint('material_id', { mode: 'number' })
      .notNull()
      .references(() => materials.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('social_posts_group_material_key').on(t.groupId, t.materialId)],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    status: text('status').notNull().default('inactive'),
    /** Integer micro-units; changes only through campaign_ledger, only while the campaign is off. */
    balance: bigint('balance', { mode: 'bigint' }).notNull().default(sql`0`),
    adstype: text('adstype').notNull().default('default'),
    clickprice: bigint('clickprice', { mode: 'bigint' }).notNull().default(sql`0`),
    dailyclicks: integer('dailyclicks').notNull().default(0),
    /** Spend per day at most, micro-units; null = no limit. */
    dailyBudget: bigint('daily_budget', { mode: 'bigint' }),
    /** How a daily limit is spent: `even` over the day, or `asap` (as fast as traffic allows). */
    pacing: text('pacing').notNull().default('even'),
    weight: integer('weight').notNull().default(100),
    clickFilter: text('click_filter').notNull().default('onetoone'),
    utm: text('utm').notNull().default(''),
    trackUrls: jsonb('track_urls').$type<string[]>().notNull().default([]),
    srcCode: text('src_code').notNull().default(''),
    siteId: bigint('site_id', { mode: 'number' }),
    widgetIds: jsonb('widget_ids').$type<string[]>().notNull().default([]),
    brandName: text('brand_name').notNull().default(''),
    subCategory: text('sub_category').notNull().default(''),
    /** IAB content category codes (IAB 1.0: `IAB7`, `IAB7-39`): what the bidder's `bcat` check reads. */
    iabCategories: jsonb('iab_categories').$type<string[]>().notNull().default([]),
    cpcFeedProcessor: text('cpc_feed_processor'),
    hideClicksSites: boolean('hide_clicks_sites').notNull().default(false),
    onImageLoad: boolean('on_image_load').notNull().default(false),
    openrtb: jsonb('openrtb').$type<Record<string, unknown>>().notNull().default({}),
    targetCtrStatus: text('target_ctr_status').notNull().default('unchecked'),
    targetCtrCheckDate: timestamp('target_ctr_check_date', { withTimezone: true }),
    /** IP ranges imported by CSV; they narrow every creative of the campaign. */
    ipRanges: jsonb('ip_ranges').$type<string[]>().notNull().default([]),
    moderation: text('moderation').notNull().default('pending'),
    moderationReason: text('moderation_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_user_idx').on(t.userId),
    uniqueIndex('campaigns_title_key').on(sql`lower(${t.title})`),
    check('campaigns_balance_nonnegative', sql`${t.balance} >= 0`),
  ],
);

/** The campaign side of every campaign balance movement (the owner's side is in `ledger`). */
export const campaignLedger = pgTable(
  'campaign_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: bigint('campaign_id', { mode: 'number' })
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    sum: bigint('sum', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'bigint' }).notNull(),
    actorId: bigint('actor_id', { mode: 'number' }),
    ref: text('ref'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaign_ledger_campaign_idx').on(t.campaignId, t.createdAt)],
);

export const banners = pgTable(
  'banners',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: bigint('campaign_id', { mode: 'number' })
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    text: text('text').notNull().default(''),
    url: text('url').notNull(),
    status: text('status').notNull().default('active'),
    targeting: jsonb('targeting').$type<Record<string, unknown>>().notNull().default({}),
    /** Storage keys of the resized images by format. */
    images: jsonb('images').$type<Record<string, string>>(),
    video: text('video'),
    moderation: text('moderation').notNull().default('pending'),
    moderationReason: text('moderation_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('banners_campaign_idx').on(t.campaignId), index('banners_user_idx').on(t.userId)],
);

export const pixels = pgTable(
  'pixels',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    allPages: boolean('all_pages').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pixels_user_idx').on(t.userId)],
);

/** A pixel's audience: one row per visitor (our visitor cookie id). */
export const pixelVisitors = pgTable(
  'pixel_visitors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    pixelId: bigint('pixel_id', { mode: 'number' })
      .notNull()
      .references(() => pixels.id, { onDelete: 'cascade' }),
    visitorId: text('visitor_id').notNull(),
    lastUrl: text('last_url').notNull().default(''),
    visits: integer('visits').notNull().default(1),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull().defaultNow(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pixel_visitors_key').on(t.pixelId, t.visitorId),
    index('pixel_visitors_visitor_idx').on(t.visitorId),
  ],
);

export const landings = pgTable(
  'landings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    status: text('status').notNull().default('inactive'),
    headline: text('headline').notNull().default(''),
    description: text('description').notNull().default(''),
    form: jsonb('form').$type<Record<string, unknown>>().notNull().default({}),
    html: text('html'),
    generatedAt: timestamp('generated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('landings_user_idx').on(t.userId), uniqueIndex('landings_slug_key').on(t.slug)],
);

/**
 * Images uploaded for a landing's page (storage keys under `landings/`): which landing owns each file, so
 * the files go when the landing goes and when its page stops showing them.
 */
export const landingImages = pgTable(
  'landing_images',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    landingId: bigint('landing_id', { mode: 'number' })
      .notNull()
      .references(() => landings.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('landing_images_landing_idx').on(t.landingId), uniqueIndex('landing_images_key').on(t.key)],
);

/** Form submissions of a landing page. */
export const landingLeads = pgTable(
  'landing_leads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    landingId: bigint('landing_id', { mode: 'number' })
      .notNull()
      .references(() => landings.id, { onDelete: 'cascade' }),
    data: jsonb('data').$type<Record<string, string>>().notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('landing_leads_landing_idx').on(t.landingId, t.createdAt)],
);
