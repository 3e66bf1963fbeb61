import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { campaigns, sites, widgets } from './inventory.ts';
import { users } from './users.ts';

/**
 * Blocked traffic sources (SPEC.md section 4): a site or a widget (exactly one of `site_id`, `widget_id`)
 * where one campaign (or, with `campaign_id` null, every campaign: admins only) does not serve while the
 * block holds: permanently (`until` null) or until that moment. Deleting the row is the amnesty.
 */
export const blockedSources = pgTable(
  'blocked_sources',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: bigint('campaign_id', { mode: 'number' }).references(() => campaigns.id, {
      onDelete: 'cascade',
    }),
    siteId: bigint('site_id', { mode: 'number' }).references(() => sites.id, { onDelete: 'cascade' }),
    widgetId: bigint('widget_id', { mode: 'number' }).references(() => widgets.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull().default(''),
    until: timestamp('until', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('blocked_sources_campaign_idx').on(t.campaignId, t.id),
    index('blocked_sources_site_idx').on(t.siteId),
    index('blocked_sources_widget_idx').on(t.widgetId),
    check('blocked_sources_one_source', sql`(${t.siteId} is null) <> (${t.widgetId} is null)`),
  ],
);
