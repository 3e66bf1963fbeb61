import { type AppAbility, assertCan, type Subject, subject } from '@adp/permissions';
import { AppError } from './errors.ts';

type Owned = Extract<Subject, 'Agency' | 'Campaign' | 'Landing' | 'Pixel' | 'Site'>;

/**
 * The right to create a `type` for `ownerId` (the body's `user_id`, else the caller). A caller who may
 * create for itself but names an owner it may not act for gets a 422 on `user_id` (DESIGN.md: a foreign id
 * is a 422 on its field), the same answer as for an id that names nobody, so it learns nothing of which
 * users exist; one who may not create at all gets the 403.
 */
export function assertMayCreateFor(ability: AppAbility, type: Owned, ownerId: string, selfId: string): void {
  if (
    ownerId !== selfId &&
    ability.can('create', subject(type, { user_id: selfId })) &&
    !ability.can('create', subject(type, { user_id: ownerId }))
  )
    throw new AppError(422, 'not_found', {}, 'user_id');
  assertCan(ability, 'create', subject(type, { user_id: ownerId }));
}
