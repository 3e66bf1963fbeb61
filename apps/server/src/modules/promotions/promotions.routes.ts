import {
  id,
  paged,
  pageQuery,
  promotion,
  promotionInput,
  promotionPage,
  promotionPageInput,
  promotionPageUpdate,
  promotionUpdate,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { readScope } from '../../lib/scope.ts';
import { readImageStrict } from '../../lib/upload.ts';
import { visibleBy } from '../../lib/visible.ts';

const params = z.object({ id });
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Promotions of a site and their pages (SPEC.md section 2 "Promotions"). */
export const promotionsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { repo, service } = ctx.promotions;
  app.addHook('onRequest', app.authenticate);
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  const visiblePromotion = visibleBy('Promotion', repo.row);
  const visiblePage = visibleBy('PromotionPage', repo.pageRow);
  const visibleSite = visibleBy('Site', ctx.sitesRepo.row);
  const may = (
    ability: AppAbility,
    action: 'create' | 'update' | 'delete',
    kind: 'Promotion' | 'PromotionPage',
    userId: number,
  ) => assertCan(ability, action, subject(kind, { user_id: String(userId) }));

  app.get(
    '/promotions',
    {
      schema: {
        tags: ['promotions'],
        querystring: pageQuery.extend({ site_id: id.optional() }),
        response: { 200: paged(promotion) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Promotion');
      const scope = readScope(req.ability, 'Promotion', 'user_id');
      return repo.list({
        ...req.query,
        userIds: scope === 'all' ? undefined : scope.map(Number),
        siteId: req.query.site_id ? Number(req.query.site_id) : undefined,
      });
    },
  );

  app.get(
    '/promotions/:id',
    { schema: { tags: ['promotions'], params, response: { 200: promotion } } },
    async (req) => repo.toPromotion(await visiblePromotion(req.params.id, req.ability)),
  );

  app.post(
    '/promotions',
    {
      schema: {
        tags: ['promotions'],
        body: z.strictObject({ promotion: promotionInput }),
        response: { 201: promotion },
      },
    },
    async (req, reply) => {
      const { site_id, ...input } = req.body.promotion;
      const site = await visibleSite(site_id, req.ability, 'site_id');
      may(req.ability, 'create', 'Promotion', site.userId);
      reply.code(201);
      return service.create(site, input);
    },
  );

  app.put(
    '/promotions/:id',
    {
      schema: {
        tags: ['promotions'],
        params,
        body: z.strictObject({ promotion: promotionUpdate }),
        response: { 200: promotion },
      },
    },
    async (req) => {
      const row = await visiblePromotion(req.params.id, req.ability);
      may(req.ability, 'update', 'Promotion', row.userId);
      return service.update(row, req.body.promotion);
    },
  );

  app.delete('/promotions/:id', { schema: { tags: ['promotions'], params } }, async (req, reply) => {
    const row = await visiblePromotion(req.params.id, req.ability);
    may(req.ability, 'delete', 'Promotion', row.userId);
    await service.remove(row);
    return reply.code(204).send();
  });

  app.get(
    '/promotionpages',
    {
      schema: {
        tags: ['promotions'],
        querystring: pageQuery.extend({ promotion_id: id.optional() }),
        response: { 200: paged(promotionPage) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'PromotionPage');
      const scope = readScope(req.ability, 'PromotionPage', 'user_id');
      return repo.listPages({
        ...req.query,
        userIds: scope === 'all' ? undefined : scope.map(Number),
        promotionId: req.query.promotion_id ? Number(req.query.promotion_id) : undefined,
      });
    },
  );

  app.get(
    '/promotionpages/:id',
    { schema: { tags: ['promotions'], params, response: { 200: promotionPage } } },
    async (req) => repo.toPage(await visiblePage(req.params.id, req.ability)),
  );

  app.post(
    '/promotionpages',
    {
      schema: {
        tags: ['promotions'],
        body: z.strictObject({ promotionpage: promotionPageInput }),
        response: { 201: promotionPage },
      },
    },
    async (req, reply) => {
      const { promotion_id, ...input } = req.body.promotionpage;
      const parent = await visiblePromotion(promotion_id, req.ability, 'promotion_id');
      may(req.ability, 'create', 'PromotionPage', parent.userId);
      reply.code(201);
      return service.createPage(parent, input);
    },
  );

  app.put(
    '/promotionpages/:id',
    {
      schema: {
        tags: ['promotions'],
        params,
        body: z.strictObject({ promotionpage: promotionPageUpdate }),
        response: { 200: promotionPage },
      },
    },
    async (req) => {
      const row = await visiblePage(req.params.id, req.ability);
      may(req.ability, 'update', 'PromotionPage', row.userId);
      return service.updatePage(row, req.body.promotionpage);
    },
  );

  app.delete('/promotionpages/:id', { schema: { tags: ['promotions'], params } }, async (req, reply) => {
    const row = await visiblePage(req.params.id, req.ability);
    may(req.ability, 'delete', 'PromotionPage', row.userId);
    await service.removePage(row);
    return reply.code(204).send();
  });

  // SPEC.md section 7: image upload with ?type=promotion
  app.post(
    '/promotionpages/:id/image',
    {
      schema: {
        tags: ['promotions'],
        params,
        querystring: z.object({ type: z.literal('promotion').default('promotion') }),
        consumes: ['multipart/form-data'],
        response: { 200: promotionPage },
      },
    },
    async (req) => {
      const row = await visiblePage(req.params.id, req.ability);
      may(req.ability, 'update', 'PromotionPage', row.userId);
      const { bytes, type } = await readImageStrict(req, IMAGE_MAX_BYTES);
      return service.setImage(row, bytes, type);
    },
  );
};
