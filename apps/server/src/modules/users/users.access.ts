import type { Account } from '@adp/contract';
import { subject } from '@adp/permissions';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';

/** Admin notes about a user are for admins only (admin, adminreadonly): every answer asks this. */
export function seesNotes(req: FastifyRequest): boolean {
  return req.ability.can('read', 'AccountAdmin');
}

/** The account behind a `/users/<id>/…` path, or 404 when it does not exist or the caller may not see it. */
export async function visibleUser(
  ctx: Pick<AppContext, 'users'>,
  req: FastifyRequest,
  id: string,
): Promise<Account> {
  const row = await ctx.users.findById(Number(id));
  const account = row && ctx.users.toAccount(row, seesNotes(req));
  if (!account || !req.ability.can('read', subject('User', account))) throw new AppError(404, 'not_found');
  return account;
}
