import type { Role } from '@adp/contract';
import { type AppAbility, abilityFor } from '@adp/permissions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema/index.ts';
import { AppError } from '../lib/errors.ts';
import { refuseDuringMaintenance } from '../modules/system/maintenance.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    ability: AppAbility;
    /** The caller's session (refresh token family), kept when the caller's own change ends the others. */
    sessionFamily: string | undefined;
  }
  interface FastifyInstance {
    /** onRequest hook for route trees that need a logged-in caller. */
    authenticate: (req: FastifyRequest) => Promise<void>;
  }
}

/**
 * Reads the bearer token and loads the caller on every request, so a changed role or a removed user
 * takes effect at once rather than when the access token expires.
 */
export const authenticatePlugin = fp(async (app: FastifyInstance, opts: { ctx: AppContext }) => {
  const { auth, users, agencies } = opts.ctx;
  app.decorateRequest('user', null);
  app.decorateRequest('ability', null as unknown as AppAbility);
  app.decorateRequest('sessionFamily', undefined);
  app.addHook('onRequest', async (req) => {
    req.ability = abilityFor(null);
  });
  app.decorate('authenticate', async (req: FastifyRequest) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const claims = match?.[1] ? await auth.verifyAccessToken(match[1]) : undefined;
    const user = claims ? await users.findById(claims.userId) : undefined;
    if (!user) throw new AppError(401, 'unauthorized');
    // the maintenance switch: only admins keep working (503 for everyone else's dashboard calls)
    await refuseDuringMaintenance(opts.ctx.settings, user.role);
    req.user = user;
    req.sessionFamily = claims?.familyId;
    // an agency's rules cover the members of the agencies it owns: one query, for agency users only
    const memberIds = user.role === 'agency' ? await agencies.repo.memberIdsOfOwner(user.id) : [];
    req.ability = abilityFor({ id: String(user.id), role: user.role as Role, memberIds });
  });
});
