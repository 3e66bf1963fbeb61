import {
  account,
  changePasswordInput,
  changeRolesInput,
  id,
  paged,
  usersQuery,
  userUpdate,
} from '@adp/contract';
import { assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { readScope } from '../../lib/scope.ts';
import { revenueTermsFor } from '../revenue-terms/revenue-terms.service.ts';
import { visibleUser } from './users.access.ts';

const params = z.object({ id });

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { users, auth } = ctx;
  const revenueTerms = revenueTermsFor(ctx.database.db);
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/users',
    { schema: { tags: ['users'], querystring: usersQuery, response: { 200: paged(account) } } },
    async (req) => {
      assertCan(req.ability, 'read', 'User');
      const scope = readScope(req.ability, 'User', '_id');
      return users.list({ ...req.query, ids: scope === 'all' ? undefined : scope.map(Number) });
    },
  );

  app.get('/users/:id', { schema: { tags: ['users'], params, response: { 200: account } } }, async (req) =>
    visibleUser(ctx, req, req.params.id),
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags: ['users'],
        params,
        body: z.strictObject({ user: userUpdate }),
        response: { 200: account },
      },
    },
    async (req) => {
      const target = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'update', subject('User', target));
      const input = req.body.user;
      if (input.notes !== undefined) assertCan(req.ability, 'update', 'AccountAdmin');
      // the referral percent is a revenue term: admins only (an unchanged value sent back is fine), logged
      revenueTerms.assertMayChange(req.ability, 'user', target, input);
      if (input.email && input.email !== target.email) {
        const taken = await users.findByEmail(input.email);
        if (taken && String(taken.id) !== target._id)
          throw new FieldsError([{ field: 'email', code: 'email_taken' }]);
      }
      if (input.currency && !(await users.currencyExists(input.currency))) {
        throw new AppError(422, 'invalid_currency', {}, 'currency');
      }
      const { earn_percent, ...rest } = input;
      const row = await users.updateProfile(Number(target._id), {
        ...rest,
        ...(earn_percent !== undefined ? { earnPercent: earn_percent.toFixed(2) } : {}),
      });
      if (!row) throw new AppError(404, 'not_found');
      const after = users.toAccount(row);
      await revenueTerms.record(req.user!.id, 'user', target._id, target, after);
      return after;
    },
  );

  app.post(
    '/users/:id/changepassword',
    { schema: { tags: ['users'], params, body: changePasswordInput } },
    async (req) => {
      const target = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'update', subject('User', target));
      const self = target._id === String(req.user!.id);
      // the current password is the proof, unless an admin sets another user's password
      if (self || !req.ability.can('update', 'AccountAdmin')) {
        const row = await users.findById(Number(target._id));
        if (
          !req.body.current_password ||
          !row ||
          !(await verifyPassword(row.passwordHash, req.body.current_password))
        ) {
          throw new AppError(422, 'current_password_wrong', {}, 'current_password');
        }
      }
      await users.update(Number(target._id), { passwordHash: await hashPassword(req.body.password) });
      // someone else set it: whoever holds the old sessions must log in again
      if (!self) await auth.revokeSessions(Number(target._id));
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/users/:id/changeroles',
    { schema: { tags: ['users'], params, body: changeRolesInput, response: { 200: account } } },
    async (req) => {
      const target = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'update', 'AccountAdmin');
      const row = await users.changeRole(Number(target._id), req.body.role);
      if (!row) throw new AppError(404, 'not_found');
      return users.toAccount(row);
    },
  );
};
