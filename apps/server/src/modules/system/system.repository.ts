import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { jobs } from '../../db/schema/index.ts';

/** What the system page reads from the database: a timed ping, its version, and the jobs' records. */
export function createSystemRepository(database: Database) {
  const { db } = database;
  return {
    kind: database.kind,
    /** Milliseconds a trivial query takes, round trip. */
    async ping(): Promise<number> {
      const started = performance.now();
      await db.execute(sql`select 1`);
      return Math.round((performance.now() - started) * 100) / 100;
    },
    async version(): Promise<string> {
      const result = await db.execute(sql`select current_setting('server_version') as v`);
      const v = (result as unknown as { rows: { v: string }[] }).rows[0]?.v ?? '';
      return `${database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'} ${v}`.trim();
    },
    /** Every job's record: when its last period was claimed and what it answered. */
    async jobRecords() {
      return db
        .select({ name: jobs.name, lastRunAt: jobs.lastRunAt, lastResult: jobs.lastResult })
        .from(jobs)
        .orderBy(jobs.name);
    },
  };
}
export type SystemRepository = ReturnType<typeof createSystemRepository>;
