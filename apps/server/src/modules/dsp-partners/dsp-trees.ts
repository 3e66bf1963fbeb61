import {
  dayEnd,
  dayStart,
  daysBetween,
  fromMicros,
  type StatsSortColumn,
  type StatsTreeAnswer,
  type StatsTreeBreakdown,
  type StatsValues,
} from '@adp/contract';
import { and, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { campaigns, dspPartners, dspRollups, rtbPartners, sites } from '../../db/schema/index.ts';

/** What each breakdown of the `dsp` and `phoenix-dsp` trees groups dsp_rollups by. */
const keyOf: Record<Exclude<StatsTreeBreakdown, 'revenue'>, SQL> = {
  site: sql`${dspRollups.siteId}::text`,
  domains: sql`${dspRollups.siteId}::text`,
  campaigns: sql`${dspRollups.campaignId}::text`,
  rtb: sql`${dspRollups.rtbPartnerId}::text`,
  partner: sql`${dspRollups.dspPartnerId}::text`,
  country: sql`${dspRollups.country}`,
  city: sql`${dspRollups.city}`,
  device: sql`${dspRollups.device}`,
  os: sql`${dspRollups.os}`,
};
const idKeys = new Set<StatsTreeBreakdown>(['site', 'domains', 'campaigns', 'rtb', 'partner']);

export interface DspTreeRequest {
  from: string;
  to: string;
  tz: string;
  /** DSP partners (id, ids, partner_id): only their traffic; none named: every partner's. */
  partnerIds?: number[] | undefined;
  /** Our sites (an agency group's): only their slots; absent: every site's. */
  siteIds?: number[] | undefined;
  sort?: StatsSortColumn | undefined;
  order?: 'asc' | 'desc' | undefined;
  page: number;
  limit: number;
}

/**
 * A won slot seen as the statistics trees' values: an impression sold (`impressions` = wins), what the
 * partners paid (`spent` and `earned`, the clearing prices per impression) and its eCPM; the exchange has
 * no views, clicks or conversions of its own.
 */
function valuesOf(wins: number, revenue: bigint): StatsValues {
  return {
    impressions: wins,
    viewable: 0,
    clicks: 0,
    invalid_clicks: 0,
    conversions: 0,
    ctr: 0,
    ecpm: wins > 0 ? fromMicros((revenue * 1000n) / BigInt(wins)) : 0,
    spent: fromMicros(revenue),
    earned: fromMicros(revenue),
  };
}

/**
 * The `dsp` and `phoenix-dsp` trees of /api/stats2 (the outbound auction's traffic: our widgets' slots sold
 * to DSP partners), answered from dsp_rollups: by day (`revenue`, zero-filled), site (`site`, `domains`),
 * our contending campaign, RTB partner, DSP partner (`partner`), country, city, device, OS.
 */
export function createDspTrees(db: Db) {
  async function sums(breakdown: StatsTreeBreakdown, q: Omit<DspTreeRequest, 'page' | 'limit'>) {
    const conds: SQL[] = [
      gte(dspRollups.hour, dayStart(q.from, q.tz)),
      lt(dspRollups.hour, dayEnd(q.to, q.tz)),
    ];
    if (q.partnerIds?.length) conds.push(inArray(dspRollups.dspPartnerId, q.partnerIds));
    if (q.siteIds) conds.push(q.siteIds.length ? inArray(dspRollups.siteId, q.siteIds) : sql`false`);
    const key =
      breakdown === 'revenue'
        ? sql`to_char(${dspRollups.hour} at time zone ${q.tz}, 'YYYY-MM-DD')`
        : keyOf[breakdown];
    return (
      db
        .select({
          key: sql<string>`${key}`,
          wins: sql<number>`sum(${dspRollups.wins})::float8`,
          revenue: sql<string>`sum(${dspRollups.revenue})::text`,
        })
        .from(dspRollups)
        .where(and(...conds))
        // by position: the key's time zone is a bound parameter, which GROUP BY would not see as the same
        .groupBy(sql`1`)
    );
  }

  async function namesOf(breakdown: StatsTreeBreakdown, ids: number[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows =
      breakdown === 'site'
        ? await db.select({ id: sites.id, name: sites.title }).from(sites).where(inArray(sites.id, ids))
        : breakdown === 'domains'
          ? await db.select({ id: sites.id, name: sites.domain }).from(sites).where(inArray(sites.id, ids))
          : breakdown === 'campaigns'
            ? await db
                .select({ id: campaigns.id, name: campaigns.title })
                .from(campaigns)
                .where(inArray(campaigns.id, ids))
            : breakdown === 'rtb'
              ? await db
                  .select({ id: rtbPartners.id, name: rtbPartners.name })
                  .from(rtbPartners)
                  .where(inArray(rtbPartners.id, ids))
              : await db
                  .select({ id: dspPartners.id, name: dspPartners.name })
                  .from(dspPartners)
                  .where(inArray(dspPartners.id, ids));
    return new Map(rows.map((r) => [String(r.id), r.name]));
  }

  return {
    async tree(breakdown: StatsTreeBreakdown, q: DspTreeRequest): Promise<StatsTreeAnswer> {
      const raw = await sums(breakdown, q);
      let totalWins = 0;
      let totalRevenue = 0n;
      const byKey = new Map<string, { wins: number; revenue: bigint }>();
      for (const r of raw) {
        const wins = Number(r.wins);
        const revenue = BigInt(r.revenue ?? '0');
        totalWins += wins;
        totalRevenue += revenue;
        const none = r.key === '' || (idKeys.has(breakdown) && r.key === '0');
        const k = none ? 'unknown' : r.key;
        const b = byKey.get(k) ?? { wins: 0, revenue: 0n };
        b.wins += wins;
        b.revenue += revenue;
        byKey.set(k, b);
      }
      if (breakdown === 'revenue')
        for (const d of daysBetween(q.from, q.to)) if (!byKey.has(d)) byKey.set(d, { wins: 0, revenue: 0n });
      let rows = [...byKey].map(([key, b]) => ({ key, ...valuesOf(b.wins, b.revenue) }));
      const sort = q.sort ?? (breakdown === 'revenue' ? 'key' : 'impressions');
      const dir = (q.order ?? (breakdown === 'revenue' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
      rows.sort((a, b) => {
        const x = a[sort as keyof typeof a];
        const y = b[sort as keyof typeof b];
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return c !== 0 ? c * dir : a.key.localeCompare(b.key);
      });
      const count = rows.length;
      const start = (q.page - 1) * q.limit;
      rows = rows.slice(start, start + q.limit);
      if (idKeys.has(breakdown)) {
        const ids = rows.map((r) => Number(r.key)).filter((n) => Number.isSafeInteger(n) && n > 0);
        const names = await namesOf(breakdown, ids);
        rows =
          breakdown === 'domains'
            ? rows.map((r) => ({ ...r, key: names.get(r.key) ?? r.key }))
            : rows.map((r) => (names.has(r.key) ? { ...r, name: names.get(r.key) as string } : r));
      }
      return { rows, total: valuesOf(totalWins, totalRevenue), count, page: q.page, limit: q.limit };
    },

    async total(q: Omit<DspTreeRequest, 'page' | 'limit'>): Promise<{ total: StatsValues }> {
      const raw = await sums('partner', q);
      let wins = 0;
      let revenue = 0n;
      for (const r of raw) {
        wins += Number(r.wins);
        revenue += BigInt(r.revenue ?? '0');
      }
      return { total: valuesOf(wins, revenue) };
    },
  };
}
export type DspTrees = ReturnType<typeof createDspTrees>;
