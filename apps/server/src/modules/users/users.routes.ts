import { account, id, paged, pageQuery } from '@adp/contract';
import { assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { readScope } from '../../lib/scope.ts';

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { users } = ctx;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/users',
    { schema: { tags: ['users'], querystring: pageQuery, response: { 200: paged(account) } } },
    async (req) => {
      assertCan(req.ability, 'read', 'User');
      const scope = readScope(req.ability, 'User', '_id');
      return users.list({ ...req.query, ids: scope === 'all' ? undefined : scope.map(Number) });
    },
  );

  app.get(
    '/users/:id',
    { schema: { tags: ['users'], params: z.object({ id }), response: { 200: account } } },
    async (req) => {
      const row = await users.findById(Number(req.params.id));
      const found = row && users.toAccount(row);
      if (!found || !req.ability.can('read', subject('User', found))) throw new AppError(404, 'not_found');
      return found;
    },
  );
};
