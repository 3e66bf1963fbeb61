import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The FAQ and contacts pages' text, one row per page and language (SPEC.md section 2: FAQ, contacts),
 * written by admins; plain text with a few markdown-like marks the dashboard renders as text, never as HTML.
 */
export const contentPages = pgTable(
  'content_pages',
  {
    slug: text('slug').notNull(),
    locale: text('locale').notNull(),
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.slug, t.locale] })],
);
