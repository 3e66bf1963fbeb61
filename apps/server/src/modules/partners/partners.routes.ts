import {
  agencyInput,
  id,
  paged,
  partner,
  partnerInput,
  partnerPreview,
  partnerPreviewInput,
  partnerStatsBreakdowns,
  partnerStatsSources,
  partnersQuery,
  partnerUpdate,
  statsFileQuery,
  statsRange,
  statsTreeAnswer,
  statsTreeQuery,
} from '@adp/contract';
import { assertCan } from '@adp/permissions';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import countries from 'i18n-iso-countries';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { readUploadedFile } from '../../lib/upload.ts';
import { LOGO_MAX_BYTES } from '../agencies/agencies.service.ts';
import { registerEntityLogsRoute } from '../entity-logs/entity-logs.routes.ts';
import { createDefaults } from '../revenue-terms/revenue-terms.service.ts';
import { sendStatsFile } from '../stats/stats-export.ts';
import { PARTNER_LOG } from './partners.service.ts';

const agencyDefaults = createDefaults(agencyInput);

const params = z.object({ id });
const tags = ['partners'];

/**
 * Partners (SPEC.md "agency groups"), admin only: CRUD with payload `partner`, logo upload, the members'
 * preview, the audit log and the group's statistics (its owner's and members' sites, from the rollups).
 */
export const partnersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const partners = ctx.partners;
  app.addHook('onRequest', app.authenticate);
  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 10, parts: 11 } });

  app.get(
    '/partners',
    { schema: { tags, querystring: partnersQuery, response: { 200: paged(partner) } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Partner');
      return partners.repo.list(req.query);
    },
  );

  app.get('/partners/:id', { schema: { tags, params, response: { 200: partner } } }, async (req) => {
    assertCan(req.ability, 'read', 'Partner');
    return partners.get(Number(req.params.id));
  });

  app.post(
    '/partners',
    { schema: { tags, body: z.object({ partner: partnerInput }), response: { 201: partner } } },
    async (req, reply) => {
      assertCan(req.ability, 'create', 'Partner');
      const created = await partners.create(req.user!.id, req.body.partner);
      // a group is an agency record: its rates are the agency's revenue terms, logged the same way
      await ctx.revenueTerms.record(req.user!.id, 'agency', created._id, agencyDefaults, created);
      reply.code(201);
      return created;
    },
  );

  app.put(
    '/partners/:id',
    { schema: { tags, params, body: z.object({ partner: partnerUpdate }), response: { 200: partner } } },
    async (req) => {
      assertCan(req.ability, 'update', 'Partner');
      const group = await partners.load(Number(req.params.id));
      const before = await partners.view(group);
      const after = await partners.update(req.user!.id, group, req.body.partner);
      await ctx.revenueTerms.record(req.user!.id, 'agency', group.id.toString(), before, after);
      return after;
    },
  );

  app.delete(
    '/partners/:id',
    { schema: { tags, params, response: { 204: z.null() } } },
    async (req, reply) => {
      assertCan(req.ability, 'delete', 'Partner');
      await partners.delete(req.user!.id, await partners.load(Number(req.params.id)));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/partners/:id/logo',
    { schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: partner } } },
    async (req) => {
      assertCan(req.ability, 'update', 'Partner');
      const group = await partners.load(Number(req.params.id));
      return partners.setLogo(req.user!.id, group, await readUploadedFile(req, LOGO_MAX_BYTES));
    },
  );

  app.post(
    '/partners/:id/preview',
    { schema: { tags, params, body: partnerPreviewInput.optional(), response: { 200: partnerPreview } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Partner');
      const group = await partners.load(Number(req.params.id));
      return partners.preview(group, req.body?.partner ?? {});
    },
  );

  registerEntityLogsRoute(app, {
    list: partners.repo.logs,
    resource: 'partners',
    entityType: PARTNER_LOG,
    subject: 'Partner',
    exists: async (entityId) => Boolean(await ctx.agencies.repo.findById(entityId)),
    deletedReadable: true,
  });

  // the group's statistics: its sites (owner's and members') as the publisher side sees them, or (source
  // dsp) their slots sold on the exchange, from dsp_rollups as the DSP statistics read them
  const groupStatsQuery = statsTreeQuery.safeExtend({
    // `key`: a drill-down (geo/country/DE, device/mobile, …) answers only that value's row and total;
    // a country may be named by its English name (phoenix/geo/Germany)
    key: z.string().trim().min(1).max(255).optional(),
    source: z.enum(partnerStatsSources).default('sites'),
  });
  const groupStatsParams = z.object({ id, breakdown: z.enum(partnerStatsBreakdowns) });
  async function groupStats(
    ability: Parameters<typeof assertCan>[0],
    params: z.output<typeof groupStatsParams>,
    q: z.output<typeof groupStatsQuery>,
  ) {
    assertCan(ability, 'read', 'Partner');
    const group = await partners.load(Number(params.id));
    const siteIds = await partners.repo.siteIds(group);
    const scope = siteIds.length ? { filter: { site: siteIds }, side: 'publisher' as const } : null;
    const { key, source, ...query } = q;
    const range = statsRange(query);
    const tree = (t: typeof query) =>
      source === 'dsp'
        ? partners.dspTrees.tree(params.breakdown, {
            ...t,
            // days newest first, as the sites' tree pages them (today on page 1)
            ...(params.breakdown === 'revenue' && !t.sort && !t.order
              ? { sort: 'key' as const, order: 'desc' as const }
              : {}),
            ...range,
            siteIds,
            partnerIds: t.partner_id ? [Number(t.partner_id)] : undefined,
          })
        : ctx.statsTrees.service.tree(scope, params.breakdown, { ...t, ...range });
    if (key === undefined) return tree(query);
    const all = await tree({ ...query, page: 1, limit: Number.MAX_SAFE_INTEGER });
    const named =
      params.breakdown === 'country' && key.length > 2 ? countries.getAlpha2Code(key, 'en') : undefined;
    const chosen = (named ?? key).toLowerCase();
    const rows = all.rows.filter((r) => r.key.toLowerCase() === chosen);
    const { key: _k, name: _n, ...values } = rows[0] ?? { ...all.total, key: '', name: '' };
    const total = rows[0] ? values : Object.fromEntries(Object.keys(all.total).map((k) => [k, 0]));
    return {
      rows,
      total: total as typeof all.total,
      count: rows.length,
      page: query.page,
      limit: query.limit,
    };
  }
  app.get(
    '/partners/:id/stats/:breakdown',
    {
      schema: {
        tags,
        params: groupStatsParams,
        querystring: groupStatsQuery,
        response: { 200: statsTreeAnswer },
      },
    },
    (req) => groupStats(req.ability, req.params, req.query),
  );
  // every row of it as a CSV or XLSX file (the statistics screens' export; not paged)
  app.get(
    '/partners/:id/stats/:breakdown/export',
    {
      schema: {
        tags,
        params: groupStatsParams,
        querystring: groupStatsQuery.safeExtend(statsFileQuery.shape),
      },
    },
    async (req, reply) => {
      const { format, ...query } = req.query;
      const answer = await groupStats(req.ability, req.params, {
        ...query,
        page: 1,
        limit: Number.MAX_SAFE_INTEGER,
      });
      return sendStatsFile(reply, answer, {
        what: `group-${req.params.id}${query.source === 'dsp' ? '-exchange' : ''}`,
        group: req.params.breakdown === 'revenue' ? 'day' : req.params.breakdown,
        range: statsRange(query),
        // the exchange's rows are what DSP partners paid (spent), the sites' rows their earnings
        side: query.source === 'dsp' ? 'spent' : 'earned',
        format,
      });
    },
  );
};
