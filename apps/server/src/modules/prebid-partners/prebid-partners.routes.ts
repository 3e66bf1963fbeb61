import {
  id,
  paged,
  prebidPartner,
  prebidPartnerInput,
  prebidPartnersQuery,
  prebidPartnerUpdate,
  prebidStatsAnswer,
  prebidStatsColumns,
  prebidStatsQuery,
  statsFileQuery,
  statsRange,
} from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { registerEntityLogsRoute } from '../entity-logs/entity-logs.routes.ts';
import { sendColumnsFile } from '../stats/stats-export.ts';
import { PREBID_PARTNER_LOG } from './prebid-partners.service.ts';

const params = z.object({ id });
const tags = ['prebidpartners'];

/**
 * Prebid partners, admin only: CRUD (payload `prebidpartner`, paged list), the audit log, statistics by
 * date (/stats) and by campaign, country or device (/v2/stats?group=…) from the bidder endpoint's rows.
 */
export const prebidPartnersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = ctx.prebidPartners;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/prebidpartners',
    { schema: { tags, querystring: prebidPartnersQuery, response: { 200: paged(prebidPartner) } } },
    async (req) => {
      assertCan(req.ability, 'read', 'PrebidPartner');
      return service.repo.list(req.query, req.ability.can('update', 'PrebidPartner'));
    },
  );

  app.get(
    '/prebidpartners/:id',
    { schema: { tags, params, response: { 200: prebidPartner } } },
    async (req) => {
      assertCan(req.ability, 'read', 'PrebidPartner');
      const row = await service.load(Number(req.params.id));
      return service.view(row, req.ability.can('update', 'PrebidPartner'));
    },
  );

  app.post(
    '/prebidpartners',
    {
      schema: {
        tags,
        body: z.object({ prebidpartner: prebidPartnerInput }),
        response: { 201: prebidPartner },
      },
    },
    async (req, reply) => {
      assertCan(req.ability, 'create', 'PrebidPartner');
      const created = await service.create(req.user!.id, req.body.prebidpartner);
      reply.code(201);
      return created;
    },
  );

  app.put(
    '/prebidpartners/:id',
    {
      schema: {
        tags,
        params,
        body: z.object({ prebidpartner: prebidPartnerUpdate }),
        response: { 200: prebidPartner },
      },
    },
    async (req) => {
      assertCan(req.ability, 'update', 'PrebidPartner');
      const found = await service.load(Number(req.params.id));
      return service.update(req.user!.id, found, req.body.prebidpartner);
    },
  );

  app.delete(
    '/prebidpartners/:id',
    { schema: { tags, params, response: { 204: z.null() } } },
    async (req, reply) => {
      assertCan(req.ability, 'delete', 'PrebidPartner');
      await service.delete(req.user!.id, await service.load(Number(req.params.id)));
      return reply.code(204).send(null);
    },
  );

  registerEntityLogsRoute(app, {
    list: service.repo.logs,
    resource: 'prebidpartners',
    entityType: PREBID_PARTNER_LOG,
    subject: 'PrebidPartner',
    exists: async (entityId) => Boolean(await service.repo.findById(entityId)),
    deletedReadable: true,
  });

  const statsSchema = { tags, params, querystring: prebidStatsQuery, response: { 200: prebidStatsAnswer } };
  // by date (SPEC.md "stats by date"): always by day
  app.get('/prebidpartners/:id/stats', { schema: statsSchema }, async (req) => {
    assertCan(req.ability, 'read', 'PrebidPartner');
    const found = await service.load(Number(req.params.id));
    return service.repo.stats(found.id, { ...req.query, group: 'day' });
  });
  app.get('/prebidpartners/:id/v2/stats', { schema: statsSchema }, async (req) => {
    assertCan(req.ability, 'read', 'PrebidPartner');
    const found = await service.load(Number(req.params.id));
    return service.repo.stats(found.id, req.query);
  });
  // the same rows as a CSV or XLSX file (the statistics screens' export)
  const fileSchema = { tags, params, querystring: prebidStatsQuery.safeExtend(statsFileQuery.shape) };
  for (const v2 of [false, true]) {
    app.get(
      `/prebidpartners/:id${v2 ? '/v2' : ''}/stats/export`,
      { schema: fileSchema },
      async (req, reply) => {
        assertCan(req.ability, 'read', 'PrebidPartner');
        const found = await service.load(Number(req.params.id));
        const { format, ...query } = req.query;
        const group = v2 ? query.group : 'day';
        const answer = await service.repo.stats(found.id, { ...query, group });
        return sendColumnsFile(reply, answer, prebidStatsColumns, {
          what: `prebid-partner-${found.id}`,
          group,
          range: statsRange(query),
          format,
        });
      },
    );
  }
};
