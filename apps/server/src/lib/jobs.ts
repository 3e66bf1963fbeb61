import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { isOutcome, type JobOutcome } from './job-outcome.ts';

/** What a job answers; kept in `jobs.last_result` for the admin to see. */
export type JobFn = () => Promise<unknown>;

/** How a result is kept in `last_result`: an outcome as JSON, anything else as its text. */
export function storedResult(result: unknown): string {
  if (isOutcome(result))
    // the sentence cut as a plain result is (the values are a few names and numbers), the JSON kept whole
    return JSON.stringify({ code: result.code, text: result.text.slice(0, 2000), values: result.values });
  return String(result ?? 'ok').slice(0, 2000);
}

/** A kept result read back: its text, and its code and values when a job gave an outcome. */
export function readResult(stored: string | null | undefined): {
  text: string | null;
  code: string | null;
  values: JobOutcome['values'] | null;
} {
  if (stored === null || stored === undefined) return { text: null, code: null, values: null };
  if (stored.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(stored);
      if (isOutcome(v)) return { text: v.text, code: v.code, values: v.values ?? {} };
    } catch {
      // a text that happens to start with a brace
    }
  }
  return { text: stored, code: null, values: null };
}

export interface JobRunner {
  /**
   * Runs `fn` once per `everyMs` across all server instances: whichever instance claims the period first
   * runs it. The first check happens shortly after start, so a job that is due runs at boot.
   */
  schedule(name: string, everyMs: number, fn: JobFn, opts?: { retryMs?: number }): void;
  /** Runs on every instance, without a claim: for per-process caches that follow shared data. */
  every(name: string, everyMs: number, fn: JobFn): void;
  /** Claims and runs one scheduled job now if its period is due; true when this call ran it. */
  tick(name: string): Promise<boolean>;
  /** Stops the timers and waits for runs in flight. */
  stop(): Promise<void>;
  /** The jobs this process registered, for the admin's system page (shared ones' runs are in `jobs`). */
  registered(): RegisteredJob[];
}

export interface RegisteredJob {
  name: string;
  everyMs: number;
  /** `shared`: claimed across instances, its runs in the `jobs` table; `local`: runs on every instance. */
  kind: 'shared' | 'local';
  retryMs: number;
  /** Local jobs only (shared ones are read from the table): this process's last run and its result. */
  lastRunAt?: number;
  lastResult?: string;
}

interface Scheduled {
  everyMs: number;
  retryMs: number;
  fn: JobFn;
  running: Promise<boolean> | undefined;
}

const CHECK_MS = 60_000;
const START_DELAY_MS = 2_000;

function intervalSql(ms: number) {
  return sql`make_interval(secs => ${ms / 1000})`;
}

/**
 * Claims the job's period atomically: the row is created when missing, then one UPDATE moves
 * `last_run_at` only when the previous run is older than the period, so two instances racing for the
 * same period cannot both win.
 */
export async function claimJob(db: Db, name: string, everyMs: number): Promise<boolean> {
  await db.insert(jobs).values({ name }).onConflictDoNothing();
  const claimed = await db
    .update(jobs)
    .set({ lastRunAt: sql`now()` })
    .where(
      sql`${jobs.name} = ${name} and (${jobs.lastRunAt} is null or ${jobs.lastRunAt} <= now() - ${intervalSql(everyMs)})`,
    )
    .returning({ name: jobs.name });
  return claimed.length > 0;
}

/** `timers: false` registers jobs without starting timers, for tests that drive `tick` themselves. */
export function createJobRunner(db: Db, log: FastifyBaseLogger, opts: { timers?: boolean } = {}): JobRunner {
  const scheduled = new Map<string, Scheduled>();
  const local = new Map<string, { everyMs: number; lastRunAt?: number; lastResult?: string }>();
  const timers: NodeJS.Timeout[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  async function run(name: string, job: Scheduled): Promise<boolean> {
    if (!(await claimJob(db, name, job.everyMs))) return false;
    const started = Date.now();
    try {
      const result = (await job.fn()) ?? 'ok';
      await db
        .update(jobs)
        .set({ lastResult: storedResult(result) })
        .where(sql`${jobs.name} = ${name}`);
      log.info({ job: name, ms: Date.now() - started, result }, 'job done');
    } catch (err) {
      log.error({ err, job: name }, 'job failed');
      // a failed run comes back after retryMs, not after a whole period
      await db
        .update(jobs)
        .set({
          lastResult: `failed: ${(err as Error).message ?? String(err)}`.slice(0, 2000),
          lastRunAt: sql`now() - ${intervalSql(job.everyMs)} + ${intervalSql(job.retryMs)}`,
        })
        .where(sql`${jobs.name} = ${name}`)
        .catch((e: unknown) => log.error({ err: e, job: name }, 'job result not saved'));
    }
    return true;
  }

  function tick(name: string): Promise<boolean> {
    const job = scheduled.get(name);
    if (!job) throw new Error(`unknown job ${name}`);
    // one run per process at a time; a slow run is not started again by the next timer
    job.running ??= track(
      run(name, job)
        .catch((err: unknown) => {
          log.error({ err, job: name }, 'job claim failed');
          return false;
        })
        .finally(() => {
          job.running = undefined;
        }),
    );
    return job.running;
  }

  function timer(fn: () => void, firstMs: number, everyMs: number) {
    if (opts.timers === false) return;
    const first = setTimeout(() => {
      if (stopped) return;
      fn();
      const repeat = setInterval(fn, everyMs);
      repeat.unref();
      timers.push(repeat);
    }, firstMs);
    first.unref();
    timers.push(first);
  }

  return {
    schedule(name, everyMs, fn, opts = {}) {
      scheduled.set(name, {
        everyMs,
        retryMs: Math.min(opts.retryMs ?? 15 * 60_000, everyMs),
        fn,
        running: undefined,
      });
      timer(() => void tick(name), START_DELAY_MS, Math.min(everyMs, CHECK_MS));
    },
    every(name, everyMs, fn) {
      let running = false;
      const entry: { everyMs: number; lastRunAt?: number; lastResult?: string } = { everyMs };
      local.set(name, entry);
      timer(
        () => {
          if (running) return;
          running = true;
          entry.lastRunAt = Date.now();
          track(
            Promise.resolve()
              .then(fn)
              .then((result) => {
                entry.lastResult = storedResult(result);
              })
              .catch((err: unknown) => {
                entry.lastResult = `failed: ${(err as Error)?.message ?? String(err)}`.slice(0, 2000);
                log.error({ err, job: name }, 'job failed');
              })
              .finally(() => {
                running = false;
              }),
          );
        },
        everyMs,
        everyMs,
      );
    },
    tick,
    registered() {
      return [
        ...[...scheduled].map(([name, j]) => ({
          name,
          everyMs: j.everyMs,
          kind: 'shared' as const,
          retryMs: j.retryMs,
        })),
        ...[...local].map(([name, j]) => ({
          name,
          everyMs: j.everyMs,
          kind: 'local' as const,
          retryMs: j.everyMs,
          ...(j.lastRunAt !== undefined ? { lastRunAt: j.lastRunAt } : {}),
          ...(j.lastResult !== undefined ? { lastResult: j.lastResult } : {}),
        })),
      ];
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.length = 0;
      await Promise.allSettled([...inFlight]);
    },
  };
}
