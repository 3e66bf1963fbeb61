import { id, type StatsEntity, statsAnswer, statsQuery, statsRange } from '@adp/contract';
import type { AppAbility } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { visibleBy } from '../../lib/visible.ts';
import type { StatsSubject } from './stats.repository.ts';

const params = z.object({ id });

/**
 * GET /api/stats/{campaigns|banners|sites|widgets}/:id: the entity's statistics by day, hour, country,
 * device, OS, browser, site, widget or creative (statsQuery), for whoever may read the entity (an unknown or invisible one is a 404, as its own GET /:id answers).
 */
export const statsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);

  const trees: Record<
    StatsEntity,
    { subject: StatsSubject; visible: (id: string, ability: AppAbility) => Promise<unknown> }
  > = {
    campaigns: { subject: 'campaign', visible: visibleBy('Campaign', ctx.campaignsRepo.row) },
    banners: { subject: 'banner', visible: visibleBy('Banner', ctx.banners.repo.row) },
    sites: { subject: 'site', visible: visibleBy('Site', ctx.sitesRepo.row) },
    widgets: { subject: 'widget', visible: visibleBy('Widget', ctx.widgetsRepo.row) },
  };

  for (const [entity, { subject, visible }] of Object.entries(trees)) {
    app.get(
      `/stats/${entity}/:id`,
      { schema: { tags: ['stats'], params, querystring: statsQuery, response: { 200: statsAnswer } } },
      async (req) => {
        await visible(req.params.id, req.ability);
        return ctx.stats.query(subject, Number(req.params.id), { ...req.query, ...statsRange(req.query) });
      },
    );
  }
};
