import {
  dspPartner,
  dspPartnerBlacklistInput,
  dspPartnerBlacklistItem,
  dspPartnerBlacklistQuery,
  dspPartnerBlacklistUpdate,
  dspPartnerInput,
  dspPartnersQuery,
  dspPartnerUpdate,
  dspStatsAnswer,
  dspStatsColumns,
  dspStatsQuery,
  id,
  paged,
  statsFileQuery,
  statsRange,
} from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { registerEntityLogsRoute } from '../entity-logs/entity-logs.routes.ts';
import { sendColumnsFile } from '../stats/stats-export.ts';
import { toBlacklistItem, toDspPartner } from './dsp-partners.repository.ts';

const params = z.object({ id });
const tags = ['dsppartners'];

/**
 * DSP partners (SPEC.md section 7 "dsppartners", payload `dsppartner`), their blacklist items
 * ("dsppartnerblacklist", payload `dsppartnerblacklist`), their change log and their statistics.
 * Admins only (readonly admins read).
 */
export const dspPartnersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db, repo, service, stats } = ctx.dspPartners;
  app.addHook('onRequest', app.authenticate);

  const partnerOr404 = async (rawId: string, field?: string) => {
    const row = await repo.row(Number(rawId));
    if (!row) throw field ? new AppError(422, 'not_found', {}, field) : new AppError(404, 'not_found');
    return row;
  };
  const actor = (req: { user: { id: number } | null }) => String(req.user?.id);

  app.get(
    '/dsppartners',
    { schema: { tags, querystring: dspPartnersQuery, response: { 200: paged(dspPartner) } } },
    async (req) => {
      assertCan(req.ability, 'read', 'DspPartner');
      return repo.list(req.query);
    },
  );

  app.get('/dsppartners/:id', { schema: { tags, params, response: { 200: dspPartner } } }, async (req) => {
    assertCan(req.ability, 'read', 'DspPartner');
    return toDspPartner(await partnerOr404(req.params.id));
  });

  app.post(
    '/dsppartners',
    {
      schema: { tags, body: z.strictObject({ dsppartner: dspPartnerInput }), response: { 201: dspPartner } },
    },
    async (req, reply) => {
      assertCan(req.ability, 'create', 'DspPartner');
      const created = await service.create(req.body.dsppartner, actor(req));
      reply.code(201);
      return created;
    },
  );

  app.put(
    '/dsppartners/:id',
    {
      schema: {
        tags,
        params,
        body: z.strictObject({ dsppartner: dspPartnerUpdate }),
        response: { 200: dspPartner },
      },
    },
    async (req) => {
      assertCan(req.ability, 'update', 'DspPartner');
      const row = await partnerOr404(req.params.id);
      return service.update(row, req.body.dsppartner, actor(req));
    },
  );

  app.delete('/dsppartners/:id', { schema: { tags, params } }, async (req, reply) => {
    assertCan(req.ability, 'delete', 'DspPartner');
    const row = await partnerOr404(req.params.id);
    await service.remove(row, actor(req));
    return reply.code(204).send();
  });

  registerEntityLogsRoute(app, {
    db,
    resource: 'dsppartners',
    entityType: 'dsppartner',
    subject: 'DspPartner',
    exists: async (entityId) => Boolean(await repo.row(entityId)),
    deletedReadable: true,
    tags,
  });

  app.get(
    '/dsppartners/:id/stats',
    { schema: { tags, params, querystring: dspStatsQuery, response: { 200: dspStatsAnswer } } },
    async (req) => {
      assertCan(req.ability, 'read', 'DspPartner');
      const row = await partnerOr404(req.params.id);
      return stats.report(row.id, req.query);
    },
  );
  // the same rows as a CSV or XLSX file (the statistics screens' export)
  app.get(
    '/dsppartners/:id/stats/export',
    { schema: { tags, params, querystring: dspStatsQuery.safeExtend(statsFileQuery.shape) } },
    async (req, reply) => {
      assertCan(req.ability, 'read', 'DspPartner');
      const row = await partnerOr404(req.params.id);
      const { format, ...query } = req.query;
      const answer = await stats.report(row.id, query);
      return sendColumnsFile(reply, answer, dspStatsColumns, {
        what: `dsp-partner-${row.id}`,
        group: query.group,
        range: statsRange(query),
        format,
      });
    },
  );

  // --- blacklist items --------------------------------------------------------------------------------
  const itemOr404 = async (rawId: string) => {
    const row = await repo.blacklistRow(Number(rawId));
    if (!row) throw new AppError(404, 'not_found');
    return row;
  };

  app.get(
    '/dsppartnerblacklist',
    {
      schema: {
        tags,
        querystring: dspPartnerBlacklistQuery,
        response: { 200: paged(dspPartnerBlacklistItem) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'DspPartnerBlacklist');
      const { dsp_partner_id, ...q } = req.query;
      return repo.listBlacklist({ ...q, dspPartnerId: dsp_partner_id ? Number(dsp_partner_id) : undefined });
    },
  );

  app.get(
    '/dsppartnerblacklist/:id',
    { schema: { tags, params, response: { 200: dspPartnerBlacklistItem } } },
    async (req) => {
      assertCan(req.ability, 'read', 'DspPartnerBlacklist');
      return toBlacklistItem(await itemOr404(req.params.id));
    },
  );

  app.post(
    '/dsppartnerblacklist',
    {
      schema: {
        tags,
        body: z.strictObject({ dsppartnerblacklist: dspPartnerBlacklistInput }),
        response: { 201: dspPartnerBlacklistItem },
      },
    },
    async (req, reply) => {
      assertCan(req.ability, 'create', 'DspPartnerBlacklist');
      const { dsp_partner_id, ...input } = req.body.dsppartnerblacklist;
      const partner = await partnerOr404(dsp_partner_id, 'dsp_partner_id');
      const created = await service.createBlacklist(partner, input);
      reply.code(201);
      return created;
    },
  );

  app.put(
    '/dsppartnerblacklist/:id',
    {
      schema: {
        tags,
        params,
        body: z.strictObject({ dsppartnerblacklist: dspPartnerBlacklistUpdate }),
        response: { 200: dspPartnerBlacklistItem },
      },
    },
    async (req) => {
      assertCan(req.ability, 'update', 'DspPartnerBlacklist');
      return service.updateBlacklist(await itemOr404(req.params.id), req.body.dsppartnerblacklist);
    },
  );

  app.delete('/dsppartnerblacklist/:id', { schema: { tags, params } }, async (req, reply) => {
    assertCan(req.ability, 'delete', 'DspPartnerBlacklist');
    await service.removeBlacklist(await itemOr404(req.params.id));
    return reply.code(204).send();
  });
};
