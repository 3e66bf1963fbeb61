import {
  id,
  landing,
  landingGenerate,
  landingImage,
  landingInput,
  landingLead,
  landingUpdate,
  paged,
  pageQuery,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayCreateFor } from '../../lib/owner.ts';
import { readScope } from '../../lib/scope.ts';
import { readImageStrict } from '../../lib/upload.ts';
import { visibleBy } from '../../lib/visible.ts';

const params = z.object({ id });
/** The largest image a landing page takes (SPEC.md section 7 "dash landing upload"). */
export const LANDING_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Landing pages with their form, generated page and leads (SPEC.md section 2 "Landings"). */
export const landingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { users } = ctx;
  const { repo, service } = ctx.landings;
  await app.register(multipart, {
    limits: { fileSize: LANDING_IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6 },
  });
  app.addHook('onRequest', app.authenticate);
  const visible = visibleBy('Landing', repo.row);
  const may = (ability: AppAbility, action: 'create' | 'update' | 'delete', userId: number | string) =>
    assertCan(ability, action, subject('Landing', { user_id: String(userId) }));

  app.get(
    '/landings',
    {
      schema: {
        tags: ['landings'],
        querystring: pageQuery.extend({ user_id: id.optional() }),
        response: { 200: paged(landing) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Landing');
      const scope = readScope(req.ability, 'Landing', 'user_id');
      return service.list({
        ...req.query,
        userIds: scope === 'all' ? undefined : scope.map(Number),
        userId: req.query.user_id ? Number(req.query.user_id) : undefined,
      });
    },
  );

  app.get(
    '/landings/:id',
    { schema: { tags: ['landings'], params, response: { 200: landing } } },
    async (req) => service.toLanding(await visible(req.params.id, req.ability)),
  );

  app.post(
    '/landings',
    {
      schema: {
        tags: ['landings'],
        body: z.strictObject({ landing: landingInput }),
        response: { 201: landing },
      },
    },
    async (req, reply) => {
      const { user_id, ...input } = req.body.landing;
      const ownerId = user_id ?? String(req.user!.id);
      assertMayCreateFor(req.ability, 'Landing', ownerId, String(req.user!.id));
      // the right first: a user who may not name another owner learns nothing of which ids exist
      if (!(await users.findById(Number(ownerId)))) throw new AppError(422, 'not_found', {}, 'user_id');
      reply.code(201);
      return service.create(Number(ownerId), input);
    },
  );

  app.put(
    '/landings/:id',
    {
      schema: {
        tags: ['landings'],
        params,
        body: z.strictObject({ landing: landingUpdate }),
        response: { 200: landing },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      may(req.ability, 'update', row.userId);
      return service.update(row, req.body.landing, req.locale);
    },
  );

  app.delete('/landings/:id', { schema: { tags: ['landings'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    may(req.ability, 'delete', row.userId);
    await service.remove(row);
    return reply.code(204).send();
  });

  // SPEC.md section 7: "generate POST with user_id and page_id" (page_id is the landing's id)
  app.post(
    '/landings/generate',
    { schema: { tags: ['landings'], body: landingGenerate, response: { 200: landing } } },
    async (req) => {
      const row = await visible(req.body.page_id, req.ability);
      if (String(row.userId) !== req.body.user_id) throw new AppError(404, 'not_found');
      may(req.ability, 'update', row.userId);
      return service.generate(row, req.body.locale ?? req.locale);
    },
  );

  app.get(
    '/landings/:id/leads',
    {
      schema: {
        tags: ['landings'],
        params,
        querystring: pageQuery,
        response: { 200: paged(landingLead) },
      },
    },
    async (req) => service.leads(await visible(req.params.id, req.ability), req.query),
  );

  app.get(
    '/landings/:id/leads.csv',
    { schema: { tags: ['landings'], params, produces: ['text/csv'] } },
    async (req, reply) => {
      const row = await visible(req.params.id, req.ability);
      const csv = await service.leadsCsv(row, req.t('landingpage:csv_date'));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="landing-${row.id}-leads.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  // SPEC.md section 7: "dash landing upload": an image for the landing's page (its owner or an admin);
  // answers the image's public address for the page's HTML
  app.post(
    '/landings/:id/images',
    {
      schema: {
        tags: ['landings'],
        params,
        consumes: ['multipart/form-data'],
        response: { 201: landingImage },
      },
    },
    async (req, reply) => {
      const row = await visible(req.params.id, req.ability);
      may(req.ability, 'update', row.userId);
      const { bytes, type } = await readImageStrict(req, LANDING_IMAGE_MAX_BYTES);
      reply.code(201);
      return service.storeImage(row, bytes, type);
    },
  );
};
