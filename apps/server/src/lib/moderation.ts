import { type moderation, moderationDecision } from '@adp/contract';
import { type AppAbility, assertCan } from '@adp/permissions';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Moderation = z.infer<typeof moderation>;
export type ModerationDecision = z.infer<typeof moderationDecision>;
export interface ModerationColumns {
  moderation: Moderation;
  moderationReason: string | null;
}

/**
 * An update's condition: the decision changes what the row holds. A decision taken again (approving what
 * is approved) writes nothing and tells the owner nothing new.
 */
export function changesDecision(
  table: { moderation: AnyColumn; moderationReason: AnyColumn },
  columns: ModerationColumns,
): SQL {
  return sql`(${table.moderation} is distinct from ${columns.moderation} or ${table.moderationReason} is distinct from ${columns.moderationReason})`;
}

/** Admins (whoever may moderate) publish directly; everyone else waits for a moderator. */
export const isModerator = (ability: AppAbility) => ability.can('update', 'Moderation');

/** The moderation state of something new. */
export const initialModeration = (byModerator: boolean): Moderation => (byModerator ? 'approved' : 'pending');

/**
 * True when `input` changes one of `keys` from what `before` holds (values compared as JSON, so arrays
 * and objects compare by content). `before` is in the input's vocabulary.
 */
export function changesAny<K extends string>(
  before: Partial<Record<K, unknown>>,
  input: Partial<Record<K, unknown>>,
  keys: readonly K[],
): boolean {
  return keys.some((k) => input[k] !== undefined && JSON.stringify(input[k]) !== JSON.stringify(before[k]));
}

/**
 * A changed item goes back to moderation when a non-moderator changed what a moderator approved: the
 * columns to add to the update (none otherwise).
 */
export function afterChange(changed: boolean, byModerator: boolean): Partial<ModerationColumns> {
  return changed && !byModerator ? { moderation: 'pending', moderationReason: null } : {};
}

/** The columns a moderator's decision writes: approval clears an earlier rejection's reason. */
export function decisionColumns(decision: ModerationDecision): ModerationColumns {
  return decision.decision === 'approve'
    ? { moderation: 'approved', moderationReason: null }
    : { moderation: 'rejected', moderationReason: decision.reason };
}

const params = z.object({ id: z.string().regex(/^[0-9]{1,18}$/) });

/**
 * `POST /<resource>/:id/moderate` with `{decision: 'approve'}` or `{decision: 'reject', reason}`: the item
 * must be visible to the caller (else 404, by `load`), and only a moderator decides (else 403).
 */
export function moderationRoute<Row, S extends z.ZodType>(
  app: FastifyInstance,
  opts: {
    resource: string;
    response: S;
    load: (id: string, ability: AppAbility) => Promise<Row>;
    decide: (row: Row, columns: ModerationColumns) => Promise<z.infer<S>>;
  },
) {
  app.withTypeProvider<ZodTypeProvider>().post(
    `/${opts.resource}/:id/moderate`,
    // widened: fastify's reply typing cannot follow a generic schema; the serializer still checks the answer
    {
      schema: {
        tags: ['moderation'],
        params,
        body: moderationDecision,
        response: { 200: opts.response as z.ZodType },
      },
    },
    async (req) => {
      const row = await opts.load(req.params.id, req.ability);
      assertCan(req.ability, 'update', 'Moderation');
      return opts.decide(row, decisionColumns(req.body));
    },
  );
}
