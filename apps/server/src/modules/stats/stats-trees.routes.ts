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
  type StatsTreeSubject,
  statsRange,
  statsTreeAnswer,
  statsTreeBreakdowns,
  statsTreeQuery,
  statsTreeSubjects,
  statsTreeTotal,
  statsTreeTotalQuery,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { readScope } from '../../lib/scope.ts';
import type { StatsSubject } from './stats.repository.ts';
import { type StatsSide, sideOf } from './stats.service.ts';
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
  partners: 'Partner',
  dsp: 'DspPartner',
  'phoenix-dsp': 'DspPartner',
} as const satisfies Partial<Record<StatsTreeSubject, string>>;

const entityParams = z.object({ id });
const partnerParams = z.object({ id, partnerId: id });
const sourceParams = z.object({ id, partnerId: id, sourceId: id });

/**
 * The second stats tree (/api/stats2/…), day-by-day (/api/dbd), criteo (/api/criteo/stats), eCPM and
 * platform revenue (/api/stats/ecpm, /api/stats/revenue) and the rtb-stats of campaigns and creatives
 * (contract: packages/contract/src/stats-trees.ts). Every id is checked against what the caller may read:
 * an unknown or invisible one is a 404.
 */
export const statsTreesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);
  const { repo, service } = ctx.statsTrees;

  /** These ids of `kind`, or 404 when one does not exist or the caller may not read it. */
  async function readable(kind: StatsSubject, ids: readonly number[], ability: AppAbility) {
    const type = typeOf[kind];
    const owners = await repo.owners(kind, ids);
    for (const i of ids) {
      const owner = owners.get(i);
      if (owner === undefined || !ability.can('read', subject(type, { user_id: String(owner) })))
        throw new AppError(404, 'not_found');
    }
    return [...ids];
  }

  /** The user whose statistics are asked for: it exists and the caller may read its statistics, or 404. */
  async function statsOwner(userId: number, ability: AppAbility) {
    if (
      !(await ctx.users.findById(userId)) ||
      !ability.can('read', subject('Stats', { user_id: String(userId) }))
    )
      throw new AppError(404, 'not_found');
    return userId;
  }

  /** The named ids (checked), or everything of `kind` the caller may read (undefined: everything). */
  async function scopeOf(
    kind: StatsSubject,
    named: readonly string[],
    ability: AppAbility,
  ): Promise<number[] | undefined> {
    if (named.length) return readable(kind, [...new Set(named.map(Number))], ability);
    const scope = readScope(ability, typeOf[kind], 'user_id');
    return scope === 'all' ? undefined : repo.idsOwnedBy(kind, scope.map(Number));
  }

  // --- the second stats tree -------------------------------------------------------------------------
  for (const tree of statsTreeSubjects) {
    const own = tree in ownTrees ? ownTrees[tree as keyof typeof ownTrees] : undefined;

    /** What the tree sums for this request; null when it has nothing to sum (the exchange's trees). */
    async function treeScope(
      ability: AppAbility,
      q: { id?: string | undefined; ids?: string[] | undefined; partner_id?: string | undefined },
    ): Promise<TreeScope | null> {
      if (!own) {
        assertCan(ability, 'read', exchangeTrees[tree as keyof typeof exchangeTrees]);
        return null;
      }
      assertCan(ability, 'read', own.type);
      const named = [...(q.id ? [q.id] : []), ...(q.ids ?? [])];
      const ids = await scopeOf(own.kind, named, ability);
      // no traffic goes through an exchange partner yet (issue 11): a partner's share is nothing
      if (q.partner_id) return null;
      return { filter: ids ? { [own.kind]: ids } : {}, side: sideOf(own.kind) };
    }

    for (const breakdown of statsTreeBreakdowns) {
      app.get(
        `/stats2/${tree}/${breakdown}`,
        { schema: { tags: ['stats'], querystring: statsTreeQuery, response: { 200: statsTreeAnswer } } },
        async (req) => {
          const scope = await treeScope(req.ability, req.query);
          return service.tree(scope, breakdown, { ...req.query, ...statsRange(req.query) });
        },
      );
      app.get(
        `/stats2/${tree}/${breakdown}/total`,
        { schema: { tags: ['stats'], querystring: statsTreeTotalQuery, response: { 200: statsTreeTotal } } },
        async (req) => {
          const scope = await treeScope(req.ability, req.query);
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
      const range = { ...q, ...statsRange(q) };
      let scope: TreeScope;
      if (q.campaign_id) {
        scope = {
          filter: { campaign: await readable('campaign', [Number(q.campaign_id)], req.ability) },
          side: 'advertiser',
        };
      } else if (q.site_id) {
        scope = {
          filter: { site: await readable('site', [Number(q.site_id)], req.ability) },
          side: 'publisher',
        };
      } else if (q.widget_id) {
        scope = {
          filter: { widget: await readable('widget', [Number(q.widget_id)], req.ability) },
          side: 'publisher',
        };
      } else {
        const user = await statsOwner(Number(q.user_id), req.ability);
        const kind = q.side === 'advertiser' ? 'campaign' : 'site';
        scope = { filter: { [kind]: await repo.idsOwnedBy(kind, [user]) }, side: q.side };
      }
      return service.byDay(scope, range);
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
      if (q.campaign_id) {
        const [campaign] = await readable('campaign', [Number(q.campaign_id)], req.ability);
        scope = { filter: { campaign: criteo.filter((c) => c === campaign) }, side: 'advertiser' };
      } else if (q.site_id) {
        const site = await readable('site', [Number(q.site_id)], req.ability);
        scope = { filter: { site, campaign: criteo }, side: 'publisher' };
      } else if (q.widget_id) {
        const widget = await readable('widget', [Number(q.widget_id)], req.ability);
        scope = { filter: { widget, campaign: criteo }, side: 'publisher' };
      } else {
        // the whole platform for admins; for others the criteo traffic on the sites they may read
        const sites = await scopeOf('site', [], req.ability);
        scope = {
          filter: sites ? { site: sites, campaign: criteo } : { campaign: criteo },
          side: 'publisher',
        };
      }
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
      const side: StatsSide = q.side;
      const kind = side === 'advertiser' ? 'campaign' : 'site';
      const scope = { filter: { [kind]: await repo.idsOwnedBy(kind, [user]) }, side };
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
      // the platform's own income: for whoever may read every account's statistics (admins)
      if (readScope(req.ability, 'Stats', 'user_id') !== 'all') throw new AppError(403, 'forbidden');
      return service.platformRevenue({ ...req.query, ...statsRange(req.query) });
    },
  );

  // --- rtb-stats of campaigns and creatives ----------------------------------------------------------
  for (const [entity, kind] of [
    ['campaigns', 'campaign'],
    ['banners', 'banner'],
  ] as const) {
    const rtb = async (ability: AppAbility, entityId: string, q: typeof rtbStatsQuery._output) => {
      await readable(kind, [Number(entityId)], ability);
      // the exchange (issue 11) records no rtb traffic and has no partners yet: nothing to sum
      return service.tree(null, 'rtb', { ...q, ...statsRange(q) });
    };
    const schema = (params: z.ZodType) => ({
      tags: ['stats'],
      params,
      querystring: rtbStatsQuery,
      response: { 200: rtbStatsAnswer },
    });
    app.get(`/stats/${entity}/:id/rtb`, { schema: schema(entityParams) }, (req) =>
      rtb(req.ability, (req.params as { id: string }).id, req.query),
    );
    app.get(`/stats/${entity}/:id/rtb/sources`, { schema: schema(entityParams) }, (req) =>
      rtb(req.ability, (req.params as { id: string }).id, req.query),
    );
    app.get(`/stats/${entity}/:id/rtb/partners/:partnerId`, { schema: schema(partnerParams) }, (req) =>
      rtb(req.ability, (req.params as { id: string }).id, req.query),
    );
    app.get(
      `/stats/${entity}/:id/rtb/partners/:partnerId/sources/:sourceId`,
      { schema: schema(sourceParams) },
      (req) => rtb(req.ability, (req.params as { id: string }).id, req.query),
    );
  }
};
