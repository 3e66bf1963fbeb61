import {
  addDays,
  type DspStatsAnswer,
  type DspStatsQuery,
  type DspStatsRow,
  dayEnd,
  dayStart,
  fromMicros,
  statsRange,
} from '@adp/contract';
import { and, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { campaigns, dspRollups, rtbPartners, sites } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { mergeDeltas, upsertRollups } from '../../delivery/delivery.repository.ts';
import { bookDspWins, type DspWinBooking } from './dsp-wins.ts';

/** One hour's counts of the outbound auction for one key (see dspRollups). */
export interface DspRollupDelta {
  hour: Date;
  dspPartnerId: number;
  siteId: number;
  widgetId: number;
  campaignId: number;
  rtbPartnerId: number;
  country: string;
  city: string;
  device: string;
  os: string;
  requests?: number;
  bids?: number;
  wins?: number;
  timeouts?: number;
  errors?: number;
  /** Micro-units. */
  revenue?: bigint;
}

const keyOf = (d: DspRollupDelta) =>
  [
    d.hour.getTime(),
    d.dspPartnerId,
    d.siteId,
    d.widgetId,
    d.campaignId,
    d.rtbPartnerId,
    d.country,
    d.city,
    d.device,
    d.os,
  ].join('\u0001');

/** Sums deltas with the same key, so one multi-row upsert never names a row twice. */
export function mergeDspDeltas(deltas: readonly DspRollupDelta[]): DspRollupDelta[] {
  const out = new Map<string, Required<DspRollupDelta>>();
  for (const d of deltas) {
    const k = keyOf(d);
    const m = out.get(k);
    if (!m) {
      out.set(k, { requests: 0, bids: 0, wins: 0, timeouts: 0, errors: 0, revenue: 0n, ...d });
      continue;
    }
    m.requests += d.requests ?? 0;
    m.bids += d.bids ?? 0;
    m.wins += d.wins ?? 0;
    m.timeouts += d.timeouts ?? 0;
    m.errors += d.errors ?? 0;
    m.revenue += d.revenue ?? 0n;
  }
  return [...out.values()];
}

const groupKey: Record<Exclude<DspStatsQuery['group'], 'day'>, SQL> = {
  source: sql`${dspRollups.siteId}::text`,
  campaign: sql`${dspRollups.campaignId}::text`,
  rtb_partner: sql`${dspRollups.rtbPartnerId}::text`,
  country: sql`${dspRollups.country}`,
  city: sql`${dspRollups.city}`,
  device: sql`${dspRollups.device}`,
  os: sql`${dspRollups.os}`,
};

const ecpmOf = (revenue: bigint, wins: number) =>
  wins > 0 ? fromMicros((revenue * 1000n) / BigInt(wins)) : 0;

/** Adds deltas to their hourly rows (one multi-row upsert; the rows must be merged, mergeDspDeltas). */
async function upsertDspRollups(db: DbOrTx, rows: DspRollupDelta[]) {
  await db
    .insert(dspRollups)
    .values(rows)
    .onConflictDoUpdate({
      target: [
        dspRollups.hour,
        dspRollups.dspPartnerId,
        dspRollups.siteId,
        dspRollups.widgetId,
        dspRollups.campaignId,
        dspRollups.rtbPartnerId,
        dspRollups.country,
        dspRollups.city,
        dspRollups.device,
        dspRollups.os,
      ],
      set: {
        requests: sql`${dspRollups.requests} + excluded.requests`,
        bids: sql`${dspRollups.bids} + excluded.bids`,
        wins: sql`${dspRollups.wins} + excluded.wins`,
        timeouts: sql`${dspRollups.timeouts} + excluded.timeouts`,
        errors: sql`${dspRollups.errors} + excluded.errors`,
        revenue: sql`${dspRollups.revenue} + excluded.revenue`,
      },
    });
}

/** The outbound auction's hourly rows: written by the exchange, read by the DSP partner statistics. */
export function createDspStatsRepository(db: Db) {
  return {
    /**
     * The exchange's flush: the hourly counts and the wins' money (each win booked once, bookDspWins) in
     * one transaction, so the statistics and the ledgers agree and a failed flush retries both.
     */
    async write(deltas: readonly DspRollupDelta[], wins: readonly DspWinBooking[] = []) {
      const rows = mergeDspDeltas(deltas);
      if (!rows.length && !wins.length) return;
      await db.transaction(async (tx) => {
        if (wins.length) {
          // the wins booked now (not a replay of one booked before) count in the sites' statistics
          const booked = new Set(await bookDspWins(tx, wins));
          const deltas = wins.flatMap((w) => (w.rollup && booked.delete(w.winId) ? [w.rollup] : []));
          if (deltas.length) await upsertRollups(tx, mergeDeltas(deltas));
        }
        if (rows.length) await upsertDspRollups(tx, rows);
      });
    },

    /** What each partner bought today (UTC), micro-units, and how many requests it got: the limits' seed. */
    async today(now = new Date()) {
      const start = new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
      return db
        .select({
          dspPartnerId: dspRollups.dspPartnerId,
          requests: sql<number>`sum(${dspRollups.requests})::float8`,
          revenue: sql<string>`sum(${dspRollups.revenue})::text`,
        })
        .from(dspRollups)
        .where(gte(dspRollups.hour, start))
        .groupBy(dspRollups.dspPartnerId);
    },

    async report(partnerId: number, q: DspStatsQuery): Promise<DspStatsAnswer> {
      const { from, to } = statsRange(q);
      const conds: SQL[] = [
        eq(dspRollups.dspPartnerId, partnerId),
        gte(dspRollups.hour, dayStart(from, q.tz)),
        lt(dspRollups.hour, dayEnd(to, q.tz)),
      ];
      if (q.source_id) conds.push(eq(dspRollups.siteId, Number(q.source_id)));
      if (q.campaign_id) conds.push(eq(dspRollups.campaignId, Number(q.campaign_id)));
      if (q.rtb_partner_id) conds.push(eq(dspRollups.rtbPartnerId, Number(q.rtb_partner_id)));
      if (q.country !== undefined) conds.push(eq(dspRollups.country, q.country.toUpperCase()));
      if (q.city !== undefined) conds.push(eq(dspRollups.city, q.city));
      if (q.device !== undefined) conds.push(eq(dspRollups.device, q.device));
      if (q.os !== undefined) conds.push(eq(dspRollups.os, q.os));
      const key =
        q.group === 'day'
          ? sql`to_char(${dspRollups.hour} at time zone ${q.tz}, 'YYYY-MM-DD')`
          : groupKey[q.group];
      const raw = await db
        .select({
          key: sql<string>`${key}`,
          requests: sql<number>`sum(${dspRollups.requests})::float8`,
          bids: sql<number>`sum(${dspRollups.bids})::float8`,
          wins: sql<number>`sum(${dspRollups.wins})::float8`,
          timeouts: sql<number>`sum(${dspRollups.timeouts})::float8`,
          errors: sql<number>`sum(${dspRollups.errors})::float8`,
          revenue: sql<string>`sum(${dspRollups.revenue})::text`,
        })
        .from(dspRollups)
        .where(and(...conds))
        // by position: the key's time zone is a bound parameter, which GROUP BY would not see as the same
        .groupBy(sql`1`);
      const toRow = (r: (typeof raw)[number]): DspStatsRow => {
        const revenue = BigInt(r.revenue ?? '0');
        const k = r.key === '' || r.key === '0' ? 'unknown' : r.key;
        return {
          key: k,
          requests: Number(r.requests),
          bids: Number(r.bids),
          wins: Number(r.wins),
          timeouts: Number(r.timeouts),
          errors: Number(r.errors),
          revenue: fromMicros(revenue),
          ecpm: ecpmOf(revenue, Number(r.wins)),
        };
      };
      let rows = raw.map(toRow);
      const zero = { requests: 0, bids: 0, wins: 0, timeouts: 0, errors: 0, revenue: 0, ecpm: 0 };
      if (q.group === 'day') {
        const byDay = new Map(rows.map((r) => [r.key, r]));
        rows = [];
        // newest first: today heads the list (and its first page)
        for (let d = to; d >= from; d = addDays(d, -1)) rows.push(byDay.get(d) ?? { key: d, ...zero });
      } else rows.sort((a, b) => b.wins - a.wins || b.requests - a.requests || a.key.localeCompare(b.key));
      // names of sites, campaigns and RTB partners
      const ids = rows.map((r) => Number(r.key)).filter((n) => Number.isSafeInteger(n) && n > 0);
      if (ids.length && (q.group === 'source' || q.group === 'campaign' || q.group === 'rtb_partner')) {
        const names =
          q.group === 'source'
            ? await db.select({ id: sites.id, name: sites.domain }).from(sites).where(inArray(sites.id, ids))
            : q.group === 'rtb_partner'
              ? await db
                  .select({ id: rtbPartners.id, name: rtbPartners.name })
                  .from(rtbPartners)
                  .where(inArray(rtbPartners.id, ids))
              : await db
                  .select({ id: campaigns.id, name: campaigns.title })
                  .from(campaigns)
                  .where(inArray(campaigns.id, ids));
        const byId = new Map(names.map((n) => [String(n.id), n.name]));
        rows = rows.map((r) => (byId.has(r.key) ? { ...r, name: byId.get(r.key) as string } : r));
      }
      let revenue = 0n;
      const total = { ...zero };
      for (const r of raw) {
        revenue += BigInt(r.revenue ?? '0');
        total.requests += Number(r.requests);
        total.bids += Number(r.bids);
        total.wins += Number(r.wins);
        total.timeouts += Number(r.timeouts);
        total.errors += Number(r.errors);
      }
      total.revenue = fromMicros(revenue);
      total.ecpm = ecpmOf(revenue, total.wins);
      return { rows, total };
    },
  };
}
export type DspStatsRepository = ReturnType<typeof createDspStatsRepository>;
