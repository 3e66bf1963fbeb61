import { id, paged, pageQuery, socialGroup, socialGroupInput, socialGroupUpdate } from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { readScope } from '../../lib/scope.ts';
import { visibleBy } from '../../lib/visible.ts';

const params = z.object({ id });

export const socialRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { repo, service } = ctx.social;
  app.addHook('onRequest', app.authenticate);
  const visible = visibleBy('SocialGroup', repo.row);
  const visibleSite = visibleBy('Site', ctx.sitesRepo.row);
  const may = (ability: AppAbility, action: 'create' | 'update' | 'delete', userId: number) =>
    assertCan(ability, action, subject('SocialGroup', { user_id: String(userId) }));

  app.get(
    '/socialgroups',
    {
      schema: {
        tags: ['social'],
        querystring: pageQuery.extend({ site_id: id.optional() }),
        response: { 200: paged(socialGroup) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'SocialGroup');
      const scope = readScope(req.ability, 'SocialGroup', 'user_id');
      return repo.list({
        ...req.query,
        userIds: scope === 'all' ? undefined : scope.map(Number),
        siteId: req.query.site_id ? Number(req.query.site_id) : undefined,
      });
    },
  );

  app.get(
    '/socialgroups/:id',
    { schema: { tags: ['social'], params, response: { 200: socialGroup } } },
    async (req) => repo.toGroup(await visible(req.params.id, req.ability)),
  );

  app.post(
    '/socialgroups',
    {
      schema: {
        tags: ['social'],
        body: z.strictObject({ socialgroup: socialGroupInput }),
        response: { 201: socialGroup },
      },
    },
    async (req, reply) => {
      const { site_id, ...input } = req.body.socialgroup;
      const site = await visibleSite(site_id, req.ability, 'site_id');
      may(req.ability, 'create', site.userId);
      const created = await service.create(site, input);
      reply.code(201);
      return created;
    },
  );

  app.put(
    '/socialgroups/:id',
    {
      schema: {
        tags: ['social'],
        params,
        body: z.strictObject({ socialgroup: socialGroupUpdate }),
        response: { 200: socialGroup },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      may(req.ability, 'update', row.userId);
      return service.update(row, req.body.socialgroup);
    },
  );

  app.delete('/socialgroups/:id', { schema: { tags: ['social'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    may(req.ability, 'delete', row.userId);
    await service.remove(row);
    return reply.code(204).send();
  });

  // the publishing-rights check that must succeed before autopublish can be turned on
  app.post(
    '/socialgroups/:id/check-rights',
    { schema: { tags: ['social'], params, response: { 200: socialGroup } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      may(req.ability, 'update', row.userId);
      return service.checkRights(row);
    },
  );

  app.post('/socialgroups/:id/publish', { schema: { tags: ['social'], params } }, async (req) => {
    const row = await visible(req.params.id, req.ability);
    may(req.ability, 'update', row.userId);
    return service.publish(row);
  });
};
