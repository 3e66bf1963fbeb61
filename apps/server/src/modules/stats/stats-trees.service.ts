import {
  dayEnd,
  dayStart,
  daysBetween,
  fromMicros,
  type PlatformRevenueAnswer,
  type StatsSortColumn,
  type StatsTreeAnswer,
  type StatsTreeBreakdown,
  type StatsTreeRow,
  type StatsValues,
} from '@adp/contract';
import type { StatsFilter, StatsOwner, StatsStore } from './stats.repository.ts';
import type { StatsBreakdown, StatsService, StatsSide } from './stats.service.ts';
import type { StatsEntityKind, StatsTreesRepository } from './stats-trees.repository.ts';

const zeroValues: StatsValues = {
  impressions: 0,
  viewable: 0,
  clicks: 0,
  invalid_clicks: 0,
  conversions: 0,
  ctr: 0,
  ecpm: 0,
  spent: 0,
  earned: 0,
};

/** The range, sorting and paging of a tree's page (days of `tz`, validated by the contract). */
export interface TreeRequest {
  from: string;
  to: string;
  tz: string;
  sort?: StatsSortColumn | undefined;
  order?: 'asc' | 'desc' | undefined;
  page: number;
  limit: number;
}

/**
 * What a tree sums: the rollups of `filter` (none named: all) and, with `owner`, only those of that user's
 * campaigns or sites; eCPM from the `side`'s view.
 */
export interface TreeScope {
  filter: StatsFilter;
  owner?: StatsOwner;
  side: StatsSide;
  /** Only the side's own money (everyone but admins): see the stats service's `values`. */
  ownOnly?: boolean;
}

/**
 * The breakdowns the store answers and how; a breakdown missing here (`rtb`, `partner`: the exchange's,
 * issue 11) answers no rows.
 */
const treeGroup: Partial<Record<StatsTreeBreakdown, { group: StatsBreakdown; names?: StatsEntityKind }>> = {
  revenue: { group: 'day' },
  site: { group: 'site', names: 'site' },
  campaigns: { group: 'campaign', names: 'campaign' },
  domains: { group: 'site' },
  country: { group: 'country' },
  device: { group: 'device' },
  os: { group: 'os' },
  city: { group: 'city' },
};

/** `ecpm` groups: the store's breakdown and the entity whose title names a row. */
const ecpmGroup = {
  day: { group: 'day' },
  site: { group: 'site', names: 'site' },
  widget: { group: 'widget', names: 'widget' },
  campaign: { group: 'campaign', names: 'campaign' },
} as const satisfies Record<string, { group: StatsBreakdown; names?: StatsEntityKind }>;

const isId = (key: string) => /^[0-9]+$/.test(key);

/**
 * The second stats tree, day-by-day, criteo, eCPM and platform revenue answers: sums of the statistics
 * store (through the stats service) with display names, paging, and the platform ledger per day.
 */
export function createStatsTreesService(deps: {
  stats: StatsService;
  /** The statistics store, for the platform ledger's income (`income`). */
  store: Pick<StatsStore, 'income'>;
  repo: StatsTreesRepository;
}) {
  const { stats, store, repo } = deps;
  const sum = (scope: TreeScope, req: Parameters<StatsService['summarize']>[2]) =>
    stats.summarize(scope.filter, scope.side, req, { owner: scope.owner, ownOnly: scope.ownOnly });

  const empty = (req: { page: number; limit: number }): StatsTreeAnswer => ({
    rows: [],
    total: { ...zeroValues },
    count: 0,
    page: req.page,
    limit: req.limit,
  });

  /** One page of a breakdown with the names of its ids, and the total. */
  async function page(
    scope: TreeScope,
    how: { group: StatsBreakdown; names?: StatsEntityKind; domains?: boolean },
    req: TreeRequest,
  ): Promise<StatsTreeAnswer> {
    // a paged list of days starts at the newest (today on page 1), unless the caller sorts it otherwise
    const newestFirst = how.group === 'day' && !req.sort && !req.order;
    const answer = await sum(scope, {
      ...req,
      group: how.group,
      ...(newestFirst ? { sort: 'key' as const, order: 'desc' as const } : {}),
    });
    const start = (req.page - 1) * req.limit;
    let rows: StatsTreeRow[] = answer.rows.slice(start, start + req.limit);
    const ids = rows.filter((r) => isId(r.key)).map((r) => Number(r.key));
    if (how.domains) {
      // a site's domain is unique, so the rows stay one per site; a deleted site keeps its id
      const domains = await repo.domains(ids);
      rows = rows.map((r) => ({ ...r, key: domains.get(Number(r.key)) ?? r.key }));
    } else if (how.names) {
      const titles = await repo.titles(how.names, ids);
      rows = rows.map((r) => {
        const name = isId(r.key) ? titles.get(Number(r.key)) : undefined;
        return name === undefined ? r : { ...r, name };
      });
    }
    return { rows, total: answer.total, count: answer.rows.length, page: req.page, limit: req.limit };
  }

  return {
    /** A tree's breakdown over the scope; breakdowns the store cannot answer (the exchange's) are empty. */
    async tree(scope: TreeScope | null, breakdown: StatsTreeBreakdown, req: TreeRequest) {
      const how = treeGroup[breakdown];
      if (!scope || !how) return empty(req);
      return page(scope, { ...how, domains: breakdown === 'domains' }, req);
    },

    /** A tree's total over the scope (zero for the exchange's breakdowns). */
    async treeTotal(
      scope: TreeScope | null,
      breakdown: StatsTreeBreakdown,
      range: { from: string; to: string; tz: string },
    ): Promise<{ total: StatsValues }> {
      if (!scope || !treeGroup[breakdown]) return { total: { ...zeroValues } };
      // any dimension sums the same rollups; one with few values keeps the answer small
      const answer = await sum(scope, { ...range, group: 'device' });
      return { total: answer.total };
    },

    /** Every day of the range, zero-filled, and the total. */
    byDay(scope: TreeScope, range: { from: string; to: string; tz: string }) {
      return sum(scope, { ...range, group: 'day' });
    },

    /** eCPM (and every other value) of a user's sites or campaigns by day, site, widget or campaign. */
    ecpm(scope: TreeScope, group: keyof typeof ecpmGroup, req: TreeRequest) {
      return page(scope, ecpmGroup[group], req);
    },

    /** Criteo campaign ids (of these owners only when given). */
    criteoCampaignIds: repo.criteoCampaignIds,

    /** The platform's income per day of `tz` (zero-filled) and the total, from the platform ledger. */
    async platformRevenue(range: { from: string; to: string; tz: string }): Promise<PlatformRevenueAnswer> {
      const days = daysBetween(range.from, range.to);
      const starts = days.map((d) => dayStart(d, range.tz).getTime());
      const sums = days.map(() => 0n);
      const hours = await store.income({
        from: dayStart(range.from, range.tz),
        to: dayEnd(range.to, range.tz),
      });
      for (const h of hours) {
        const at = Number(h.key) * 1000;
        // the last day starting at or before the hour (as the stats service buckets rollup hours)
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if ((starts[mid] ?? 0) <= at) lo = mid;
          else hi = mid - 1;
        }
        if ((starts[lo] ?? 0) <= at) sums[lo] = (sums[lo] ?? 0n) + h.sum;
      }
      const total = sums.reduce((a, b) => a + b, 0n);
      return {
        rows: days.map((key, i) => ({ key, revenue: fromMicros(sums[i] ?? 0n) })),
        total: { revenue: fromMicros(total) },
      };
    },
  };
}
export type StatsTreesService = ReturnType<typeof createStatsTreesService>;
