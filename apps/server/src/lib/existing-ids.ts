import { inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/tx.ts';

/** Which of these ids are rows of `table` (one query; none for an empty list). */
export async function existingIds(
  db: DbOrTx,
  table: PgTable & { id: PgColumn },
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = (await db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(inArray(table.id, ids))) as {
    id: number;
  }[];
  return new Set(rows.map((r) => r.id));
}
