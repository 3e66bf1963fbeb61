import {
  campaign,
  campaignInput,
  campaignIpRanges,
  campaignOpenRtb,
  campaignPayment,
  campaignPaymentInput,
  campaignPaymentsQuery,
  campaignsQuery,
  campaignUpdate,
  id,
  ipImportResult,
  ownerFilter,
  paged,
  targetCtrStatus,
  withOwnerName,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { mergedBlock } from '../../lib/merge-block.ts';
import { isModerator, moderationRoute } from '../../lib/moderation.ts';
import { assertMayCreateFor } from '../../lib/owner.ts';
import { readScope } from '../../lib/scope.ts';
import { readUploadedText } from '../../lib/upload.ts';
import { visibleBy } from '../../lib/visible.ts';

const params = z.object({ id });
const CSV_MAX_BYTES = 2 * 1024 * 1024;

export const campaignsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { campaignsRepo: repo, campaigns, users } = ctx;
  app.addHook('onRequest', app.authenticate);
  await app.register(multipart, { limits: { fileSize: CSV_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  const visible = visibleBy('Campaign', repo.row);
  const canWrite = (ability: AppAbility, action: 'update' | 'delete', userId: number) =>
    assertCan(ability, action, subject('Campaign', { user_id: String(userId) }));

  app.get(
    '/campaigns',
    {
      schema: {
        tags: ['campaigns'],
        querystring: campaignsQuery.extend({ owner: ownerFilter }),
        response: { 200: paged(withOwnerName(campaign)) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Campaign');
      const scope = readScope(req.ability, 'Campaign', 'user_id');
      const userIds = await ctx.ownerNames.ownerScope(scope, req.query);
      return ctx.ownerNames.withOwnerNames(await repo.list({ ...req.query, userIds }));
    },
  );

  app.get(
    '/campaigns/:id',
    { schema: { tags: ['campaigns'], params, response: { 200: campaign } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      return (await repo.find(row.id))!;
    },
  );

  app.post(
    '/campaigns',
    {
      schema: {
        tags: ['campaigns'],
        body: z.strictObject({ campaign: campaignInput }),
        response: { 201: campaign },
      },
    },
    async (req, reply) => {
      const { user_id, ...input } = req.body.campaign;
      const ownerId = user_id ?? String(req.user!.id);
      assertMayCreateFor(req.ability, 'Campaign', ownerId, String(req.user!.id));
      // the right first: a user who may not name another owner learns nothing of which ids exist
      if (!(await users.findById(Number(ownerId)))) throw new AppError(422, 'not_found', {}, 'user_id');
      reply.code(201);
      return campaigns.create(Number(ownerId), input, isModerator(req.ability));
    },
  );

  app.put(
    '/campaigns/:id',
    {
      schema: {
        tags: ['campaigns'],
        params,
        body: z.strictObject({ campaign: campaignUpdate }),
        response: { 200: campaign },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      canWrite(req.ability, 'update', row.userId);
      // the OpenRTB block sent is merged over the stored one: its fields not sent keep their values
      const { openrtb: sent, ...rest } = req.body.campaign;
      const merged = mergedBlock(campaignOpenRtb, row.openrtb, sent, ['campaign', 'openrtb']);
      return campaigns.update(row, merged ? { ...rest, openrtb: merged } : rest, isModerator(req.ability));
    },
  );

  app.delete('/campaigns/:id', { schema: { tags: ['campaigns'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    canWrite(req.ability, 'delete', row.userId);
    await campaigns.remove(row, req.user!.id);
    return reply.code(204).send();
  });

  app.get(
    '/campaigns/:id/payments',
    {
      schema: {
        tags: ['campaigns'],
        params,
        querystring: campaignPaymentsQuery,
        response: { 200: paged(campaignPayment) },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      return campaigns.payments(row.id, req.query.page, req.query.limit, req.query.kind);
    },
  );

  app.post(
    '/campaigns/:id/payments',
    {
      schema: {
        tags: ['campaigns'],
        params,
        body: z.strictObject({ payment: campaignPaymentInput }),
        response: { 201: campaignPayment },
      },
    },
    async (req, reply) => {
      const row = await visible(req.params.id, req.ability);
      canWrite(req.ability, 'update', row.userId);
      // the entry this request wrote (not the newest of the ledger: another payment may commit first)
      const entry = await campaigns.pay(row, req.body.payment.sum, req.user!.id);
      reply.code(201);
      return entry;
    },
  );

  app.post(
    '/campaigns/:id/import-ips',
    {
      schema: {
        tags: ['campaigns'],
        params,
        consumes: ['multipart/form-data'],
        response: { 200: ipImportResult },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      canWrite(req.ability, 'update', row.userId);
      return campaigns.importIps(row, await readUploadedText(req));
    },
  );

  app.get(
    '/campaigns/:id/ip-ranges',
    { schema: { tags: ['campaigns'], params, response: { 200: campaignIpRanges } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      return { items: row.ipRanges, total: row.ipRanges.length };
    },
  );

  app.delete('/campaigns/:id/ip-ranges', { schema: { tags: ['campaigns'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    canWrite(req.ability, 'update', row.userId);
    await campaigns.clearIps(row);
    return reply.code(204).send();
  });

  app.post(
    '/campaigns/copy/:id',
    { schema: { tags: ['campaigns'], params, response: { 201: campaign } } },
    async (req, reply) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'create', subject('Campaign', { user_id: String(row.userId) }));
      reply.code(201);
      return campaigns.copy(row, isModerator(req.ability));
    },
  );

  moderationRoute(app, {
    resource: 'campaigns',
    response: campaign,
    load: visible,
    decide: (row, columns) => campaigns.moderate(row.id, columns),
  });

  app.post(
    '/campaigns/:id/check-target-ctr',
    {
      schema: {
        tags: ['campaigns'],
        params,
        response: {
          200: z.object({
            campaign,
            impressions: z.number().int(),
            clicks: z.number().int(),
            ctr: z.number(),
            passed: z.boolean(),
            /** `unchecked` when the last 7 days had fewer than `min_impressions` impressions. */
            status: targetCtrStatus,
            min_impressions: z.number().int(),
            /** Why it did not pass, in the caller's language; null when it passed. */
            message: z.string().nullable(),
          }),
        },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      canWrite(req.ability, 'update', row.userId);
      const result = await campaigns.checkTargetCtr(row);
      const message =
        result.status === 'unchecked'
          ? req.t('errors:target_ctr_not_checked')
          : result.status === 'not_passed'
            ? req.t('errors:target_ctr_not_passed')
            : null;
      return { ...result, message };
    },
  );
};
