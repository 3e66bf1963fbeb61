import {
  id,
  material,
  ownerFilter,
  paged,
  pageQuery,
  parserConvertInput,
  parserConvertResult,
  parserPreview,
  site,
  siteInput,
  siteParser,
  sitesQuery,
  siteUpdate,
  withOwnerName,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { mergedBlock } from '../../lib/merge-block.ts';
import { isModerator, moderationRoute } from '../../lib/moderation.ts';
import { assertMayCreateFor } from '../../lib/owner.ts';
import { readScope } from '../../lib/scope.ts';
import { visibleBy } from '../../lib/visible.ts';
import { createDefaults } from '../revenue-terms/revenue-terms.service.ts';
import { convertDateFormat, parseDateWith } from './parser.ts';

const params = z.object({ id });

export const sitesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { sites, sitesRepo, users } = ctx;
  const revenueTerms = ctx.revenueTerms;
  const siteDefaults = createDefaults(siteInput);
  app.addHook('onRequest', app.authenticate);

  const visible = visibleBy('Site', sitesRepo.row);

  app.get(
    '/sites',
    {
      schema: {
        tags: ['sites'],
        querystring: sitesQuery.extend({ owner: ownerFilter }),
        response: { 200: paged(withOwnerName(site)) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Site');
      const scope = readScope(req.ability, 'Site', 'user_id');
      const userIds = await ctx.ownerNames.ownerScope(scope, req.query);
      return ctx.ownerNames.withOwnerNames(await sitesRepo.list({ ...req.query, userIds }));
    },
  );

  app.get('/sites/:id', { schema: { tags: ['sites'], params, response: { 200: site } } }, async (req) => {
    const row = await visible(req.params.id, req.ability);
    return (await sitesRepo.find(row.id))!;
  });

  /**
   * An admin's own referral terms are another admin's to set (four eyes, as its account's percent): it may
   * not make itself a site's affiliate, nor change the percent of a site whose affiliate it is.
   */
  function assertNotOwnAffiliate(
    actorId: string,
    before: { affiliate_user_id?: string | null; affiliate_earn_percent?: number | null },
    input: {
      affiliate_user_id?: string | null | undefined;
      affiliate_earn_percent?: number | null | undefined;
    },
  ) {
    const was = before.affiliate_user_id ?? null;
    const affiliate = input.affiliate_user_id !== undefined ? input.affiliate_user_id : was;
    if (input.affiliate_user_id !== undefined && affiliate === actorId && was !== actorId)
      throw new AppError(422, 'own_earn_percent', {}, 'affiliate_user_id');
    const percent = input.affiliate_earn_percent;
    if (affiliate === actorId && percent !== undefined && percent !== (before.affiliate_earn_percent ?? null))
      throw new AppError(422, 'own_earn_percent', {}, 'affiliate_earn_percent');
  }

  /**
   * Who sees a site's statistics (`stats_visible`, `advanced_stats`: assertSiteStats) is an admin's to set:
   * 403 when anyone else sends a value other than the site's (or, creating, the default).
   */
  function assertStatsAccess(
    ability: AppAbility,
    before: { advanced_stats: boolean; stats_visible: boolean },
    input: { advanced_stats?: boolean | undefined; stats_visible?: boolean | undefined },
  ) {
    const changed = (['advanced_stats', 'stats_visible'] as const).filter(
      (f) => input[f] !== undefined && input[f] !== before[f],
    );
    if (changed.length && !ability.can('update', 'RevenueTerms'))
      throw new AppError(403, 'stats_access_admin_only', { fields: changed.join(', ') });
  }

  app.post(
    '/sites',
    { schema: { tags: ['sites'], body: z.strictObject({ site: siteInput }), response: { 201: site } } },
    async (req, reply) => {
      const { user_id, ...input } = req.body.site;
      const ownerId = user_id ?? String(req.user!.id);
      assertMayCreateFor(req.ability, 'Site', ownerId, String(req.user!.id));
      // the right first: a user who may not name another owner learns nothing of which ids exist
      if (!(await users.findById(Number(ownerId)))) throw new AppError(422, 'not_found', {}, 'user_id');
      revenueTerms.assertMayChange(req.ability, 'site', siteDefaults, input);
      assertStatsAccess(
        req.ability,
        {
          advanced_stats: siteDefaults.advanced_stats === true,
          stats_visible: siteDefaults.stats_visible === true,
        },
        input,
      );
      assertNotOwnAffiliate(String(req.user!.id), {}, input);
      reply.code(201);
      const created = await sites.create(Number(ownerId), input, isModerator(req.ability));
      await revenueTerms.record(req.user!.id, 'site', created._id, siteDefaults, created);
      return created;
    },
  );

  app.put(
    '/sites/:id',
    {
      schema: {
        tags: ['sites'],
        params,
        body: z.strictObject({ site: siteUpdate }),
        response: { 200: site },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('Site', { user_id: String(row.userId) }));
      const before = (await sitesRepo.find(row.id))!;
      // the parser block sent is merged over the stored one: its fields not sent keep their values
      const { parser: sent, ...rest } = req.body.site;
      const merged = mergedBlock(siteParser, row.parser, sent, ['site', 'parser']);
      const input = merged ? { ...rest, parser: merged } : rest;
      revenueTerms.assertMayChange(req.ability, 'site', before, input);
      assertStatsAccess(req.ability, before, input);
      assertNotOwnAffiliate(String(req.user!.id), before, input);
      const updated = await sites.update(row, input, isModerator(req.ability));
      await revenueTerms.record(req.user!.id, 'site', before._id, before, updated);
      return updated;
    },
  );

  app.delete('/sites/:id', { schema: { tags: ['sites'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    assertCan(req.ability, 'delete', subject('Site', { user_id: String(row.userId) }));
    // its promotions go with it (the database cascades): their pages' images are files to delete after
    const images = await ctx.promotions.repo.siteImages(row.id);
    await sitesRepo.remove(row.id);
    await ctx.promotions.service.deleteImages(images);
    return reply.code(204).send();
  });

  moderationRoute(app, {
    resource: 'sites',
    response: site,
    load: visible,
    decide: (row, columns) => sites.moderate(row.id, columns),
  });

  // RSS test: what the saved feed settings give right now, nothing stored
  app.get(
    '/sites/:id/rss-test',
    { schema: { tags: ['sites'], params, response: { 200: parserPreview } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      // it fetches the site's pages: whoever may change the site tests its parser, not a read-only role
      assertCan(req.ability, 'update', subject('Site', { user_id: String(row.userId) }));
      return sites.preview(row);
    },
  );

  // parser test: unsaved parser settings from the form, nothing stored
  app.post(
    '/sites/:id/parser-test',
    {
      schema: {
        tags: ['sites'],
        params,
        body: z.strictObject({ parser: siteParser }),
        response: { 200: parserPreview },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('Site', { user_id: String(row.userId) }));
      return sites.preview(row, req.body.parser);
    },
  );

  // parser/convert: a date parse string from another system in the parser's tokens, tried on a sample;
  // nothing is stored, so any signed-in user may ask (it is the parser form's helper)
  app.post(
    '/parser/convert',
    { schema: { tags: ['sites'], body: parserConvertInput, response: { 200: parserConvertResult } } },
    async (req) => {
      const converted = convertDateFormat(req.body.date_parse_string);
      if ('unsupported' in converted)
        throw new FieldsError([
          {
            field: 'date_parse_string',
            code: 'date_format_unsupported',
            params: { token: converted.unsupported },
          },
        ]);
      const date = req.body.sample ? parseDateWith(converted.format, req.body.sample) : null;
      return {
        date_parse_string: converted.format,
        converted_from: converted.from,
        date: date ? date.toISOString() : null,
      };
    },
  );

  app.post('/sites/:id/parse', { schema: { tags: ['sites'], params } }, async (req) => {
    const row = await visible(req.params.id, req.ability);
    assertCan(req.ability, 'update', subject('Site', { user_id: String(row.userId) }));
    return sites.run(row);
  });

  app.get(
    '/sites/:id/materials',
    { schema: { tags: ['sites'], params, querystring: pageQuery, response: { 200: paged(material) } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      return sitesRepo.listMaterials(row.id, req.query.page, req.query.limit);
    },
  );

  app.delete(
    '/sites/:id/materials',
    { schema: { tags: ['sites'], params, response: { 200: z.object({ deleted: z.number().int() }) } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('Site', { user_id: String(row.userId) }));
      return { deleted: await sitesRepo.clearMaterials(row.id) };
    },
  );
};
