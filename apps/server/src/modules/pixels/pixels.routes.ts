import { id, paged, pageQuery, pixel, pixelInput, pixelUpdate, withOwnerName } from '@adp/contract';
import { assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayCreateFor } from '../../lib/owner.ts';
import { readScope } from '../../lib/scope.ts';
import { visibleBy } from '../../lib/visible.ts';

const params = z.object({ id });

/** Remarketing pixels (SPEC.md section 2 "Pixels"); the public script and image are in delivery/pixel.routes.ts. */
export const pixelsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { users } = ctx;
  const { repo, service } = ctx.pixels;
  app.addHook('onRequest', app.authenticate);
  const visible = visibleBy('Pixel', repo.row);

  app.get(
    '/pixels',
    {
      schema: {
        tags: ['pixels'],
        querystring: pageQuery.extend({ user_id: id.optional() }),
        response: { 200: paged(withOwnerName(pixel)) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Pixel');
      const scope = readScope(req.ability, 'Pixel', 'user_id');
      const page = await repo.list({
        ...req.query,
        userIds: scope === 'all' ? undefined : scope.map(Number),
        userId: req.query.user_id ? Number(req.query.user_id) : undefined,
      });
      return ctx.ownerNames.withOwnerNames(page);
    },
  );

  app.get('/pixels/:id', { schema: { tags: ['pixels'], params, response: { 200: pixel } } }, async (req) =>
    repo.toPixel(await visible(req.params.id, req.ability)),
  );

  app.post(
    '/pixels',
    { schema: { tags: ['pixels'], body: z.strictObject({ pixel: pixelInput }), response: { 201: pixel } } },
    async (req, reply) => {
      const { user_id, ...input } = req.body.pixel;
      const ownerId = user_id ?? String(req.user!.id);
      assertMayCreateFor(req.ability, 'Pixel', ownerId, String(req.user!.id));
      // the right first: a user who may not name another owner learns nothing of which ids exist
      if (!(await users.findById(Number(ownerId)))) throw new AppError(422, 'not_found', {}, 'user_id');
      reply.code(201);
      return service.create(Number(ownerId), input);
    },
  );

  app.put(
    '/pixels/:id',
    {
      schema: {
        tags: ['pixels'],
        params,
        body: z.strictObject({ pixel: pixelUpdate }),
        response: { 200: pixel },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('Pixel', { user_id: String(row.userId) }));
      return service.update(row, req.body.pixel);
    },
  );

  app.delete('/pixels/:id', { schema: { tags: ['pixels'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    assertCan(req.ability, 'delete', subject('Pixel', { user_id: String(row.userId) }));
    await service.remove(row);
    return reply.code(204).send();
  });
};
