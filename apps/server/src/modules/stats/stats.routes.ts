import {
  id,
  type StatsEntity,
  statsAnswer,
  statsPlatformQuery,
  statsQuery,
  statsRange,
  statsUserQuery,
} from '@adp/contract';
import { type AppAbility, assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { visibleBy } from '../../lib/visible.ts';
import { visibleUser } from '../users/users.access.ts';
import type { StatsSubject } from './stats.repository.ts';
import { delayedAnswer } from './stats.service.ts';

const params = z.object({ id });

/**
 * GET /api/stats/{campaigns|banners|sites|widgets}/:id: the entity's statistics by day, hour, country,
 * city, device, OS, browser, site, widget or creative (statsQuery), for whoever may read the entity (an
 * unknown or invisible one is a 404, as its own GET /:id answers). GET /api/stats/users/:id: a user's
 * campaigns or sites together (statsUserQuery). GET /api/stats/platform: everything, for admins
 * (statsPlatformQuery). The 24-hour rule (statsAnswer) holds back the first two.
 */
export const statsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);

  const trees: Record<
    StatsEntity,
    { subject: StatsSubject; visible: (id: string, ability: AppAbility) => Promise<{ userId: number }> }
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
        const row = await visible(req.params.id, req.ability);
        const delay = await ctx.stats.statsDelay(row.userId, req.ability);
        if (delay) return delayedAnswer(delay);
        return ctx.stats.query(subject, Number(req.params.id), { ...req.query, ...statsRange(req.query) });
      },
    );
  }

  app.get(
    '/stats/users/:id',
    { schema: { tags: ['stats'], params, querystring: statsUserQuery, response: { 200: statsAnswer } } },
    async (req) => {
      const user = await visibleUser(ctx, req, req.params.id);
      const userId = Number(user._id);
      const delay = await ctx.stats.statsDelay(userId, req.ability);
      if (delay) return delayedAnswer(delay);
      const publisher = (user.owns.sites ?? 0) > 0 && (user.owns.campaigns ?? 0) === 0;
      const side = req.query.as ?? (publisher ? 'publisher' : 'advertiser');
      return ctx.stats.byUser(userId, side, { ...req.query, ...statsRange(req.query) });
    },
  );

  app.get(
    '/stats/platform',
    { schema: { tags: ['stats'], querystring: statsPlatformQuery, response: { 200: statsAnswer } } },
    async (req) => {
      // admins and admin readonly: the ones who may enter the admin area
      assertCan(req.ability, 'manage', 'ACL');
      return ctx.stats.platform({ ...req.query, ...statsRange(req.query) });
    },
  );
};
