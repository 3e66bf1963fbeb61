import {
  id,
  moderation,
  paged,
  widget,
  widgetInput,
  widgetItem,
  widgetSettings,
  widgetUpdate,
  withOwnerName,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { previewDocument } from '../../delivery/preview-document.ts';
import { isModerator, moderationRoute } from '../../lib/moderation.ts';
import { readScope } from '../../lib/scope.ts';
import { visibleBy } from '../../lib/visible.ts';
import { toWidget } from './widgets.repository.ts';

const params = z.object({ id });
const previewBody = z.strictObject({
  widget: z.strictObject({
    settings: widgetSettings,
    site_id: id.optional(),
    title: z.string().max(255).optional(),
  }),
});
const previewAnswer = z.object({ settings: widgetSettings, items: z.array(widgetItem) });

export const widgetsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { widgetsRepo, sitesRepo, widgetItems, widgets } = ctx;
  app.addHook('onRequest', app.authenticate);

  const by = (req: FastifyRequest) => ({
    userId: req.user!.id,
    ability: req.ability,
    moderator: isModerator(req.ability),
  });
  const visibleWidget = visibleBy('Widget', widgetsRepo.row);
  const site = visibleBy('Site', sitesRepo.row);
  const visibleSite = (siteId: string, ability: AppAbility) => site(siteId, ability, 'site_id');

  app.get(
    '/widgets',
    {
      schema: {
        tags: ['widgets'],
        querystring: z.object({
          page: z.coerce.number().int().min(1).default(1),
          limit: z.coerce.number().int().min(1).max(500).default(20),
          site_id: id.optional(),
          moderation: moderation.optional(),
        }),
        response: { 200: paged(withOwnerName(widget)) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Widget');
      const scope = readScope(req.ability, 'Widget', 'user_id');
      const page = await widgetsRepo.list({
        ...req.query,
        siteId: req.query.site_id ? Number(req.query.site_id) : undefined,
        userIds: scope === 'all' ? undefined : scope.map(Number),
      });
      return ctx.ownerNames.withOwnerNames(page);
    },
  );

  app.get(
    '/widgets/:id',
    { schema: { tags: ['widgets'], params, response: { 200: widget } } },
    async (req) => {
      return toWidget(await visibleWidget(req.params.id, req.ability));
    },
  );

  app.post(
    '/widgets',
    {
      schema: { tags: ['widgets'], body: z.strictObject({ widget: widgetInput }), response: { 201: widget } },
    },
    async (req, reply) => {
      const site = await visibleSite(req.body.widget.site_id, req.ability);
      assertCan(req.ability, 'create', subject('Widget', { user_id: String(site.userId) }));
      const created = await widgets.create(by(req), site, req.body.widget);
      reply.code(201);
      return created;
    },
  );

  app.put(
    '/widgets/:id',
    {
      schema: {
        tags: ['widgets'],
        params,
        body: z.strictObject({ widget: widgetUpdate }),
        response: { 200: widget },
      },
    },
    async (req) => {
      const row = await visibleWidget(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('Widget', { user_id: String(row.userId) }));
      return widgets.update(by(req), row, req.body.widget);
    },
  );

  app.delete('/widgets/:id', { schema: { tags: ['widgets'], params } }, async (req, reply) => {
    const row = await visibleWidget(req.params.id, req.ability);
    assertCan(req.ability, 'delete', subject('Widget', { user_id: String(row.userId) }));
    await widgets.remove(row);
    return reply.code(204).send();
  });

  moderationRoute(app, {
    resource: 'widgets',
    response: widget,
    load: visibleWidget,
    decide: widgets.decide,
  });

  async function previewItems(req: FastifyRequest, siteId: string | undefined, limit: number) {
    // placeholders in the reader's language, where the site has no materials yet
    const words = {
      title: (n: number) => req.t('widgets:preview.sample_title', { n }),
      text: req.t('widgets:preview.sample_text'),
    };
    if (!siteId) return widgetItems.samples(limit, words);
    const site = await visibleSite(siteId, req.ability);
    const items = await widgetItems.forSite(site.id, limit, 0);
    return items.length ? items : widgetItems.samples(limit, words);
  }

  // v1: the unsaved settings and the items to render them with; the dashboard renders with the embed script
  app.post(
    '/widgets/preview',
    { schema: { tags: ['widgets'], body: previewBody, response: { 200: previewAnswer } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Widget');
      const { settings, site_id } = req.body.widget;
      return { settings, items: await previewItems(req, site_id, 24) };
    },
  );

  // v2: a whole HTML document (for an iframe) that runs the real embed script on these settings
  app.post(
    '/widgets/preview/v2',
    { schema: { tags: ['widgets'], body: previewBody } },
    async (req, reply) => {
      assertCan(req.ability, 'read', 'Widget');
      const { settings, site_id, title } = req.body.widget;
      const items = await previewItems(req, site_id, 24);
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      // in the caller's language: the embed script labels sponsored items by the page's
      return previewDocument({
        settings,
        items,
        title: title ?? '',
        scriptUrl: '/widget.js',
        lang: req.locale,
      });
    },
  );
};
