import type { Account } from '@adp/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { visibleAs } from '../../lib/visible.ts';

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
  // what the rules read is the account itself: `_id`, and `role` for an agency's members
  const visible = visibleAs(
    'User',
    async (userId) => {
      const row = await ctx.users.findById(userId);
      return row && ctx.users.toAccount(row, seesNotes(req));
    },
    (account: Account) => account,
  );
  return visible(id, req.ability);
}
