import { bigint, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { campaigns } from './inventory.ts';
import { users } from './users.ts';

/**
 * Campaigns whose owner has been told that the balance fell below the low-balance threshold: one row per
 * crossing. The low-balance job adds the row with its notification, and removes it once the balance is
 * back at or above the threshold, so the next fall is told again (once per crossing, never per click).
 */
export const balanceAlerts = pgTable('balance_alerts', {
  campaignId: bigint('campaign_id', { mode: 'number' })
    .primaryKey()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Advertiser accounts whose owner has been told that the account balance fell below the account
 * threshold (LOW_ACCOUNT_BALANCE): one row per crossing, removed once the balance is back at or above it.
 */
export const accountBalanceAlerts = pgTable('account_balance_alerts', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
