import {
  confirmEmailInput,
  confirmEmailResponse,
  forgotPasswordInput,
  meResponse,
  oauthError,
  registerInput,
  registerResponse,
  resetPasswordInput,
  revokeRequest,
  tokenRequest,
  tokenResponse,
} from '@adp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { refuseDuringMaintenance } from '../system/maintenance.ts';
import { seesNotes } from '../users/users.access.ts';

const ok = z.object({ status: z.literal('ok') });

/** OAuth-style endpoints take form bodies (SPEC.md section 7); the others take JSON. */
export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { auth, users } = ctx;
  // while the maintenance switch is on, only admins log in; registration and password mail wait
  const closedInMaintenance = async () => refuseDuringMaintenance(ctx.settings, null);
  app.post(
    '/auth/token',
    {
      // a body it cannot read is answered in OAuth's words (400 invalid_request), as its schema says; fields
      // it can read but refuses are 422 on the field, as everywhere in the API (the login form shows them)
      config: { oauth: true },
      schema: {
        tags: ['auth'],
        security: [],
        consumes: ['application/x-www-form-urlencoded'],
        body: tokenRequest,
        response: { 200: tokenResponse, 400: oauthError },
      },
    },
    async (req) => {
      const body = req.body;
      // a refresh during maintenance is refused before the token is spent: the session outlives the
      // maintenance (its access token keeps working once it ends), as a refused login makes none
      // (the token's owner is looked up only while the switch is on: a refresh otherwise reads it once)
      if (body.grant_type === 'refresh_token' && (await ctx.settings.maintenance()).enabled) {
        const role = await auth.refreshRole(body.refresh_token);
        if (role) await refuseDuringMaintenance(ctx.settings, role);
      }
      const answer =
        body.grant_type === 'password'
          ? await auth.login(body.username, body.password, req.ip)
          : await auth.refresh(body.refresh_token);
      try {
        await refuseDuringMaintenance(ctx.settings, answer.role);
      } catch (err) {
        // no session outlives the refusal
        await auth.revoke(answer.refresh_token);
        throw err;
      }
      return answer;
    },
  );

  app.post(
    '/auth/revoke',
    {
      config: { oauth: true },
      schema: {
        tags: ['auth'],
        security: [],
        consumes: ['application/x-www-form-urlencoded'],
        body: revokeRequest,
      },
    },
    async (req) => {
      await auth.revoke(req.body.token);
      return {};
    },
  );

  app.post(
    '/auth/register',
    {
      onRequest: closedInMaintenance,
      schema: { tags: ['auth'], security: [], body: registerInput, response: { 201: registerResponse } },
    },
    async (req, reply) => {
      reply.code(201);
      return auth.register(req.body, req.locale);
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      onRequest: closedInMaintenance,
      schema: { tags: ['auth'], security: [], body: forgotPasswordInput, response: { 200: ok } },
    },
    async (req) => {
      await auth.forgotPassword(req.body.email, req.locale);
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      onRequest: closedInMaintenance,
      schema: { tags: ['auth'], security: [], body: resetPasswordInput, response: { 200: ok } },
    },
    async (req) => {
      await auth.resetPassword(req.body.token, req.body.password);
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/auth/confirm-email',
    {
      onRequest: closedInMaintenance,
      schema: {
        tags: ['auth'],
        security: [],
        body: confirmEmailInput,
        response: { 200: confirmEmailResponse },
      },
    },
    async (req) => {
      const { email } = await auth.confirmEmailChange(req.body.token);
      return { status: 'ok' as const, email };
    },
  );

  app.get(
    '/auth/me',
    {
      onRequest: app.authenticate,
      schema: { tags: ['auth'], security: [{ bearer: [] }], response: { 200: meResponse } },
    },
    async (req) => {
      const user = req.user!;
      return {
        account: users.toAccount(user, seesNotes(req)),
        // the rules authenticate built for this request, agency members included
        ability: req.ability.rules,
        agency: user.role === 'agencymember' ? await ctx.agencies.service.memberView(user.id) : null,
      };
    },
  );
};
