import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  char,
  check,
  index,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('default'),
    /** Integer micro-units of the platform currency; the ledger (accounts issue) explains every change. */
    balance: bigint('balance', { mode: 'bigint' }).notNull().default(sql`0`),
    currency: char('currency', { length: 3 }).notNull().default('USD'),
    notes: text('notes').notNull().default(''),
    affiliateId: text('affiliate_id').notNull(),
    referrerId: bigint('referrer_id', { mode: 'number' }),
    earnPercent: numeric('earn_percent', { precision: 5, scale: 2 }).notNull().default('0'),
    locale: text('locale').notNull().default('en'),
    /** The user's IANA timezone for statistics and dates; null = the browser's. */
    timezone: text('timezone'),
    /**
     * When a self-registered user's statistics start to show (registration + 24 hours, SPEC.md section 9);
     * null for everyone else (created by an admin or an agency, or from before the rule).
     */
    statsAvailableAt: timestamp('stats_available_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_affiliate_id_key').on(t.affiliateId),
    index('users_referrer_id_idx').on(t.referrerId),
    check('users_balance_nonnegative', sql`${t.balance} >= 0`),
    check(
      'users_role_known',
      sql`${t.role} in ('dummy','admin','adminreadonly','default','defaultreadonly','agency','agencymember')`,
    ),
  ],
);
export type UserRow = typeof users.$inferSelect;
