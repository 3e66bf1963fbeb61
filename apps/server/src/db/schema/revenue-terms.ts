import { bigint, bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Every change of a revenue term (rates, payment method, billing widget, earn settings), for admins. */
export const revenueTermsChanges = pgTable(
  'revenue_terms_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Who changed it; null once that user is deleted (the row stays). */
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** site | widget | agency | user */
    entityType: text('entity_type').notNull(),
    /** No foreign key: the history outlives the entity. */
    entityId: bigint('entity_id', { mode: 'number' }).notNull(),
    field: text('field').notNull(),
    /** The values as the API shows them. */
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('revenue_terms_changes_entity_idx').on(t.entityType, t.entityId, t.id)],
);
