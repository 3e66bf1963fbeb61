import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Where a site's clicks came from (SPEC.md section 9: refreshed every 20 minutes): the clicks of each UTC
 * hour per site, widget and referring page (the page the visitor's browser named with the click, without
 * its query and fragment; '' when it named none), computed from the clicks by the `click-sources` job.
 * Hourly, so the dashboard can answer the days of any timezone.
 */
export const clickSources = pgTable(
  'click_sources',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    page: text('page').notNull(),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    invalidClicks: bigint('invalid_clicks', { mode: 'number' }).notNull().default(0),
    earned: bigint('earned', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('click_sources_key').on(t.hour, t.siteId, t.widgetId, t.page),
    index('click_sources_site_hour_idx').on(t.siteId, t.hour),
  ],
);
