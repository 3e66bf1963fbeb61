import {
  id,
  rtbPartner,
  rtbPartnerInput,
  rtbPartnerQuery,
  rtbPartnersPage,
  rtbPartnerUpdate,
} from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { toRtbPartner } from './rtb-partners.repository.ts';

/** RTB partners, admins only (/api/rtbpartners): list, read, create, edit, new key, delete. */
export const rtbPartnersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { repo, service } = ctx.rtbPartners;
  /** A partner as `req`'s user may see it: the key whole only to those who may change partners. */
  const view = (row: Parameters<typeof toRtbPartner>[0], req: FastifyRequest) =>
    toRtbPartner(row, ctx.config.publicUrl, req.ability.can('update', 'RtbPartner'));
  app.addHook('onRequest', app.authenticate);
  const tags = ['rtbpartners'];
  const params = z.object({ id });

  app.get(
    '/rtbpartners',
    { schema: { tags, querystring: rtbPartnerQuery, response: { 200: rtbPartnersPage } } },
    async (req) => {
      assertCan(req.ability, 'read', 'RtbPartner');
      const page = await repo.list(req.query);
      return { ...page, items: page.items.map((row) => view(row, req)) };
    },
  );

  app.get('/rtbpartners/:id', { schema: { tags, params, response: { 200: rtbPartner } } }, async (req) => {
    assertCan(req.ability, 'read', 'RtbPartner');
    const row = await repo.find(Number(req.params.id));
    if (!row) throw new AppError(404, 'not_found');
    return view(row, req);
  });

  app.post(
    '/rtbpartners',
    {
      schema: { tags, body: z.object({ rtbpartner: rtbPartnerInput }), response: { 201: rtbPartner } },
    },
    async (req, reply) => {
      assertCan(req.ability, 'create', 'RtbPartner');
      return reply.code(201).send(view(await service.create(req.body.rtbpartner), req));
    },
  );

  app.put(
    '/rtbpartners/:id',
    {
      schema: {
        tags,
        params,
        body: z.object({ rtbpartner: rtbPartnerUpdate }),
        response: { 200: rtbPartner },
      },
    },
    async (req) => {
      assertCan(req.ability, 'update', 'RtbPartner');
      return view(await service.update(Number(req.params.id), req.body.rtbpartner), req);
    },
  );

  app.post(
    '/rtbpartners/:id/key',
    { schema: { tags, params, response: { 200: rtbPartner } } },
    async (req) => {
      assertCan(req.ability, 'update', 'RtbPartner');
      return view(await service.regenerateKey(Number(req.params.id)), req);
    },
  );

  app.delete('/rtbpartners/:id', { schema: { tags, params } }, async (req, reply) => {
    assertCan(req.ability, 'delete', 'RtbPartner');
    await service.remove(Number(req.params.id));
    return reply.code(204).send();
  });
};
