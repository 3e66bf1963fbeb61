import type { AppAbility, Subject } from '@adp/permissions';

/**
 * Which records of a subject the caller may read, for list queries: 'all', or the ids named by the
 * rules' conditions on `field` (e.g. `user_id` for owned resources, `_id` for users).
 */
export function readScope(ability: AppAbility, subjectType: Subject, field: string): 'all' | string[] {
  const ids = new Set<string>();
  for (const rule of ability.rulesFor('read', subjectType)) {
    if (rule.inverted) continue;
    const cond = rule.conditions as Record<string, unknown> | undefined;
    if (!cond) return 'all';
    const value = cond[field];
    if (typeof value === 'string') ids.add(value);
    else if (value && typeof value === 'object' && Array.isArray((value as { $in?: unknown }).$in)) {
      for (const v of (value as { $in: unknown[] }).$in) ids.add(String(v));
    }
  }
  return [...ids];
}
