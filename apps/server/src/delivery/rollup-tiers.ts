import { sql } from 'drizzle-orm';
import { rollupDims } from '../db/schema/index.ts';
import type { DbOrTx } from '../db/tx.ts';
import type { RollupDelta } from './delivery.repository.ts';

/*
 * The coarser rollup tables (schema/delivery.ts: rollups_campaign_hours, rollups_site_hours,
 * rollups_campaign_days, rollups_site_days), written from the same increments as `rollups`, in the same
 * transaction: the increments merged per key of each table first, then one multi-row upsert per table.
 */

type Key = (string | number)[];

interface Tier {
  table: string;
  /** The key columns with their SQL types, in the order of the table's primary key. */
  key: readonly (readonly [string, string])[];
  /** The keys of the table an increment adds to (the daily tables: one per dimension). */
  keysOf(d: RollupDelta): Key[];
}

/** The last hour written as text: a flush's increments mostly share one or two hours. */
let lastHour = Number.NaN;
let lastHourText = '';
const isoOf = (hour: Date) => {
  const t = hour.getTime();
  if (t !== lastHour) {
    lastHourText = hour.toISOString();
    lastHour = t;
  }
  return lastHourText;
};
const dayOf = (hour: Date) => isoOf(hour).slice(0, 10);
const dims = Object.entries(rollupDims) as [keyof typeof rollupDims, number][];

const tiers: readonly Tier[] = [
  {
    table: 'rollups_campaign_hours',
    key: [
      ['campaign_id', 'bigint'],
      ['hour', 'timestamptz'],
      ['banner_id', 'bigint'],
    ],
    keysOf: (d) => [[d.campaignId, isoOf(d.hour), d.bannerId]],
  },
  {
    table: 'rollups_site_hours',
    key: [
      ['site_id', 'bigint'],
      ['hour', 'timestamptz'],
      ['widget_id', 'bigint'],
    ],
    keysOf: (d) => [[d.siteId, isoOf(d.hour), d.widgetId]],
  },
  {
    table: 'rollups_campaign_days',
    key: [
      ['campaign_id', 'bigint'],
      ['dim', 'smallint'],
      ['day', 'date'],
      ['value', 'text'],
    ],
    keysOf: (d) => dims.map(([name, code]) => [d.campaignId, code, dayOf(d.hour), d[name]]),
  },
  {
    table: 'rollups_site_days',
    key: [
      ['site_id', 'bigint'],
      ['dim', 'smallint'],
      ['day', 'date'],
      ['value', 'text'],
    ],
    keysOf: (d) => dims.map(([name, code]) => [d.siteId, code, dayOf(d.hour), d[name]]),
  },
];

interface Sums {
  impressions: number;
  viewable: number;
  clicks: number;
  invalidClicks: number;
  conversions: number;
  spent: bigint;
  earned: bigint;
}

/** Compares keys column by column (numbers as numbers), the order every writer locks rows in. */
function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

const sumColumns = ['impressions', 'viewable', 'clicks', 'invalid_clicks', 'conversions', 'spent', 'earned'];

async function upsertTier(tx: DbOrTx, tier: Tier, deltas: readonly RollupDelta[]) {
  const merged = new Map<string, { key: Key; sums: Sums }>();
  for (const d of deltas) {
    for (const key of tier.keysOf(d)) {
      const id = key.join('\u0001');
      let m = merged.get(id);
      if (!m) {
        m = {
          key,
          sums: {
            impressions: 0,
            viewable: 0,
            clicks: 0,
            invalidClicks: 0,
            conversions: 0,
            spent: 0n,
            earned: 0n,
          },
        };
        merged.set(id, m);
      }
      m.sums.impressions += d.impressions ?? 0;
      m.sums.viewable += d.viewable ?? 0;
      m.sums.clicks += d.clicks ?? 0;
      m.sums.invalidClicks += d.invalidClicks ?? 0;
      m.sums.conversions += d.conversions ?? 0;
      // a BigInt sum allocates: only when there is money to add
      if (d.spent) m.sums.spent += d.spent;
      if (d.earned) m.sums.earned += d.earned;
    }
  }
  const rows = [...merged.values()].sort((a, b) => compareKeys(a.key, b.key));
  const names = tier.key.map(([name]) => name).join(', ');
  // a parameter per column (an array each; sql.param keeps drizzle from spreading it), rows in key order,
  // so concurrent writers lock shared rows in one order (no deadlocks)
  const col = <T>(f: (r: (typeof rows)[number]) => T, type: string) =>
    sql`${sql.param(rows.map(f))}::${sql.raw(type)}[]`;
  const columns = [
    ...tier.key.map(([, type], i) => col((r) => r.key[i], type)),
    col((r) => r.sums.impressions, 'bigint'),
    col((r) => r.sums.viewable, 'bigint'),
    col((r) => r.sums.clicks, 'bigint'),
    col((r) => r.sums.invalidClicks, 'bigint'),
    col((r) => r.sums.conversions, 'bigint'),
    col((r) => String(r.sums.spent), 'bigint'),
    col((r) => String(r.sums.earned), 'bigint'),
  ];
  await tx.execute(sql`
    insert into ${sql.raw(tier.table)} (${sql.raw(names)}, ${sql.raw(sumColumns.join(', '))})
    select * from unnest(${sql.join(columns, sql`, `)})
    on conflict (${sql.raw(names)}) do update set
      ${sql.raw(sumColumns.map((c) => `${c} = ${tier.table}.${c} + excluded.${c}`).join(', '))}`);
}

/** Adds rollup increments to every coarser rollup table (call in the transaction that writes `rollups`). */
export async function upsertRollupTiers(tx: DbOrTx, deltas: readonly RollupDelta[]) {
  if (deltas.length === 0) return;
  for (const tier of tiers) await upsertTier(tx, tier, deltas);
}
