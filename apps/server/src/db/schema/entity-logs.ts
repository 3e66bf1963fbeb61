import { bigint, bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The generic audit log ("logs" pages of partners, DSP partners, …): one row per create, update or
 * delete of an entity, written in the same transaction as the change (modules/entity-logs).
 */
export const entityLogs = pgTable(
  'entity_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The resource's singular API name: partner, dsppartner, prebidpartner, … */
    entityType: text('entity_type').notNull(),
    /** No foreign key: the history outlives the entity. */
    entityId: bigint('entity_id', { mode: 'number' }).notNull(),
    /** Who did it; null once that user is deleted (the row stays). */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** create | update | delete */
    action: text('action').notNull(),
    /** The changed fields as the API shows them, in order: `[{ field, before, after }]`. */
    changes: jsonb('changes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('entity_logs_entity_idx').on(t.entityType, t.entityId, t.createdAt)],
);
