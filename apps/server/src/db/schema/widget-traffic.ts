import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Widget answers per hour: `requests` is how many answers the serve calls gave (bots left out),
 * `rendered` how many of them the embed script reported drawn (their impression beacon). Counted in
 * memory by delivery and written by its periodic flush; the impression rate reads it.
 */
export const widgetTraffic = pgTable(
  'widget_traffic',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(sql`0`),
    rendered: bigint('rendered', { mode: 'number' }).notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('widget_traffic_key').on(t.hour, t.siteId, t.widgetId),
    index('widget_traffic_site_hour_idx').on(t.siteId, t.hour),
  ],
);

/**
 * A site's own materials (parsed articles) shown in its widgets, per hour and widget: impressions (the
 * answer's impression beacon) and clicks (the embed script's click beacon; the link goes to the article
 * itself). Counted in memory by delivery and written by its periodic flush; top articles read it.
 */
export const materialStats = pgTable(
  'material_stats',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    widgetId: bigint('widget_id', { mode: 'number' }).notNull(),
    materialId: bigint('material_id', { mode: 'number' }).notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(sql`0`),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('material_stats_key').on(t.hour, t.siteId, t.widgetId, t.materialId),
    index('material_stats_site_hour_idx').on(t.siteId, t.hour),
  ],
);
