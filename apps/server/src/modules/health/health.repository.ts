import { sql } from 'drizzle-orm';
import type { Database, DbKind } from '../../db/client.ts';

/** The database answers a trivial query: health is "the database is reachable", nothing more. */
export function createHealthRepository(database: Database) {
  return {
    async ping(): Promise<DbKind> {
      await database.db.execute(sql`select 1`);
      return database.kind;
    },
  };
}
export type HealthRepository = ReturnType<typeof createHealthRepository>;
