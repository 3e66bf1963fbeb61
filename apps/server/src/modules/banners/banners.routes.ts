import {
  banner,
  bannerInput,
  bannerUpdate,
  id,
  ipImportResult,
  moderation,
  paged,
  pageQuery,
  targeting,
  withOwnerName,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { mergedBlock } from '../../lib/merge-block.ts';
import { isModerator, moderationRoute } from '../../lib/moderation.ts';
import { readScope } from '../../lib/scope.ts';
import { readUploadedFile, readUploadedText } from '../../lib/upload.ts';
import { visibleBy } from '../../lib/visible.ts';

const params = z.object({ id });
const VIDEO_MAX_BYTES = 50 * 1024 * 1024;

/** Creatives of a campaign (SPEC.md sections 2, 3 and 7: payload `banner`, copy, image and video upload). */
export const bannersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { repo, service } = ctx.banners;
  app.addHook('onRequest', app.authenticate);
  await app.register(multipart, { limits: { fileSize: VIDEO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  const visible = visibleBy('Banner', repo.row);
  const visibleCampaign = visibleBy('Campaign', ctx.campaignsRepo.row);
  const writable = (ability: AppAbility, row: { userId: number }, action: 'update' | 'delete' | 'create') =>
    assertCan(ability, action, subject('Banner', { user_id: String(row.userId) }));

  app.get(
    '/banners',
    {
      schema: {
        tags: ['banners'],
        querystring: pageQuery.extend({ campaign_id: id.optional(), moderation: moderation.optional() }),
        response: { 200: paged(withOwnerName(banner)) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Banner');
      const scope = readScope(req.ability, 'Banner', 'user_id');
      const page = await repo.list({
        ...req.query,
        userIds: scope === 'all' ? undefined : scope.map(Number),
        campaignId: req.query.campaign_id ? Number(req.query.campaign_id) : undefined,
      });
      return ctx.ownerNames.withOwnerNames(page);
    },
  );

  app.get('/banners/:id', { schema: { tags: ['banners'], params, response: { 200: banner } } }, async (req) =>
    repo.toBanner(await visible(req.params.id, req.ability)),
  );

  app.post(
    '/banners',
    {
      schema: { tags: ['banners'], body: z.strictObject({ banner: bannerInput }), response: { 201: banner } },
    },
    async (req, reply) => {
      const { campaign_id, ...input } = req.body.banner;
      const campaign = await visibleCampaign(campaign_id, req.ability, 'campaign_id');
      writable(req.ability, campaign, 'create');
      reply.code(201);
      return service.create(campaign, input, isModerator(req.ability));
    },
  );

  app.put(
    '/banners/:id',
    {
      schema: {
        tags: ['banners'],
        params,
        body: z.strictObject({ banner: bannerUpdate }),
        response: { 200: banner },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row, 'update');
      // the targeting sent is merged over the stored one: the dimensions not sent keep theirs
      const { targeting: sent, ...rest } = req.body.banner;
      const merged = mergedBlock(targeting, row.targeting, sent, ['banner', 'targeting']);
      return service.update(row, merged ? { ...rest, targeting: merged } : rest, isModerator(req.ability));
    },
  );

  app.delete('/banners/:id', { schema: { tags: ['banners'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    writable(req.ability, row, 'delete');
    await service.remove(row);
    return reply.code(204).send();
  });

  app.post(
    '/banners/copy/:id',
    { schema: { tags: ['banners'], params, response: { 201: banner } } },
    async (req, reply) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row, 'create');
      reply.code(201);
      return service.copy(row, isModerator(req.ability));
    },
  );

  // SPEC.md section 7: POST /banners/{id}?type=edit|new&kind=image|video (multipart, field `file`)
  app.post(
    '/banners/:id',
    {
      schema: {
        tags: ['banners'],
        params,
        querystring: z.object({
          type: z.enum(['edit', 'new']).default('edit'),
          kind: z.enum(['image', 'video']).default('image'),
        }),
        consumes: ['multipart/form-data'],
        response: { 200: banner },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row, 'update');
      return service.upload(row, req.query.kind, await readUploadedFile(req), isModerator(req.ability));
    },
  );

  // the creative's video goes (an upload puts a new one)
  app.delete(
    '/banners/:id/video',
    { schema: { tags: ['banners'], params, response: { 200: banner } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row, 'update');
      return service.removeVideo(row);
    },
  );

  app.post(
    '/banners/:id/import-ips',
    {
      schema: {
        tags: ['banners'],
        params,
        consumes: ['multipart/form-data'],
        response: { 200: ipImportResult },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row, 'update');
      return service.importIps(row, await readUploadedText(req));
    },
  );

  moderationRoute(app, { resource: 'banners', response: banner, load: visible, decide: service.moderate });
};
