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
  /**
   * Calls `onNotice` for every NOTIFY on `channel` (from any instance), and once more whenever notices may
   * have been missed (a lost connection was replaced). Returns the unsubscribe.
   */
  listen(channel: string, onNotice: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Committed SQL migrations; the same path works from src/ and from the bundled dist/. */
export const migrationsFolder = findUp('drizzle/meta/_journal.json').replace(
  /[/\\]meta[/\\]_journal\.json$/,
  '',
);

// PGlite starts Postgres with -F (fsync off). Money lives here, so committed rows must reach the disk.
const durableStartParams = PGlite.defaultStartParams.filter((p) => p !== '-F');

/**
 * The embedded PGlite: on disk in `dataDir`, or in memory. `snapshot` (in memory only) starts from a
 * dumped data directory (`dumpDataDir`) instead of an empty one: the tests start each file's database
 * from one already migrated, which takes a second instead of five.
 */
export async function openPglite(dataDir: string | undefined, snapshot?: Blob): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : snapshot ? { loadDataDir: snapshot } : {}),
    startParams: dataDir ? durableStartParams : PGlite.defaultStartParams,
    relaxedDurability: false,
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    listen: (channel, onNotice) => client.listen(channel, onNotice),
    close: () => client.close(),
  };
}

/** A migrated in-memory PGlite's data directory, for `openPglite(undefined, snapshot)`. */
export async function migratedPgliteSnapshot(): Promise<Blob> {
  const client = await PGlite.create();
  try {
    await migratePglite(drizzlePglite(client, { schema }) as never, { migrationsFolder });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
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
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
    async listen(channel, onNotice) {
      // LISTEN needs a connection of its own, outside the pool, kept for the life of the subscription
      let client: pg.Client | null = null;
      let stopped = false;
      let retry: NodeJS.Timeout | null = null;
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ connectionString: url });
        c.on('notification', (n) => {
          if (n.channel === channel) onNotice(n.payload ?? '');
        });
        c.on('error', () => {
          // the connection is gone: replace it; notices sent meanwhile are lost, so say "something changed"
          if (stopped || client !== c) return;
          client = null;
          c.end().catch(() => {});
          retry = setTimeout(() => {
            connect()
              .then(() => onNotice(''))
              .catch(() => {});
          }, 1000);
          retry.unref();
        });
        await c.connect();
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = c;
      };
      await connect();
      const unsubscribe = async () => {
        stopped = true;
        if (retry) clearTimeout(retry);
        listeners.delete(unsubscribe);
        await client?.end().catch(() => {});
      };
      listeners.add(unsubscribe);
      return unsubscribe;
    },
    close: async () => {
      for (const stop of [...listeners]) await stop();
      await pool.end();
    },
  };
}

/** PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite in DATA_DIR/pglite. */
export function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
}): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.dataDir ? `${opts.dataDir}/pglite` : undefined);
}
