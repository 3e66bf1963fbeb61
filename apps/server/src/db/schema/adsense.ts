import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { sites } from './inventory.ts';
import { users } from './users.ts';

/**
 * One uploaded AdSense report (SPEC.md "Adsense incomes: uploaded by CSV, then approved"). `status`
 * goes uploaded → approved once: the conditional update that approves it is what credits once.
 */
export const adsenseImports = pgTable(
  'adsense_imports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fileName: text('file_name').notNull(),
    /** `current` (UTF-8 CSV) or `legacy` (UTF-16 LE, tab-separated). */
    format: text('format').notNull(),
    /** The report's currency, read from the earnings column's header, e.g. `USD`. */
    currency: text('currency').notNull(),
    status: text('status').notNull().default('uploaded'),
    uploadedBy: bigint('uploaded_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    approvedBy: bigint('approved_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('adsense_imports_created_idx').on(t.createdAt)],
);

/** One row of a report: a day's AdSense numbers of one site, and on approval its split. */
export const adsenseIncomes = pgTable(
  'adsense_incomes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    importId: bigint('import_id', { mode: 'number' })
      .notNull()
      .references(() => adsenseImports.id, { onDelete: 'cascade' }),
    /** The row's line in the file (the header is line 1). */
    line: integer('line').notNull(),
    /** YYYY-MM-DD, or null when the date did not read. */
    date: text('date'),
    /** The site, domain, URL or ad unit as the report names it. */
    source: text('source').notNull().default(''),
    siteId: bigint('site_id', { mode: 'number' }).references(() => sites.id, { onDelete: 'set null' }),
    pageViews: bigint('page_views', { mode: 'number' }).notNull().default(0),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    /** AdSense's estimated earnings in micro-units. */
    revenue: bigint('revenue', { mode: 'bigint' }).notNull().default(sql`0`),
    /** Set on approval: the publisher's share and what the platform keeps (micro-units). */
    siteIncome: bigint('site_income', { mode: 'bigint' }),
    ownIncome: bigint('own_income', { mode: 'bigint' }),
    /**
     * Set on approval: what the site's owner was credited, the share less its agency's rate (null on rows
     * approved before it was recorded).
     */
    publisherIncome: bigint('publisher_income', { mode: 'bigint' }),
    /** The row's problems as error codes with their field: a row with any is never credited. */
    errors: jsonb('errors').$type<{ field: string; code: string }[]>().notNull().default([]),
  },
  (t) => [
    index('adsense_incomes_import_idx').on(t.importId, t.line),
    index('adsense_incomes_site_date_idx').on(t.siteId, t.date),
    check('adsense_incomes_revenue_nonneg', sql`${t.revenue} >= 0`),
  ],
);

/**
 * The site days an approved import credited: one row per site and day, whichever import credited it.
 * The primary key is what stops two different imports approved at the same moment from both crediting
 * the same site's day (each transaction checks the approved imports first, but neither sees the other's
 * rows before it commits).
 */
export const adsenseCredits = pgTable(
  'adsense_credits',
  {
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    date: text('date').notNull(),
    importId: bigint('import_id', { mode: 'number' })
      .notNull()
      .references(() => adsenseImports.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.date] })],
);
