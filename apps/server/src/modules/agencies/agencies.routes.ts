import {
  addMemberInput,
  agency,
  agencyInput,
  agencyMember,
  agencySettings,
  agencyUpdate,
  id,
  memberUpdate,
  paged,
  pageQuery,
  removeMemberInput,
  withOwnerName,
} from '@adp/contract';
import { type Action, assertCan, subject } from '@adp/permissions';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { assertMayCreateFor } from '../../lib/owner.ts';
import { readScope } from '../../lib/scope.ts';
import { readUploadedFile } from '../../lib/upload.ts';
import { visibleAs } from '../../lib/visible.ts';
import { createDefaults } from '../revenue-terms/revenue-terms.service.ts';
import { type AgencyRecord, toAgency, toAgencyMember } from './agencies.repository.ts';
import { LOGO_MAX_BYTES } from './agencies.service.ts';

const agencyParams = z.object({ id });
type AgencyUpdate = z.infer<typeof agencyUpdate>;

/** What CASL conditions look at: the owner and, for agency members, the member list. */
const agencyFields = (a: AgencyRecord) => ({
  _id: String(a.id),
  user_id: String(a.userId),
  member_ids: a.memberIds.map(String),
});
const asSubject = (a: AgencyRecord) => subject('Agency', agencyFields(a));

export const agenciesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { agencies } = ctx;
  const revenueTerms = ctx.revenueTerms;
  const agencyDefaults = createDefaults(agencyInput);

  /** An update of an agency's settings or rates; rates are revenue terms: admins only, logged. */
  async function update(req: FastifyRequest, found: AgencyRecord, values: AgencyUpdate) {
    const before = toAgency(found);
    revenueTerms.assertMayChange(req.ability, 'agency', before, values);
    const updated = await agencies.service.update(found.id, values);
    const after = toAgency(updated);
    await revenueTerms.record(req.user!.id, 'agency', before._id, before, after);
    // the agency is an agency group (/api/partners) too: its log has this change
    await ctx.partners.logAgencyChange(req.user!.id, found, updated);
    return after;
  }
  app.addHook('onRequest', app.authenticate);
  // only the logo route reads multipart bodies; the limit is the logo's, one file per request
  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 10, parts: 11 } });

  const visible = visibleAs('Agency', agencies.repo.findById, agencyFields);
  /** The agency if the caller may see it (else 404) and may do `action` on it (else 403). */
  async function load(req: FastifyRequest, agencyId: string, action: Action): Promise<AgencyRecord> {
    const found = await visible(agencyId, req.ability);
    if (action !== 'read') assertCan(req.ability, action, asSubject(found));
    return found;
  }

  app.get(
    '/agencies',
    {
      schema: {
        tags: ['agencies'],
        querystring: pageQuery.extend({ account: id.optional() }),
        response: { 200: paged(withOwnerName(agency)) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Agency');
      const owners = readScope(req.ability, 'Agency', 'user_id');
      const scope =
        owners === 'all'
          ? undefined
          : {
              ownerIds: owners.map(Number),
              memberIds: (readScope(req.ability, 'Agency', 'member_ids') as string[]).map(Number),
            };
      const { page, limit, account } = req.query;
      const found = await agencies.repo.list({
        page,
        limit,
        account: account ? Number(account) : undefined,
        scope,
      });
      return ctx.ownerNames.withOwnerNames(found);
    },
  );

  app.get(
    '/agencies/:id',
    { schema: { tags: ['agencies'], params: agencyParams, response: { 200: agency } } },
    async (req) => toAgency(await load(req, req.params.id, 'read')),
  );

  app.post(
    '/agencies',
    {
      schema: { tags: ['agencies'], body: z.object({ agency: agencyInput }), response: { 201: agency } },
    },
    async (req, reply) => {
      const ownerId = req.body.agency.user_id ?? String(req.user!.id);
      assertMayCreateFor(req.ability, 'Agency', ownerId, String(req.user!.id));
      revenueTerms.assertMayChange(req.ability, 'agency', agencyDefaults, req.body.agency);
      const created = toAgency(await agencies.service.create(Number(ownerId), req.body.agency));
      await revenueTerms.record(req.user!.id, 'agency', created._id, agencyDefaults, created);
      reply.code(201);
      return created;
    },
  );

  app.put(
    '/agencies/:id',
    {
      schema: {
        tags: ['agencies'],
        params: agencyParams,
        body: z.object({ agency: agencyUpdate }),
        response: { 200: agency },
      },
    },
    async (req) => {
      const found = await load(req, req.params.id, 'update');
      return update(req, found, req.body.agency);
    },
  );

  app.delete(
    '/agencies/:id',
    { schema: { tags: ['agencies'], params: agencyParams, response: { 204: z.null() } } },
    async (req, reply) => {
      const found = await load(req, req.params.id, 'delete');
      // the agency is an agency group (/api/partners) too: deleted as one, with the entry in its log
      await ctx.partners.delete(req.user!.id, found);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/agencies/:id/settings',
    {
      schema: {
        tags: ['agencies'],
        params: agencyParams,
        body: z.object({ settings: agencySettings }),
        response: { 200: agency },
      },
    },
    async (req) => {
      const found = await load(req, req.params.id, 'update');
      return update(req, found, req.body.settings);
    },
  );

  app.get(
    '/agencies/:id/members',
    {
      schema: {
        tags: ['agencies'],
        params: agencyParams,
        querystring: pageQuery,
        response: { 200: paged(agencyMember) },
      },
    },
    async (req) => {
      const found = await load(req, req.params.id, 'read');
      // a member sees its agency but not the other members' accounts; admins (readonly too) and the owner do
      if (readScope(req.ability, 'User', '_id') !== 'all') assertCan(req.ability, 'update', asSubject(found));
      return agencies.repo.listMembers(found.id, req.query);
    },
  );

  app.post(
    '/agencies/:id/addmember',
    {
      schema: {
        tags: ['agencies'],
        params: agencyParams,
        body: z.object({ member: addMemberInput }),
        response: { 201: agencyMember },
      },
    },
    async (req, reply) => {
      const found = await load(req, req.params.id, 'update');
      const user = await agencies.service.addMember(found.id, req.body.member, req.user!.locale);
      reply.code(201);
      return toAgencyMember(user);
    },
  );

  app.post(
    '/agencies/:id/removemember',
    {
      schema: {
        tags: ['agencies'],
        params: agencyParams,
        body: removeMemberInput,
        response: { 200: agency },
      },
    },
    async (req) => {
      const found = await load(req, req.params.id, 'update');
      return toAgency(await agencies.service.removeMember(found.id, Number(req.body.user_id)));
    },
  );

  app.put(
    '/agencies/:id/members/:memberId',
    {
      schema: {
        tags: ['agencies'],
        params: z.object({ id, memberId: id }),
        body: z.object({ member: memberUpdate }),
        response: { 200: agencyMember },
      },
    },
    async (req) => {
      const found = await load(req, req.params.id, 'update');
      return toAgencyMember(
        await agencies.service.updateMember(
          found,
          Number(req.params.memberId),
          req.body.member,
          req.ability.can('update', 'AccountAdmin'),
        ),
      );
    },
  );

  app.post(
    '/agencies/:id/logo',
    {
      schema: {
        tags: ['agencies'],
        params: agencyParams,
        consumes: ['multipart/form-data'],
        response: { 200: agency },
      },
    },
    async (req) => {
      const found = await load(req, req.params.id, 'update');
      const bytes = await readUploadedFile(req);
      return toAgency(await agencies.service.setLogo(found, bytes));
    },
  );
};
