import {
  bigint,
  bigserial,
  boolean,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const agencies = pgTable(
  'agencies',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    logo: text('logo'),
    agencyRate: numeric('agency_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    phoenixRate: numeric('phoenix_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    campaignRate: numeric('campaign_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    showlogo: boolean('showlogo').notNull().default(true),
    showamount: boolean('showamount').notNull().default(true),
    /** An admin's switch: an inactive group's rates (agency, phoenix, campaign) pay nobody. */
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agencies_user_idx').on(t.userId)],
);

export const agencyMembers = pgTable(
  'agency_members',
  {
    agencyId: bigint('agency_id', { mode: 'number' })
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.userId] }),
    uniqueIndex('agency_members_user_key').on(t.userId),
  ],
);
