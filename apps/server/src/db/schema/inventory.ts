import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

// The core of the publisher's and advertiser's inventory; their issues add the remaining columns.
// They exist now because accounts need them: publishers own a site, advertisers own a campaign.

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sites_user_idx').on(t.userId)],
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
    balance: bigint('balance', { mode: 'bigint' }).notNull().default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaigns_user_idx').on(t.userId)],
);
