import {
  criteoStatsAnswer,
  criteoStatsQuery,
  dbdAnswer,
  dbdQuery,
  ecpmAnswer,
  ecpmQuery,
  id,
  platformRevenueAnswer,
  platformRevenueQuery,
  rtbStatsAnswer,
  rtbStatsQuery,
  type StatsTreeBreakdown,
  type StatsTreeSubject,
  statsFileQuery,
  statsRange,
  statsTreeAnswer,
  statsTreeBreakdowns,
  statsTreeQuery,
  statsTreeSubjects,
  statsTreeTotal,
  statsTreeTotalQuery,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { readScope } from '../../lib/scope.ts';
import { createDspTrees } from '../dsp-partners/dsp-trees.ts';
import type { StatsSubject } from './stats.repository.ts';
import { delayedAnswer, isAdvanced, ownOnly, sideOf } from './stats.service.ts';
import { sendStatsFile } from './stats-export.ts';
import type { TreeScope } from './stats-trees.service.ts';

/** The trees over our own rollups: which entity their ids name and its permission subject. */
const ownTrees = {
  sites: { kind: 'site', type: 'Site' },
  campaigns: { kind: 'campaign', type: 'Campaign' },
  banners: { kind: 'banner', type: 'Banner' },
} as const satisfies Partial<Record<StatsTreeSubject, { kind: StatsSubject; type: string }>>;

/** The permission subject of each entity a statistics call names by id. */
const typeOf = { site: 'Site', widget: 'Widget', campaign: 'Campaign', banner: 'Banner' } as const;

/** The exchange's trees (issue 11): who may read them. */
const exchangeTrees = {
  dsp: 'DspPartner',
  'phoenix-dsp': 'DspPartner',
} as const satisfies Partial<Record<StatsTreeSubject, string>>;

const entityParams = z.object({ id });
const partnerParams = z.object({ id, partnerId: id });
const sourceParams = z.object({ id, partnerId: id, sourceId: id });
const sourceOnlyParams = z.object({ id, sourceId: id });

/**
 * The second stats tree (/api/stats2/…), day-by-day (/api/dbd), criteo (/api/criteo/stats), eCPM and
 * platform revenue (/api/stats/ecpm, /api/stats/revenue) and the rtb-stats of campaigns and creatives
 * (contract: packages/contract/src/stats-trees.ts). Every id is checked against what the caller may read:
 * an unknown or invisible one is a 404.
 */
export const statsTreesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);
  const { repo, service } = ctx.statsTrees;

  /**
   * These ids of `kind` (404 when one does not exist or the caller may not read it) and when their
   * statistics show to the caller (the 24-hour rule: the latest of their owners'; null: now).
   */
  async function readable(kind: StatsSubject, ids: readonly number[], ability: AppAbility) {
    const type = typeOf[kind];
    const owners = await repo.owners(kind, ids);
    for (const i of ids) {
      const owner = owners.get(i);
      if (owner === undefined || !ability.can('read', subject(type, { user_id: String(owner) })))
        throw new AppError(404, 'not_found');
    }
    // a site's (and its widgets') statistics an admin hid are for admins only (assertSiteStats)
    if ((kind === 'site' || kind === 'widget') && ownOnly(ability) && (await repo.hiddenOf(kind, ids)).length)
      throw new AppError(403, 'stats_hidden');
    return { ids: [...ids], delay: await delayOf([...owners.values()], ability) };
  }

  /** The latest moment the statistics of these owners show to the caller (null: now). */
  async function delayOf(owners: readonly number[], ability: AppAbility): Promise<Date | null> {
    let latest: Date | null = null;
    for (const owner of new Set(owners)) {
      const at = await ctx.stats.statsDelay(owner, ability);
      if (at && (!latest || at > latest)) latest = at;
    }
    return latest;
  }

  /** The user whose statistics are asked for: it exists and the caller may read its statistics, or 404. */
  async function statsOwner(userId: number, ability: AppAbility) {
    if (
      !(await ctx.users.findById(userId)) ||
      !ability.can('read', subject('Stats', { user_id: String(userId) }))
    )
      throw new AppError(404, 'not_found');
    return { userId, delay: await ctx.stats.statsDelay(userId, ability) };
  }

  /**
   * The named ids (checked), or everything of `kind` the caller may read (ids undefined: everything),
   * and the 24-hour rule's delay (without ids: the caller's own).
   */
  async function scopeOf(kind: StatsSubject, named: readonly string[], req: FastifyRequest) {
    if (named.length) return readable(kind, [...new Set(named.map(Number))], req.ability);
    const scope = readScope(req.ability, typeOf[kind], 'user_id');
    const delay = await ctx.stats.statsDelay(req.user!.id, req.ability);
    const ids =
      scope === 'all' ? undefined : await repo.idsOwnedBy(kind, scope.map(Number), ownOnly(req.ability));
    return { ids, delay };
  }

  const delayed = (at: Date, req: { page: number; limit: number }) => ({
    rows: [],
    total: delayedAnswer(at).total,
    count: 0,
    page: req.page,
    limit: req.limit,
    available_at: at.toISOString(),
  });

  // --- the second stats tree -------------------------------------------------------------------------
  // the outbound auction's trees (dsp, phoenix-dsp) read dsp_rollups; id, ids and partner_id name DSP partners
  const dspTrees = createDspTrees(ctx.dspPartners.db);
  const dspPartnerIds = (q: {
    id?: string | undefined;
    ids?: string[] | undefined;
    partner_id?: string | undefined;
  }) => {
    const named = [...(q.id ? [q.id] : []), ...(q.ids ?? []), ...(q.partner_id ? [q.partner_id] : [])];
    return named.length ? [...new Set(named.map(Number))] : undefined;
  };
  /**
   * The partners tree: the sites of the agency groups named by `id`/`ids` (404 for an unknown one), or of
   * every group, as the publisher side sees them (what GET /api/partners/{id}/stats counts for one group).
   * Admins only, as the groups are; `partner_id` (an exchange partner) has no traffic here.
   */
  async function groupsScope(
    req: FastifyRequest,
    q: { id?: string | undefined; ids?: string[] | undefined; partner_id?: string | undefined },
  ): Promise<TreeScope | null> {
    assertCan(req.ability, 'read', 'Partner');
    const named = [...new Set([...(q.id ? [q.id] : []), ...(q.ids ?? [])].map(Number))];
    const groups = await Promise.all(named.map((groupId) => ctx.partners.load(groupId)));
    if (q.partner_id) return null;
    const siteIds = named.length
      ? [...new Set((await Promise.all(groups.map((g) => ctx.partners.repo.siteIds(g)))).flat())]
      : await ctx.partners.repo.allSiteIds();
    return siteIds.length
      ? { filter: { site: siteIds }, side: 'publisher', ownOnly: ownOnly(req.ability) }
      : null;
  }

  for (const tree of statsTreeSubjects) {
    const own = tree in ownTrees ? ownTrees[tree as keyof typeof ownTrees] : undefined;
    const dsp = tree === 'dsp' || tree === 'phoenix-dsp';

    /**
     * What the tree sums for this request (null: nothing, the exchange's trees) and the 24-hour rule's
     * delay of what it is about.
     */
    async function treeScope(
      req: FastifyRequest,
      q: { id?: string | undefined; ids?: string[] | undefined; partner_id?: string | undefined },
      breakdown: StatsTreeBreakdown,
    ): Promise<{ scope: TreeScope | null; delay: Date | null }> {
      if (tree === 'partners') return { scope: await groupsScope(req, q), delay: null };
      if (!own) {
        assertCan(req.ability, 'read', exchangeTrees[tree as keyof typeof exchangeTrees]);
        // a DSP partner named that does not exist is a 404, as every id the trees take
        if (dsp)
          for (const partnerId of dspPartnerIds(q) ?? [])
            if (!(await ctx.dspPartners.repo.row(partnerId))) throw new AppError(404, 'not_found');
        return { scope: null, delay: null };
      }
      assertCan(req.ability, 'read', own.type);
      const named = [...(q.id ? [q.id] : []), ...(q.ids ?? [])];
      let { ids, delay } = await scopeOf(own.kind, named, req);
      // what ran on a site (its campaigns) is advanced statistics: for others than admins, only of the sites
      // an admin turned them on for (assertSiteStats)
      if (own.kind === 'site' && breakdown === 'campaigns' && ownOnly(req.ability)) {
        const advanced = await repo.advancedSites(ids ?? []);
        if (named.length && advanced.length < (ids ?? []).length)
          throw new AppError(403, 'advanced_stats_off');
        ids = advanced;
        if (!ids.length) return { scope: null, delay };
      }
      // no traffic goes through an exchange partner yet (issue 11): a partner's share is nothing
      if (q.partner_id) return { scope: null, delay };
      return {
        scope: {
          filter: ids ? { [own.kind]: ids } : {},
          side: sideOf(own.kind),
          ownOnly: ownOnly(req.ability),
        },
        delay,
      };
    }

    for (const breakdown of statsTreeBreakdowns) {
      app.get(
        `/stats2/${tree}/${breakdown}`,
        { schema: { tags: ['stats'], querystring: statsTreeQuery, response: { 200: statsTreeAnswer } } },
        async (req) => {
          const { scope, delay } = await treeScope(req, req.query, breakdown);
          if (dsp)
            return dspTrees.tree(breakdown, {
              ...req.query,
              ...statsRange(req.query),
              partnerIds: dspPartnerIds(req.query),
            });
          if (delay) return delayed(delay, req.query);
          return service.tree(scope, breakdown, { ...req.query, ...statsRange(req.query) });
        },
      );
      app.get(
        `/stats2/${tree}/${breakdown}/export`,
        { schema: { tags: ['stats'], querystring: statsTreeQuery.safeExtend(statsFileQuery.shape) } },
        async (req, reply) => {
          const { scope, delay } = await treeScope(req, req.query, breakdown);
          // every row: the file is not paged
          const all = { ...req.query, page: 1, limit: Number.MAX_SAFE_INTEGER, ...statsRange(req.query) };
          const answer = dsp
            ? await dspTrees.tree(breakdown, { ...all, partnerIds: dspPartnerIds(req.query) })
            : delay
              ? delayed(delay, all)
              : await service.tree(scope, breakdown, all);
          const ids = [...(req.query.id ? [req.query.id] : []), ...(req.query.ids ?? [])];
          return sendStatsFile(reply, answer, {
            what: [tree, ...ids.slice(0, 3)].join('-'),
            group: breakdown === 'revenue' ? 'day' : breakdown,
            range: statsRange(req.query),
            side: tree === 'partners' || (own && sideOf(own.kind) === 'publisher') ? 'earned' : 'spent',
            format: req.query.format,
          });
        },
      );
      app.get(
        `/stats2/${tree}/${breakdown}/total`,
        { schema: { tags: ['stats'], querystring: statsTreeTotalQuery, response: { 200: statsTreeTotal } } },
        async (req) => {
          const { scope, delay } = await treeScope(req, req.query, breakdown);
          if (dsp)
            return dspTrees.total({
              ...req.query,
              ...statsRange(req.query),
              partnerIds: dspPartnerIds(req.query),
            });
          if (delay) return { total: delayedAnswer(delay).total, available_at: delay.toISOString() };
          return service.treeTotal(scope, breakdown, { ...req.query, ...statsRange(req.query) });
        },
      );
    }
  }

  // --- day by day ------------------------------------------------------------------------------------
  app.get(
    '/dbd',
    { schema: { tags: ['stats'], querystring: dbdQuery, response: { 200: dbdAnswer } } },
    async (req) => {
      const q = req.query;
      let scope: TreeScope;
      let delay: Date | null;
      if (q.user_id) {
        const user = await statsOwner(Number(q.user_id), req.ability);
        scope = {
          filter: {},
          owner: { userId: user.userId, side: q.side, visibleOnly: ownOnly(req.ability) },
          side: q.side,
          ownOnly: ownOnly(req.ability),
        };
        delay = user.delay;
      } else {
        const [kind, entityId] = q.campaign_id
          ? (['campaign', q.campaign_id] as const)
          : q.site_id
            ? (['site', q.site_id] as const)
            : (['widget', q.widget_id] as const);
        const entity = await readable(kind, [Number(entityId)], req.ability);
        scope = { filter: { [kind]: entity.ids }, side: sideOf(kind), ownOnly: ownOnly(req.ability) };
        delay = entity.delay;
      }
      if (delay) return delayedAnswer(delay);
      return service.byDay(scope, { ...q, ...statsRange(q) });
    },
  );

  // --- criteo ----------------------------------------------------------------------------------------
  app.get(
    '/criteo/stats',
    { schema: { tags: ['stats'], querystring: criteoStatsQuery, response: { 200: criteoStatsAnswer } } },
    async (req) => {
      const q = req.query;
      const criteo = await service.criteoCampaignIds();
      let scope: TreeScope;
      let delay: Date | null;
      if (q.campaign_id) {
        const campaign = await readable('campaign', [Number(q.campaign_id)], req.ability);
        scope = {
          filter: { campaign: criteo.filter((c) => campaign.ids.includes(c)) },
          side: 'advertiser',
          ownOnly: ownOnly(req.ability),
        };
        delay = campaign.delay;
      } else {
        // one site or widget; without an id the whole platform for admins, for others the sites they may read
        const [kind, named] = q.widget_id
          ? (['widget', [q.widget_id]] as const)
          : (['site', q.site_id ? [q.site_id] : []] as const);
        const entities = await scopeOf(kind, named, req);
        scope = {
          filter: entities.ids ? { [kind]: entities.ids, campaign: criteo } : { campaign: criteo },
          side: 'publisher',
          ownOnly: ownOnly(req.ability),
        };
        delay = entities.delay;
      }
      if (delay) return delayedAnswer(delay);
      return service.byDay(scope, { ...q, ...statsRange(q) });
    },
  );

  // --- eCPM and platform revenue ---------------------------------------------------------------------
  app.get(
    '/stats/ecpm',
    { schema: { tags: ['stats'], querystring: ecpmQuery, response: { 200: ecpmAnswer } } },
    async (req) => {
      const q = req.query;
      const user = await statsOwner(Number(q.user_id ?? req.user!.id), req.ability);
      if (user.delay) return delayed(user.delay, q);
      const own = ownOnly(req.ability);
      const scope = {
        filter: {},
        owner: {
          userId: user.userId,
          side: q.side,
          visibleOnly: own,
          advancedOnly: own && isAdvanced(q.group),
        },
        side: q.side,
        ownOnly: ownOnly(req.ability),
      };
      return service.ecpm(scope, q.group, { ...q, ...statsRange(q) });
    },
  );

  app.get(
    '/stats/revenue',
    {
      schema: {
        tags: ['stats'],
        querystring: platformRevenueQuery,
        response: { 200: platformRevenueAnswer },
      },
    },
    async (req) => {
      // the platform's own income: admins and admin readonly (who may enter the admin area), as /stats/platform
      assertCan(req.ability, 'manage', 'ACL');
      return service.platformRevenue({ ...req.query, ...statsRange(req.query) });
    },
  );

  // --- rtb-stats of campaigns and creatives ----------------------------------------------------------
  for (const [entity, kind] of [
    ['campaigns', 'campaign'],
    ['banners', 'banner'],
  ] as const) {
    const rtb = async (
      ability: AppAbility,
      entityId: string,
      q: typeof rtbStatsQuery._output,
      params: { partnerId?: string; sourceId?: string } = {},
      bySource = false,
    ) => {
      const { delay } = await readable(kind, [Number(entityId)], ability);
      if (delay) return delayed(delay, q);
      // what the exchange billed (modules/rtb): unknown partner or source ids simply sum nothing
      return ctx.rtbStats(kind, Number(entityId), params, bySource, { ...q, ...statsRange(q) });
    };
    const schema = (params: z.ZodType) => ({
      tags: ['stats'],
      params,
      querystring: rtbStatsQuery,
      response: { 200: rtbStatsAnswer },
    });
    const exportSchema = (params: z.ZodType) => ({
      tags: ['stats'],
      params,
      querystring: rtbStatsQuery.safeExtend(statsFileQuery.shape),
    });
    const routes = [
      ['', entityParams],
      ['/sources', entityParams],
      ['/sources/:sourceId', sourceOnlyParams],
      ['/partners/:partnerId', partnerParams],
      ['/partners/:partnerId/sources/:sourceId', sourceParams],
    ] as const;
    for (const [suffix, params] of routes) {
      app.get(`/stats/${entity}/:id/rtb${suffix}`, { schema: schema(params) }, (req) =>
        rtb(
          req.ability,
          (req.params as { id: string }).id,
          req.query,
          req.params as { partnerId?: string; sourceId?: string },
          suffix === '/sources',
        ),
      );
      app.get(
        `/stats/${entity}/:id/rtb${suffix}/export`,
        { schema: exportSchema(params) },
        async (req, reply) => {
          const entityId = (req.params as { id: string }).id;
          const q = { ...req.query, page: 1, limit: Number.MAX_SAFE_INTEGER };
          const filter = req.params as { partnerId?: string; sourceId?: string };
          const answer = await rtb(req.ability, entityId, q, filter, suffix === '/sources');
          return sendStatsFile(reply, answer, {
            what: `${kind}-${entityId}-rtb`,
            group: suffix.endsWith('/sources') ? 'source' : 'day',
            range: statsRange(req.query),
            side: 'spent',
            format: req.query.format,
          });
        },
      );
    }
  }
};
