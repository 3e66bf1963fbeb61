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
import { hashPassword } from '../../lib/passwords.ts';
import { readScope } from '../../lib/scope.ts';
import { seesNotes, visibleUser } from './users.access.ts';

const params = z.object({ id });

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { users, auth } = ctx;
  const revenueTerms = ctx.revenueTerms;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/users',
    { schema: { tags: ['users'], querystring: usersQuery, response: { 200: paged(account) } } },
    async (req) => {
      assertCan(req.ability, 'read', 'User');
      const scope = readScope(req.ability, 'User', '_id');
      return users.list({
        ...req.query,
        ids: scope === 'all' ? undefined : scope.map(Number),
        seesNotes: seesNotes(req),
      });
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
      const { earn_percent, current_password, email, ...rest } = input;
      const newEmail = email !== undefined && email !== target.email.toLowerCase() ? email : undefined;
      // one's own address changes only with the current password and a link opened at the new address;
      // an admin sets another user's address directly. Nobody else may: an agency that set its member's
      // address could take the account over through a password reset mailed there
      const self = target._id === String(req.user!.id);
      if (newEmail && !self && !req.ability.can('update', 'AccountAdmin'))
        throw new AppError(422, 'email_change_not_allowed', {}, 'email');
      if (newEmail) {
        const taken = await users.findByEmail(newEmail);
        if (taken && String(taken.id) !== target._id)
          throw new FieldsError([{ field: 'email', code: 'email_taken' }]);
        if (self) await auth.checkCurrentPassword(req.user!, current_password, req.ip);
      }
      // an admin's own referral percent is another admin's to set (four eyes, as payments to oneself)
      if (
        self &&
        earn_percent !== undefined &&
        earn_percent.toFixed(2) !== Number(target.earn_percent ?? 0).toFixed(2)
      )
        throw new AppError(422, 'own_earn_percent', {}, 'earn_percent');
      if (rest.currency && !(await users.currencyExists(rest.currency))) {
        throw new AppError(422, 'invalid_currency', {}, 'currency');
      }
      const updated = await users.updateProfile(Number(target._id), {
        ...rest,
        ...(newEmail && !self ? { email: newEmail } : {}),
        ...(earn_percent !== undefined ? { earnPercent: earn_percent.toFixed(2) } : {}),
      });
      if (updated && newEmail && self) await auth.requestEmailChange(updated, newEmail, req.sessionFamily);
      // an admin set another user's address: the old one is told, and the user signs in afresh
      if (updated && newEmail && !self) await auth.emailSetByAdmin(updated, target.email);
      // read again when a change is pending: the answer shows the address waiting for confirmation
      const row = updated && newEmail && self ? await users.findById(updated.id) : updated;
      if (!row) throw new AppError(404, 'not_found');
      const after = users.toAccount(row, seesNotes(req));
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
        if (!row) throw new AppError(422, 'current_password_wrong', {}, 'current_password');
        await auth.checkCurrentPassword(row, req.body.current_password, req.ip);
      }
      await users.update(Number(target._id), { passwordHash: await hashPassword(req.body.password) });
      // every other session ends (a stolen one dies); the caller's own stays when it changed its own
      await auth.revokeSessions(Number(target._id), self ? req.sessionFamily : undefined);
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/users/:id/changeroles',
    { schema: { tags: ['users'], params, body: changeRolesInput, response: { 200: account } } },
    async (req) => {
      const target = await visibleUser(ctx, req, req.params.id);
      assertCan(req.ability, 'update', 'AccountAdmin');
      // an admin may not change its own role: it would lock itself out, and the last admin the platform
      // (only admins change roles, so the last one is always the caller)
      if (target._id === String(req.user!.id) && req.body.role !== target.role)
        throw new AppError(422, 'own_role_change', {}, 'role');
      const row = await users.changeRole(Number(target._id), req.body.role);
      // an agency makes its members (addmember); an admin cannot make one of a user in no agency
      if (row === 'not_a_member') throw new AppError(422, 'not_a_member', {}, 'role');
      if (!row) throw new AppError(404, 'not_found');
      return users.toAccount(row, seesNotes(req));
    },
  );
};
