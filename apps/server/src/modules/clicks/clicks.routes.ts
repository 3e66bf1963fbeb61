import {
  type ClicksFileQuery,
  clickSourcesFileQuery,
  clickSourcesPage,
  clickSourcesQuery,
  clicksFileQuery,
  clicksPage,
  clicksQuery,
  type GeoClicksPage,
  geoClicksFileQuery,
  geoClicksPage,
  id,
  impressionRatePage,
  impressionsPage,
  pixelClicksPage,
  postbackPage,
  type ReportColumn,
  type ReportRow,
  rangePageQuery,
  statsRange,
  topArticlesFileQuery,
  topArticlesPage,
  topArticlesQuery,
} from '@adp/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { visibleBy } from '../../lib/visible.ts';
import { assertSiteStats, ownOnly } from '../stats/stats.service.ts';
import { chunksOf, sendRowsFile } from '../stats/stats-export.ts';
import type { ClicksOwner } from './clicks.repository.ts';
import type { ClicksViewer } from './clicks.service.ts';

const params = z.object({ id });
const tags = ['clicks'];

/** The range of a query with its defaults filled (to: today of `tz`, from: to). */
const ranged = <Q extends { from?: string | undefined; to?: string | undefined; tz: string }>(q: Q) => ({
  ...q,
  ...statsRange(q),
});

/** Admins (admin, adminreadonly) see every column: IPs, both money columns, hidden sites. */
const isAdmin = (req: FastifyRequest) => req.ability.can('read', 'AccountAdmin');

/**
 * Click-level statistics (SPEC.md sections 2 and 7): a campaign's clicks, postback conversions, pixel
 * clicks, impressions by widget and geo clicks; a site's clicks, geo clicks, click sources and impression
 * rate; a widget's clicks. Whoever may read the campaign, site or widget reads them (an unknown or
 * invisible one is a 404).
 */
export const clicksRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = ctx.clicks;
  app.addHook('onRequest', app.authenticate);
  const campaignVisible = visibleBy('Campaign', ctx.campaignsRepo.row);
  const siteRead = visibleBy('Site', ctx.sitesRepo.row);
  const widgetRead = visibleBy('Widget', ctx.widgetsRepo.row);
  /** The site of the path, when the caller may read it and its statistics (`advanced`: the click lists). */
  const siteVisible = async (siteId: string, req: FastifyRequest, advanced = false) => {
    const site = await siteRead(siteId, req.ability);
    assertSiteStats(req.ability, site, { advanced });
    return site;
  };
  /** The widget of the path, when the caller may read it and its site's statistics. */
  const widgetVisible = async (widgetId: string, req: FastifyRequest, advanced = false) => {
    const widget = await widgetRead(widgetId, req.ability);
    if (ownOnly(req.ability))
      assertSiteStats(req.ability, await ctx.sitesRepo.row(widget.siteId), { advanced });
    return widget;
  };

  /** The campaign of the path and how the caller sees its clicks. */
  async function campaignOf(req: FastifyRequest, campaignId: string) {
    const campaign = await campaignVisible(campaignId, req.ability);
    return { campaign, viewer: { admin: isAdmin(req), hideSites: campaign.hideClicksSites } };
  }

  /**
   * The 24-hour rule: while the owner's statistics are held back from the caller, `empty` (no rows) with
   * `available_at`; otherwise the answer.
   */
  async function unlessDelayed<A extends object, E extends object>(
    req: FastifyRequest & { query: { page: number; limit: number } },
    ownerId: number,
    empty: E,
    answer: () => Promise<A>,
  ): Promise<A | (E & { items: []; total: 0; page: number; limit: number; available_at: string })> {
    const at = await ctx.stats.statsDelay(ownerId, req.ability);
    if (!at) return answer();
    const { page, limit } = req.query;
    return { ...empty, items: [], total: 0, page, limit, available_at: at.toISOString() };
  }

  app.get(
    '/campaigns/:id/clicks',
    { schema: { tags, params, querystring: clicksQuery, response: { 200: clicksPage } } },
    async (req) => {
      const { campaign, viewer } = await campaignOf(req, req.params.id);
      return unlessDelayed(req, campaign.userId, { sites_hidden: false }, () =>
        service.clicks('campaign', campaign.id, viewer, ranged(req.query)),
      );
    },
  );

  /**
   * A click list as a CSV or XLSX file (clicksFile): every click of the range, the columns its screen
   * shows the caller; while the owner's statistics are held back (the 24-hour rule), no rows.
   */
  async function sendClicksFile(
    req: FastifyRequest & { query: ClicksFileQuery },
    reply: FastifyReply,
    list: { owner: ClicksOwner; id: number; userId: number; viewer: ClicksViewer; converted?: boolean },
  ) {
    const q = ranged(req.query);
    // held back: not a row is read (the file's first chunk is read before it starts)
    const delayed = await ctx.stats.statsDelay(list.userId, req.ability);
    const file = await service.clicksFile(list.owner, list.id, list.viewer, q, list.converted, !delayed);
    return sendRowsFile(reply, file.columns, file.chunks, {
      what: `${list.owner}-${list.id}`,
      group: list.converted ? 'postback' : 'clicks',
      range: { from: q.from, to: q.to },
      format: req.query.format,
    });
  }

  app.get(
    '/campaigns/:id/clicks/export',
    { schema: { tags, params, querystring: clicksFileQuery } },
    async (req, reply) => {
      const { campaign, viewer } = await campaignOf(req, req.params.id);
      return sendClicksFile(req, reply, {
        owner: 'campaign',
        id: campaign.id,
        userId: campaign.userId,
        viewer,
      });
    },
  );

  app.get(
    '/campaigns/:id/postback/export',
    { schema: { tags, params, querystring: clicksFileQuery } },
    async (req, reply) => {
      const { campaign, viewer } = await campaignOf(req, req.params.id);
      const list = { owner: 'campaign' as const, id: campaign.id, userId: campaign.userId, viewer };
      return sendClicksFile(req, reply, { ...list, converted: true });
    },
  );

  app.get(
    '/campaigns/:id/postback',
    { schema: { tags, params, querystring: clicksQuery, response: { 200: postbackPage } } },
    async (req) => {
      const { campaign, viewer } = await campaignOf(req, req.params.id);
      return unlessDelayed(req, campaign.userId, { sites_hidden: false, conversions: 0, sum: 0 }, () =>
        service.postback(campaign.id, viewer, ranged(req.query)),
      );
    },
  );

  app.get(
    '/campaigns/:id/pixelclicks',
    { schema: { tags, params, querystring: clicksQuery, response: { 200: pixelClicksPage } } },
    async (req) => {
      const { campaign, viewer } = await campaignOf(req, req.params.id);
      return unlessDelayed(req, campaign.userId, { sites_hidden: false }, () =>
        service.pixelClicks(campaign.id, campaign.userId, viewer, ranged(req.query)),
      );
    },
  );

  app.get(
    '/campaigns/:id/impressions',
    { schema: { tags, params, querystring: rangePageQuery, response: { 200: impressionsPage } } },
    async (req) => {
      const { campaign, viewer } = await campaignOf(req, req.params.id);
      const totals = { impressions: 0, viewable: 0, clicks: 0, invalid_clicks: 0, ctr: 0, spent: 0 };
      return unlessDelayed(req, campaign.userId, { sites_hidden: false, totals }, () =>
        service.impressions(campaign.id, viewer, ranged(req.query)),
      );
    },
  );

  app.get(
    '/campaigns/:id/geoclicks',
    { schema: { tags, params, querystring: rangePageQuery, response: { 200: geoClicksPage } } },
    async (req) => {
      const campaign = await campaignVisible(req.params.id, req.ability);
      return unlessDelayed(req, campaign.userId, {}, () =>
        service.geoClicks('campaign', campaign.id, ranged(req.query)),
      );
    },
  );

  app.get(
    '/sites/:id/clicks',
    { schema: { tags, params, querystring: clicksQuery, response: { 200: clicksPage } } },
    async (req) => {
      const site = await siteVisible(req.params.id, req, true);
      return unlessDelayed(req, site.userId, { sites_hidden: false }, () =>
        service.clicks('site', site.id, { admin: isAdmin(req) }, ranged(req.query)),
      );
    },
  );

  app.get(
    '/sites/:id/geoclicks',
    { schema: { tags, params, querystring: rangePageQuery, response: { 200: geoClicksPage } } },
    async (req) => {
      const site = await siteVisible(req.params.id, req);
      return unlessDelayed(req, site.userId, {}, () => service.geoClicks('site', site.id, ranged(req.query)));
    },
  );

  app.get(
    '/sites/:id/click-sources',
    { schema: { tags, params, querystring: clickSourcesQuery, response: { 200: clickSourcesPage } } },
    async (req) => {
      const site = await siteVisible(req.params.id, req);
      return unlessDelayed(req, site.userId, { refreshed_at: null }, () =>
        service.clickSources(site.id, ranged(req.query)),
      );
    },
  );

  app.get(
    '/sites/:id/impression-rate',
    { schema: { tags, params, querystring: rangePageQuery, response: { 200: impressionRatePage } } },
    async (req) => {
      const site = await siteVisible(req.params.id, req);
      return unlessDelayed(req, site.userId, {}, () => service.impressionRate(site.id, ranged(req.query)));
    },
  );

  app.get(
    '/sites/:id/toparticles',
    { schema: { tags, params, querystring: topArticlesQuery, response: { 200: topArticlesPage } } },
    async (req) => {
      const site = await siteVisible(req.params.id, req);
      const totals = { impressions: 0, clicks: 0, ctr: 0 };
      return unlessDelayed(req, site.userId, { totals }, () =>
        service.topArticles(site.id, ranged(req.query)),
      );
    },
  );

  /**
   * An aggregate list (geo clicks, click sources, top articles) as a file: every row of the range in the
   * given columns; while the owner's statistics are held back (the 24-hour rule), no rows.
   */
  async function sendListFile<Row extends object>(
    req: FastifyRequest & { query: { from?: string; to?: string; tz: string; format: 'csv' | 'xlsx' } },
    reply: FastifyReply,
    list: { what: string; group: string; userId: number; columns: ReportColumn[] },
    rows: (all: { page: number; limit: number }) => Promise<{ items: Row[] }>,
  ) {
    const delayed = await ctx.stats.statsDelay(list.userId, req.ability);
    const items = delayed ? [] : (await rows({ page: 1, limit: Number.MAX_SAFE_INTEGER })).items;
    return sendRowsFile(reply, list.columns, chunksOf(items as unknown as ReportRow[]), {
      what: list.what,
      group: list.group,
      range: statsRange(req.query),
      format: req.query.format,
    });
  }

  const geoColumns = (money: 'spent' | 'earned'): ReportColumn[] => [
    { key: 'country', kind: 'text' },
    { key: 'city', kind: 'text' },
    { key: 'clicks', kind: 'int' },
    { key: 'invalid_clicks', kind: 'int' },
    { key: money, kind: 'money' },
  ];
  /** A geo clicks row under its file's column names: `money` is the campaign's spend or the site's earnings. */
  const geoRows = async (page: Promise<GeoClicksPage>, money: 'spent' | 'earned') => ({
    items: (await page).items.map(({ money: sum, ...row }) => ({ ...row, [money]: sum })),
  });

  app.get(
    '/campaigns/:id/geoclicks/export',
    { schema: { tags, params, querystring: geoClicksFileQuery } },
    async (req, reply) => {
      const { campaign } = await campaignOf(req, req.params.id);
      const list = { what: `campaign-${campaign.id}`, group: 'geoclicks', userId: campaign.userId };
      return sendListFile(req, reply, { ...list, columns: geoColumns('spent') }, (all) =>
        geoRows(service.geoClicks('campaign', campaign.id, { ...ranged(req.query), ...all }), 'spent'),
      );
    },
  );

  app.get(
    '/sites/:id/geoclicks/export',
    { schema: { tags, params, querystring: geoClicksFileQuery } },
    async (req, reply) => {
      const site = await siteVisible(req.params.id, req);
      const list = { what: `site-${site.id}`, group: 'geoclicks', userId: site.userId };
      return sendListFile(req, reply, { ...list, columns: geoColumns('earned') }, (all) =>
        geoRows(service.geoClicks('site', site.id, { ...ranged(req.query), ...all }), 'earned'),
      );
    },
  );

  app.get(
    '/campaigns/:id/pixelclicks/export',
    { schema: { tags, params, querystring: clicksFileQuery } },
    async (req, reply) => {
      const { campaign, viewer } = await campaignOf(req, req.params.id);
      const file = service.pixelClicksFile(campaign.id, campaign.userId, viewer, ranged(req.query));
      const list = { what: `campaign-${campaign.id}`, group: 'pixelclicks', userId: campaign.userId };
      return sendListFile(req, reply, { ...list, columns: file.columns }, async () => ({
        items: await file.read(),
      }));
    },
  );

  app.get(
    '/campaigns/:id/impressions/export',
    { schema: { tags, params, querystring: geoClicksFileQuery } },
    async (req, reply) => {
      const { campaign, viewer } = await campaignOf(req, req.params.id);
      const columns: ReportColumn[] = [
        { key: 'source', kind: 'text' },
        { key: 'site_id', kind: 'id' },
        { key: 'site_title', kind: 'text' },
        { key: 'widget_id', kind: 'id' },
        { key: 'widget_title', kind: 'text' },
        { key: 'impressions', kind: 'int' },
        { key: 'viewable', kind: 'int' },
        { key: 'clicks', kind: 'int' },
        { key: 'invalid_clicks', kind: 'int' },
        { key: 'ctr', kind: 'percent' },
        { key: 'spent', kind: 'money' },
      ];
      const list = {
        what: `campaign-${campaign.id}`,
        group: 'impressions',
        userId: campaign.userId,
        columns,
      };
      return sendListFile(req, reply, list, async (all) => ({
        // the exchange's impressions (RTB partners' billing notices) have no site or widget
        items: (await service.impressions(campaign.id, viewer, { ...ranged(req.query), ...all })).items.map(
          ({ exchange, ...row }) => ({ source: exchange ? 'exchange' : 'widget', ...row }),
        ),
      }));
    },
  );

  app.get(
    '/sites/:id/impression-rate/export',
    { schema: { tags, params, querystring: geoClicksFileQuery } },
    async (req, reply) => {
      const site = await siteVisible(req.params.id, req);
      const columns: ReportColumn[] = [
        { key: 'widget_id', kind: 'id' },
        { key: 'widget_title', kind: 'text' },
        { key: 'day', kind: 'text' },
        { key: 'requests', kind: 'int' },
        { key: 'rendered', kind: 'int' },
        { key: 'impression_rate', kind: 'percent' },
        { key: 'impressions', kind: 'int' },
        { key: 'viewable', kind: 'int' },
        { key: 'rate', kind: 'percent' },
      ];
      const list = { what: `site-${site.id}`, group: 'impression-rate', userId: site.userId, columns };
      return sendListFile(req, reply, list, async (all) => ({
        // a row per widget and day of the range, then the widget's whole range as day `total`
        items: (await service.impressionRate(site.id, { ...ranged(req.query), ...all })).items.flatMap(
          ({ days, ...widget }) => {
            const { widget_id, widget_title } = widget;
            return [...days.map((d) => ({ widget_id, widget_title, ...d })), { ...widget, day: 'total' }];
          },
        ),
      }));
    },
  );

  app.get(
    '/sites/:id/click-sources/export',
    { schema: { tags, params, querystring: clickSourcesFileQuery } },
    async (req, reply) => {
      const site = await siteVisible(req.params.id, req);
      const { group } = req.query;
      const columns: ReportColumn[] = [
        { key: group, kind: 'text' },
        { key: 'widget_title', kind: 'text' },
        { key: 'clicks', kind: 'int' },
        { key: 'invalid_clicks', kind: 'int' },
        { key: 'earned', kind: 'money' },
      ];
      const list = { what: `site-${site.id}`, group: `click-sources-${group}`, userId: site.userId, columns };
      return sendListFile(req, reply, list, async (all) => ({
        items: (await service.clickSources(site.id, { ...ranged(req.query), ...all })).items.map(
          ({ key, ...row }) => ({ [group]: key, ...row }),
        ),
      }));
    },
  );

  app.get(
    '/sites/:id/toparticles/export',
    { schema: { tags, params, querystring: topArticlesFileQuery } },
    async (req, reply) => {
      const site = await siteVisible(req.params.id, req);
      const columns: ReportColumn[] = [
        { key: 'material_id', kind: 'id' },
        { key: 'title', kind: 'text' },
        { key: 'url', kind: 'text' },
        { key: 'impressions', kind: 'int' },
        { key: 'clicks', kind: 'int' },
        { key: 'ctr', kind: 'percent' },
      ];
      const list = { what: `site-${site.id}`, group: 'toparticles', userId: site.userId, columns };
      return sendListFile(req, reply, list, (all) =>
        service.topArticles(site.id, { ...ranged(req.query), ...all }),
      );
    },
  );

  app.get(
    '/sites/:id/clicks/export',
    { schema: { tags, params, querystring: clicksFileQuery } },
    async (req, reply) => {
      const site = await siteVisible(req.params.id, req, true);
      const viewer = { admin: isAdmin(req) };
      return sendClicksFile(req, reply, { owner: 'site', id: site.id, userId: site.userId, viewer });
    },
  );

  app.get(
    '/widgets/:id/clicks/export',
    { schema: { tags, params, querystring: clicksFileQuery } },
    async (req, reply) => {
      const widget = await widgetVisible(req.params.id, req, true);
      const viewer = { admin: isAdmin(req) };
      return sendClicksFile(req, reply, { owner: 'widget', id: widget.id, userId: widget.userId, viewer });
    },
  );

  app.get(
    '/widgets/:id/clicks',
    { schema: { tags, params, querystring: clicksQuery, response: { 200: clicksPage } } },
    async (req) => {
      const widget = await widgetVisible(req.params.id, req, true);
      return unlessDelayed(req, widget.userId, { sites_hidden: false }, () =>
        service.clicks('widget', widget.id, { admin: isAdmin(req) }, ranged(req.query)),
      );
    },
  );
};
