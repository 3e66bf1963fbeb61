import type { Db } from '../db/client.ts';
import { rollups } from '../db/schema/index.ts';
import { upsertRollupTiers } from '../delivery/rollup-tiers.ts';

type RollupRow = typeof rollups.$inferInsert;

/**
 * Rollup rows straight into the database, as the delivery flush writes them: into `rollups` and, from the
 * same rows, into the coarser tables the statistics store reads first (delivery/rollup-tiers.ts).
 */
export async function insertRollups(db: Db, rows: RollupRow | RollupRow[]) {
  const list = Array.isArray(rows) ? rows : [rows];
  await db.insert(rollups).values(list);
  await upsertRollupTiers(
    db,
    list.map((r) => ({ ...r, city: r.city ?? '' })),
  );
}
