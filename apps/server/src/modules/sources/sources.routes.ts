import {
  adminBlockedSourceInput,
  blockedSource,
  blockedSourceInput,
  blockedSourceUpdate,
  id,
  paged,
  pageQuery,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { visibleBy } from '../../lib/visible.ts';

const params = z.object({ id });

/**
 * Traffic sources (SPEC.md section 4): a campaign's blocked sites and widgets. Whoever may change the
 * campaign (its owner, the owner's agency, admins) blocks, edits and unblocks; whoever may read it (readonly
 * roles too) reads; others get 404. Blocks for every campaign (`campaign_id` null) are the admins'.
 */
export const sourcesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { repo, service } = ctx.sources;
  app.addHook('onRequest', app.authenticate);
  const campaignVisible = visibleBy('Campaign', ctx.campaignsRepo.row);
  const mayChange = (ability: AppAbility, userId: number) =>
    assertCan(ability, 'update', subject('Campaign', { user_id: String(userId) }));

  /** The block named in the path, if the caller may read it (404 otherwise), and a check for changing it. */
  async function visibleBlock(blockId: string, ability: AppAbility) {
    const row = await repo.row(Number(blockId));
    if (!row) throw new AppError(404, 'not_found');
    if (row.campaignId === null) {
      if (!ability.can('read', 'TrafficBlock')) throw new AppError(404, 'not_found');
      return { row, assertChange: () => assertCan(ability, 'update', 'TrafficBlock') };
    }
    const campaign = await campaignVisible(row.campaignId, ability);
    return { row, assertChange: () => mayChange(ability, campaign.userId) };
  }

  app.get(
    '/campaigns/:id/blocked-sources',
    {
      schema: { tags: ['sources'], params, querystring: pageQuery, response: { 200: paged(blockedSource) } },
    },
    async (req) => {
      const campaign = await campaignVisible(req.params.id, req.ability);
      return repo.list({ ...req.query, campaignId: campaign.id });
    },
  );

  app.post(
    '/campaigns/:id/blocked-sources',
    {
      schema: {
        tags: ['sources'],
        params,
        body: z.strictObject({ blocked_source: blockedSourceInput }),
        response: { 200: blockedSource, 201: blockedSource },
      },
    },
    async (req, reply) => {
      const campaign = await campaignVisible(req.params.id, req.ability);
      mayChange(req.ability, campaign.userId);
      const { block, created } = await service.block(
        campaign.id,
        req.body.blocked_source,
        req.user!.id,
        req.ability.can('update', 'TrafficBlock'),
      );
      reply.code(created ? 201 : 200);
      return block;
    },
  );

  app.get(
    '/blocked-sources',
    {
      schema: {
        tags: ['sources'],
        querystring: pageQuery.extend({ campaign_id: z.union([id, z.literal('none')]).optional() }),
        response: { 200: paged(blockedSource) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'TrafficBlock');
      const { campaign_id, ...q } = req.query;
      const campaignId =
        campaign_id === undefined ? undefined : campaign_id === 'none' ? null : Number(campaign_id);
      return repo.list({ ...q, campaignId });
    },
  );

  app.post(
    '/blocked-sources',
    {
      schema: {
        tags: ['sources'],
        body: z.strictObject({ blocked_source: adminBlockedSourceInput }),
        response: { 200: blockedSource, 201: blockedSource },
      },
    },
    async (req, reply) => {
      assertCan(req.ability, 'create', 'TrafficBlock');
      const { campaign_id, ...input } = req.body.blocked_source;
      if (campaign_id !== null && !(await ctx.campaignsRepo.row(Number(campaign_id))))
        throw new AppError(422, 'not_found', {}, 'campaign_id');
      const { block, created } = await service.block(
        campaign_id === null ? null : Number(campaign_id),
        input,
        req.user!.id,
        true,
      );
      reply.code(created ? 201 : 200);
      return block;
    },
  );

  app.get(
    '/blocked-sources/:id',
    { schema: { tags: ['sources'], params, response: { 200: blockedSource } } },
    async (req) => {
      const { row } = await visibleBlock(req.params.id, req.ability);
      return (await repo.find(row.id))!;
    },
  );

  app.put(
    '/blocked-sources/:id',
    {
      schema: {
        tags: ['sources'],
        params,
        body: z.strictObject({ blocked_source: blockedSourceUpdate }),
        response: { 200: blockedSource },
      },
    },
    async (req) => {
      const { row, assertChange } = await visibleBlock(req.params.id, req.ability);
      assertChange();
      return service.edit(row, req.body.blocked_source);
    },
  );

  app.delete('/blocked-sources/:id', { schema: { tags: ['sources'], params } }, async (req, reply) => {
    const { row, assertChange } = await visibleBlock(req.params.id, req.ability);
    assertChange();
    await service.amnesty(row);
    return reply.code(204).send();
  });
};
