import {
  id,
  type StatsEntity,
  type StatsQuery,
  type StatsUserQuery,
  statsAnswer,
  statsFileQuery,
  statsPlatformQuery,
  statsQuery,
  statsRange,
  statsUserQuery,
} from '@adp/contract';
import { type AppAbility, assertCan } from '@adp/permissions';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { visibleBy } from '../../lib/visible.ts';
import { visibleUser } from '../users/users.access.ts';
import type { StatsSubject } from './stats.repository.ts';
import { assertSiteStats, delayedAnswer, ownOnly, sideOf } from './stats.service.ts';
import { sendStatsFile, withNames } from './stats-export.ts';

const params = z.object({ id });

/** What an entity's statistics answer reads of its request. */
interface StatsRequestOf {
  params: { id: string };
  query: StatsQuery;
  ability: AppAbility;
}

/**
 * GET /api/stats/{campaigns|banners|sites|widgets}/:id: the entity's statistics by day, hour, country,
 * city, device, OS, browser, site, widget or creative (statsQuery), for whoever may read the entity (an
 * unknown or invisible one is a 404, as its own GET /:id answers). GET /api/stats/users/:id: a user's
 * campaigns or sites together (statsUserQuery). GET /api/stats/platform: everything, for admins
 * (statsPlatformQuery). The 24-hour rule (statsAnswer) holds back the first two. Each has an `/export`
 * sibling answering the same rows as a CSV or XLSX file (statsFileQuery), with the same permissions.
 */
export const statsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);

  // a site's and its widgets' statistics follow the site's access settings (assertSiteStats)
  const campaignVisible = visibleBy('Campaign', ctx.campaignsRepo.row);
  const bannerVisible = visibleBy('Banner', ctx.banners.repo.row);
  const siteVisible = visibleBy('Site', ctx.sitesRepo.row);
  const widgetVisible = visibleBy('Widget', ctx.widgetsRepo.row);
  const trees: Record<
    StatsEntity,
    { subject: StatsSubject; visible: (id: string, req: StatsRequestOf) => Promise<{ userId: number }> }
  > = {
    campaigns: { subject: 'campaign', visible: (id, req) => campaignVisible(id, req.ability) },
    banners: { subject: 'banner', visible: (id, req) => bannerVisible(id, req.ability) },
    sites: {
      subject: 'site',
      visible: async (id, req) => {
        const site = await siteVisible(id, req.ability);
        assertSiteStats(req.ability, site, req.query);
        return site;
      },
    },
    widgets: {
      subject: 'widget',
      visible: async (id, req) => {
        const widget = await widgetVisible(id, req.ability);
        if (ownOnly(req.ability))
          assertSiteStats(req.ability, await ctx.sitesRepo.row(widget.siteId), req.query);
        return widget;
      },
    },
  };

  for (const [entity, { subject, visible }] of Object.entries(trees)) {
    const answer = async (req: StatsRequestOf) => {
      const row = await visible(req.params.id, req);
      const delay = await ctx.stats.statsDelay(row.userId, req.ability);
      if (delay) return delayedAnswer(delay);
      return ctx.stats.query(
        subject,
        Number(req.params.id),
        { ...req.query, ...statsRange(req.query) },
        ownOnly(req.ability),
      );
    };
    // the statistics tree's path (DESIGN.md) and the entity's own (SPEC.md: sites' GET /{id}/stats)
    for (const path of [`/stats/${entity}/:id`, `/${entity}/:id/stats`])
      app.get(
        path,
        { schema: { tags: ['stats'], params, querystring: statsQuery, response: { 200: statsAnswer } } },
        (req) => answer(req),
      );
    app.get(
      `/stats/${entity}/:id/export`,
      { schema: { tags: ['stats'], params, querystring: statsQuery.safeExtend(statsFileQuery.shape) } },
      async (req, reply) =>
        sendStatsFile(reply, await withNames(ctx.names, req.ability, req.query.group, await answer(req)), {
          what: `${subject}-${req.params.id}`,
          group: req.query.group,
          range: statsRange(req.query),
          side: sideOf(subject) === 'advertiser' ? 'spent' : 'earned',
          format: req.query.format,
        }),
    );
  }

  const userAnswer = async (req: FastifyRequest, q: StatsUserQuery, userParam: string) => {
    const user = await visibleUser(ctx, req, userParam);
    const userId = Number(user._id);
    const publisher = (user.owns.sites ?? 0) > 0 && (user.owns.campaigns ?? 0) === 0;
    const side = q.as ?? (publisher ? 'publisher' : 'advertiser');
    const delay = await ctx.stats.statsDelay(userId, req.ability);
    if (delay) return { side, answer: delayedAnswer(delay) };
    const own = ownOnly(req.ability);
    return { side, answer: await ctx.stats.byUser(userId, side, { ...q, ...statsRange(q) }, own) };
  };

  app.get(
    '/stats/users/:id',
    { schema: { tags: ['stats'], params, querystring: statsUserQuery, response: { 200: statsAnswer } } },
    async (req) => (await userAnswer(req, req.query, req.params.id)).answer,
  );

  app.get(
    '/stats/users/:id/export',
    {
      schema: { tags: ['stats'], params, querystring: statsUserQuery.safeExtend(statsFileQuery.shape) },
    },
    async (req, reply) => {
      const { side, answer } = await userAnswer(req, req.query, req.params.id);
      return sendStatsFile(reply, await withNames(ctx.names, req.ability, req.query.group, answer), {
        what: `user-${req.params.id}-${side}`,
        group: req.query.group,
        range: statsRange(req.query),
        side: side === 'advertiser' ? 'spent' : 'earned',
        format: req.query.format,
      });
    },
  );

  const platform = (ability: AppAbility, q: StatsQuery) => {
    // admins and admin readonly: the ones who may enter the admin area
    assertCan(ability, 'manage', 'ACL');
    return ctx.stats.platform({ ...q, ...statsRange(q) });
  };

  app.get(
    '/stats/platform',
    { schema: { tags: ['stats'], querystring: statsPlatformQuery, response: { 200: statsAnswer } } },
    (req) => platform(req.ability, req.query),
  );

  app.get(
    '/stats/platform/export',
    { schema: { tags: ['stats'], querystring: statsPlatformQuery.safeExtend(statsFileQuery.shape) } },
    async (req, reply) =>
      sendStatsFile(
        reply,
        await withNames(ctx.names, req.ability, req.query.group, await platform(req.ability, req.query)),
        {
          what: 'platform',
          group: req.query.group,
          range: statsRange(req.query),
          side: 'platform',
          format: req.query.format,
        },
      ),
  );
};
