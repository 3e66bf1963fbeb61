import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Database } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { freshDatabase } from '../test/test-app.ts';
import { jobOutcome } from './job-outcome.ts';
import { claimJob, createJobRunner, readResult, storedResult } from './jobs.ts';

const quiet = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return quiet;
  },
  level: 'silent',
  silent() {},
} as unknown as FastifyBaseLogger;

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
});
afterAll(async () => {
  await database.close();
  await drop();
});

const HOUR = 3_600_000;
const row = async (name: string) => (await database.db.select().from(jobs).where(eq(jobs.name, name)))[0];

test('of many claims racing for one period exactly one wins', async () => {
  const wins = await Promise.all(Array.from({ length: 10 }, () => claimJob(database.db, 'race', HOUR)));
  expect(wins.filter(Boolean)).toHaveLength(1);
  expect(await claimJob(database.db, 'race', HOUR)).toBe(false);
  // once the period has passed, the next claim wins again
  await database.db
    .update(jobs)
    .set({ lastRunAt: sql`now() - interval '2 hours'` })
    .where(eq(jobs.name, 'race'));
  expect(await claimJob(database.db, 'race', HOUR)).toBe(true);
});

test('two instances sharing a database run a job once per period and record its result', async () => {
  const a = createJobRunner(database.db, quiet, { timers: false });
  const b = createJobRunner(database.db, quiet, { timers: false });
  let runs = 0;
  const fn = async () => {
    runs += 1;
    return `run ${runs}`;
  };
  a.schedule('shared', HOUR, fn);
  b.schedule('shared', HOUR, fn);
  const [ranA, ranB] = await Promise.all([a.tick('shared'), b.tick('shared')]);
  expect([ranA, ranB].filter(Boolean)).toHaveLength(1);
  expect(runs).toBe(1);
  expect(await a.tick('shared')).toBe(false);
  expect(await row('shared')).toMatchObject({ lastResult: 'run 1' });
  expect((await row('shared'))?.lastRunAt).toBeInstanceOf(Date);
  await Promise.all([a.stop(), b.stop()]);
});

test('a failed run is recorded and retried after retryMs, not after a whole period', async () => {
  const runner = createJobRunner(database.db, quiet, { timers: false });
  let calls = 0;
  runner.schedule(
    'flaky',
    HOUR,
    async () => {
      calls += 1;
      if (calls === 1) throw new Error('feed down');
      return 'recovered';
    },
    { retryMs: 200 },
  );
  expect(await runner.tick('flaky')).toBe(true);
  expect((await row('flaky'))?.lastResult).toBe('failed: feed down');
  expect(await runner.tick('flaky')).toBe(false);
  await new Promise((r) => setTimeout(r, 400));
  expect(await runner.tick('flaky')).toBe(true);
  expect((await row('flaky'))?.lastResult).toBe('recovered');
  await runner.stop();
});

test('stop waits for a run in flight', async () => {
  const runner = createJobRunner(database.db, quiet, { timers: false });
  let finished = false;
  runner.schedule('slow', HOUR, async () => {
    await new Promise((r) => setTimeout(r, 150));
    finished = true;
  });
  const ticking = runner.tick('slow');
  // the same process never starts a second run of a job while one is going
  expect(runner.tick('slow')).toBe(ticking);
  await new Promise((r) => setTimeout(r, 20));
  await runner.stop();
  expect(finished).toBe(true);
  expect(await ticking).toBe(true);
  expect((await row('slow'))?.lastResult).toBe('ok');
});

test('timers start the job shortly after start and are cleared on stop', async () => {
  const runner = createJobRunner(database.db, quiet);
  let runs = 0;
  runner.schedule('timed', HOUR, async () => {
    runs += 1;
  });
  await new Promise((r) => setTimeout(r, 2_600));
  expect(runs).toBe(1);
  await runner.stop();
});

test('a kept outcome stays readable however long its sentence (cut, never the JSON around it)', () => {
  const long = jobOutcome('materials', 'x'.repeat(5000), { stored: 3 });
  const back = readResult(storedResult(long));
  expect(back).toEqual({ text: 'x'.repeat(2000), code: 'materials', values: { stored: 3 } });
  expect(readResult(storedResult('y'.repeat(5000))).text).toHaveLength(2000);
});
