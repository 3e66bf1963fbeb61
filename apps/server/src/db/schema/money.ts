import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every balance movement, written in the same transaction as the balance change: a user's balance always
 * equals the sum of its ledger. `sum` is signed micro-units; `balance_after` makes audits cheap.
 */
export const ledger = pgTable(
  'ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    type: text('type').notNull(),
    sum: bigint('sum', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'bigint' }).notNull(),
    source: text('source').notNull().default(''),
    /** Who caused it: an admin, the user, or null for the platform itself (delivery, jobs). */
    actorId: bigint('actor_id', { mode: 'number' }),
    /** What it belongs to, e.g. `topup:12`, `withdrawal:3`, `campaign:7`. */
    ref: text('ref'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_user_created_idx').on(t.userId, t.createdAt),
    index('ledger_ref_idx').on(t.ref),
    check('ledger_sum_nonzero', sql`${t.sum} <> 0`),
  ],
);

/** A top-up through a payment provider: credited once, when the provider confirms. */
export const topups = pgTable(
  'topups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: text('provider').notNull(),
    sum: bigint('sum', { mode: 'bigint' }).notNull(),
    /** pending → paid | failed */
    status: text('status').notNull().default('pending'),
    /** Unguessable token of the sandbox page link (the browser has no bearer token there). */
    token: text('token').notNull(),
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('topups_user_idx').on(t.userId),
    uniqueIndex('topups_external_key').on(t.provider, t.externalId),
    check('topups_sum_positive', sql`${t.sum} > 0`),
  ],
);

/** Provider webhook events already handled: the same event delivered twice credits once. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A payout request: the amount is reserved (taken from the balance) until an admin pays or rejects it. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    sum: bigint('sum', { mode: 'bigint' }).notNull(),
    method: text('method').notNull(),
    details: text('details').notNull(),
    /** pending → paid | rejected */
    status: text('status').notNull().default('pending'),
    reference: text('reference'),
    reason: text('reason'),
    decidedBy: bigint('decided_by', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('withdrawals_user_idx').on(t.userId), index('withdrawals_status_idx').on(t.status)],
);

/** Display currencies; amounts are stored in the platform currency and converted with `rate`. */
export const currencies = pgTable(
  'currencies',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    symbol: text('symbol').notNull(),
    /** Units of this currency per one unit of the platform currency; null until known. */
    rate: numeric('rate', { precision: 24, scale: 10 }),
    rateSource: text('rate_source'),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('currencies_code_key').on(t.code)],
);

/** Scheduled jobs: one row each, claimed atomically so only one instance runs a job per period. */
export const jobs = pgTable('jobs', {
  name: text('name').primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  lastResult: text('last_result'),
});
