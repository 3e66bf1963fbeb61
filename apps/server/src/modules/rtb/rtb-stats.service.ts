import {
  dayEnd,
  dayIn,
  dayStart,
  daysBetween,
  fromMicros,
  type StatsTreeAnswer,
  type StatsTreeRow,
} from '@adp/contract';
import type { RtbRepository } from './rtb.repository.ts';

export interface RtbStatsRequest {
  from: string;
  to: string;
  tz: string;
  page: number;
  limit: number;
  sort?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
}

const row = (key: string, impressions: number, spent: bigint, name?: string): StatsTreeRow => ({
  key,
  ...(name !== undefined ? { name } : {}),
  impressions,
  viewable: 0,
  clicks: 0,
  invalid_clicks: 0,
  conversions: 0,
  ctr: 0,
  ecpm: impressions > 0 ? fromMicros((spent * 1000n) / BigInt(impressions)) : 0,
  spent: fromMicros(spent),
  earned: 0,
});

/**
 * The rtb-stats answers of a campaign or a creative (statsTreeAnswer): billed impressions and spend of the
 * exchange's `rtb_stats`, by day of the caller's time zone (zero-filled once anything was billed in the
 * range; no rows otherwise) or by source, optionally for one partner and/or one source.
 */
export function createRtbStats(repo: RtbRepository) {
  return async function answer(
    kind: 'campaign' | 'banner',
    id: number,
    filter: { partnerId?: string | undefined; sourceId?: string | undefined },
    bySource: boolean,
    q: RtbStatsRequest,
  ): Promise<StatsTreeAnswer> {
    const sums = await repo.sums({
      ...(kind === 'campaign' ? { campaignId: id } : { bannerId: id }),
      ...(filter.partnerId ? { partnerId: Number(filter.partnerId) } : {}),
      ...(filter.sourceId ? { sourceId: Number(filter.sourceId) } : {}),
      from: dayStart(q.from, q.tz),
      to: new Date(dayEnd(q.to, q.tz).getTime() - 1),
      by: bySource ? 'source' : 'hour',
    });
    let impressions = 0;
    let spent = 0n;
    for (const s of sums) {
      impressions += s.impressions;
      spent += s.spent;
    }
    let rows: StatsTreeRow[];
    if (sums.length === 0) {
      rows = []; // nothing billed in the range: no rows (the screens say so), not a row of zeros per day
    } else if (bySource) {
      rows = sums.map((s) => row(s.key, s.impressions, s.spent, s.name ?? ''));
    } else {
      const byDay = new Map(daysBetween(q.from, q.to).map((d) => [d, { impressions: 0, spent: 0n }]));
      for (const s of sums) {
        const day = byDay.get(dayIn(new Date(Number(s.key)), q.tz));
        if (!day) continue;
        day.impressions += s.impressions;
        day.spent += s.spent;
      }
      rows = [...byDay].map(([d, v]) => row(d, v.impressions, v.spent));
    }
    const sort = (q.sort ?? (bySource ? 'spent' : 'key')) as keyof StatsTreeRow;
    const dir = (q.order ?? (bySource ? 'desc' : 'asc')) === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      const x = a[sort] ?? 0;
      const y = b[sort] ?? 0;
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    const start = (q.page - 1) * q.limit;
    const { key: _key, ...total } = row('total', impressions, spent);
    return {
      rows: rows.slice(start, start + q.limit),
      total,
      count: rows.length,
      page: q.page,
      limit: q.limit,
    };
  };
}
export type RtbStats = ReturnType<typeof createRtbStats>;
