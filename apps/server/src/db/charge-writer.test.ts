import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshDatabase } from '../test/test-app.ts';
import { type Database, durabilityBarrier } from './client.ts';

describe('durability barrier', () => {
  test('calls made while one barrier runs share the next one; each waits for a barrier begun after it', async () => {
    const runs: { resolve: () => void }[] = [];
    const barrier = durabilityBarrier(
      () =>
        new Promise<void>((resolve) => {
          runs.push({ resolve });
        }),
    );
    const done: string[] = [];
    const first = barrier().then(() => done.push('first'));
    // these come while the first barrier is out: the first one does not cover them
    const later = Array.from({ length: 20 }, (_, i) => barrier().then(() => done.push(`later${i}`)));
    expect(runs).toHaveLength(1);
    runs[0]?.resolve();
    await first;
    expect(done).toEqual(['first']);
    // one more barrier for all twenty
    await new Promise((r) => setImmediate(r));
    expect(runs).toHaveLength(2);
    runs[1]?.resolve();
    await Promise.all(later);
    expect(done).toHaveLength(21);
    expect(runs).toHaveLength(2);
  });

  test('a failed barrier fails the calls it covered, and the next call runs a new one', async () => {
    let fail = true;
    let runs = 0;
    const barrier = durabilityBarrier(async () => {
      runs += 1;
      if (fail) throw new Error('connection lost');
    });
    await expect(barrier()).rejects.toThrow('connection lost');
    fail = false;
    await expect(barrier()).resolves.toBeUndefined();
    expect(runs).toBe(2);
  });
});

// The writer's connections and the disk: a real PostgreSQL server (npm run test:pg, CI).
describe.skipIf(!process.env.TEST_DATABASE_URL)('the click charge writer on PostgreSQL', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await freshDatabase());
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  const one = async <T>(db: Database['db'], query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows[0] as T;

  test('its commits do not wait for the disk; the other connections’ do', async () => {
    const writer = database.chargeWriter;
    expect(writer).toBeDefined();
    if (!writer) return;
    expect((await one<{ s: string }>(writer.db, sql`select current_setting('synchronous_commit') s`)).s).toBe(
      'off',
    );
    expect(
      (await one<{ s: string }>(database.db, sql`select current_setting('synchronous_commit') s`)).s,
    ).toBe('on');
  });

  test('durable(): every commit of the writer made before it is on disk when it resolves', async () => {
    const writer = database.chargeWriter;
    if (!writer) throw new Error('no charge writer on PostgreSQL');
    await writer.db.execute(sql`create table if not exists durability_probe (n int)`);
    for (let round = 0; round < 20; round++) {
      await writer.db.execute(sql`insert into durability_probe values (${round})`);
      // the log position just past that commit
      const { lsn } = await one<{ lsn: string }>(
        writer.db,
        sql`select pg_current_wal_insert_lsn()::text lsn`,
      );
      await writer.durable();
      const { flushed } = await one<{ flushed: boolean }>(
        database.db,
        sql`select pg_current_wal_flush_lsn() >= ${lsn}::pg_lsn as flushed`,
      );
      expect(flushed).toBe(true);
    }
  });
});
