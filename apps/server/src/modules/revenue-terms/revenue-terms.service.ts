import { type RevenueTermsEntity, revenueTermsFields } from '@adp/contract';
import type { AppAbility } from '@adp/permissions';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import type { RevenueTermsRepository } from './revenue-terms.repository.ts';

type Values = Record<string, unknown>;

/** Numbers compare by value (a rate sent as 10 is the stored 10.00); everything else strictly. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 1e-9;
  return (a ?? null) === (b ?? null);
}

/** The values a create starts from: a create is a change from the schema's defaults. */
export function createDefaults(schema: z.ZodObject): Values {
  const out: Values = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    if (field instanceof z.ZodDefault) out[key] = field.def.defaultValue;
  }
  return out;
}

/**
 * Revenue terms (DESIGN.md "Security rules"): only admins change them, and every change is logged.
 * `before` is the entity as the API shows it (or the create defaults); fields sent with their stored
 * value are not a change, so a user re-saving a form that carries them does not fail.
 */
export function createRevenueTerms(repo: RevenueTermsRepository) {
  const changedFields = (entity: RevenueTermsEntity, before: Values, after: Values) =>
    (revenueTermsFields[entity] as readonly string[]).filter(
      (f) => after[f] !== undefined && !same(before[f], after[f]),
    );

  return {
    repo,

    /** 403 when a caller who may not set revenue terms sends a changed one. */
    assertMayChange(ability: AppAbility, entity: RevenueTermsEntity, before: Values, input: Values) {
      const changed = changedFields(entity, before, input);
      if (changed.length && !ability.can('update', 'RevenueTerms'))
        throw new AppError(403, 'revenue_terms_admin_only', { fields: changed.join(', ') });
    },

    /** Logs each revenue term that differs between the entity before and after a write. */
    async record(
      actorId: number,
      entity: RevenueTermsEntity,
      entityId: string,
      before: Values,
      after: Values,
    ) {
      await repo.insert(
        changedFields(entity, before, after).map((field) => ({
          actorId,
          entityType: entity,
          entityId: Number(entityId),
          field,
          before: before[field] ?? null,
          after: after[field] ?? null,
        })),
      );
    },
  };
}
export type RevenueTerms = ReturnType<typeof createRevenueTerms>;
