import { type AppAbility, type Subject, subject } from '@adp/permissions';
import { AppError } from './errors.ts';

/**
 * "Load it, or answer as if it did not exist when the caller may not read it". The loader answers the
 * row; `fields` gives what the rules of `type` look at: the owner field (`user_id` of most resources,
 * `_id` of a user) and whatever else they name (a user's `role`, an agency's `member_ids`).
 * Used for a path id it answers 404; given `field` (an id named in a body) it answers 422 on that field,
 * so a foreign id and an unknown one look the same to the caller.
 * @example const visible = visibleAs('User', users.findAccount, (a) => a); await visible(id, req.ability)
 */
export function visibleAs<Row>(
  type: Subject,
  load: (id: number) => Promise<Row | undefined>,
  fields: (row: Row) => object,
) {
  return async (id: string | number, ability: AppAbility, field?: string): Promise<Row> => {
    const row = await load(Number(id));
    if (!row || !ability.can('read', subject(type, fields(row))))
      throw field ? new AppError(422, 'not_found', {}, field) : new AppError(404, 'not_found');
    return row;
  };
}

/**
 * `visibleAs` for resources owned through `user_id`; `ownerOf` finds the owner (default `row.userId`).
 * @example const visible = visibleBy('Banner', repo.row); await visible(req.params.id, req.ability)
 */
export function visibleBy<Row>(
  type: Subject,
  load: (id: number) => Promise<Row | undefined>,
  ownerOf: (row: Row) => number | string = (row) => (row as { userId: number }).userId,
) {
  return visibleAs(type, load, (row) => ({ user_id: String(ownerOf(row)) }));
}
