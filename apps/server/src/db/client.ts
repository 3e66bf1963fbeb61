import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { findUp } from '../lib/paths.ts';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

/** Committed SQL migrations; the same path works from src/ and from the bundled dist/. */
export const migrationsFolder = findUp('drizzle/meta/_journal.json').replace(
  /[/\\]meta[/\\]_journal\.json$/,
  '',
);

// PGlite starts Postgres with -F (fsync off). Money lives here, so committed rows must reach the disk.
const durableStartParams = PGlite.defaultStartParams.filter((p) => p !== '-F');

export async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    startParams: dataDir ? durableStartParams : PGlite.defaultStartParams,
    relaxedDurability: false,
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return { db, kind: 'pglite', close: () => client.close() };
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection can be cut by the server (restart, failover, admin command). Without a listener
  // the pool's 'error' event would end the process; the pool replaces the client on next use instead.
  pool.on('error', (err) => {
    console.error(`postgres: idle connection lost (${err.message}); it will be replaced`);
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  await migratePg(db as never, { migrationsFolder });
  return { db, kind: 'postgres', close: () => pool.end() };
}

/** PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite in DATA_DIR/pglite. */
export function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
}): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.dataDir ? `${opts.dataDir}/pglite` : undefined);
}
