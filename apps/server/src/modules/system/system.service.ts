import { readFileSync } from 'node:fs';
import type { MaintenanceState, SystemBuffer, SystemHealth, SystemJob } from '@adp/contract';
import type { AdIndexHolder } from '../../delivery/ad-index.ts';
import type { DeliveryEngine } from '../../delivery/engine.ts';
import type { Exchange } from '../../delivery/exchange/index.ts';
import { type JobRunner, readResult } from '../../lib/jobs.ts';
import { findUp } from '../../lib/paths.ts';
import type { SharedStore } from '../../lib/shared-store.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { SystemRepository } from './system.repository.ts';

export interface SystemDeps {
  repo: SystemRepository;
  store: SharedStore;
  jobs: JobRunner;
  index: AdIndexHolder;
  engine: DeliveryEngine;
  exchange: Exchange;
  settings: SettingsService;
}

/** A check that does not answer within this time counts as down (the page must not hang on it). */
const CHECK_TIMEOUT_MS = 3_000;

function appVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(findUp('package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
const APP_VERSION = appVersion();

const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

function timed<T>(p: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
    timer.unref();
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * The admin's system page: database and Redis reachability with their ping time, the scheduled jobs'
 * last runs and next ones, the ad index's size and age, the events waiting in memory for their batch
 * write, the versions, and the maintenance switch.
 */
export function createSystemService(deps: SystemDeps) {
  async function database(): Promise<SystemHealth['database']> {
    try {
      return { status: 'ok', driver: deps.repo.kind, ping_ms: await timed(deps.repo.ping()), error: null };
    } catch (err) {
      return { status: 'down', driver: deps.repo.kind, ping_ms: null, error: messageOf(err) };
    }
  }

  async function redis(): Promise<SystemHealth['redis']> {
    const client = deps.store.redis;
    if (!client) return { status: 'not_configured', ping_ms: null, error: null };
    const started = performance.now();
    try {
      await timed(client.ping());
      return { status: 'ok', ping_ms: Math.round((performance.now() - started) * 100) / 100, error: null };
    } catch (err) {
      return { status: 'down', ping_ms: null, error: messageOf(err) };
    }
  }

  /** A job's kept result for the API: the text, and what the dashboard translates it by. */
  const resultOf = (stored: string | null | undefined) => {
    const r = readResult(stored);
    return { last_result: r.text, last_result_code: r.code, last_result_values: r.values };
  };

  async function jobs(): Promise<SystemJob[]> {
    const records = await deps.repo.jobRecords().catch(() => []);
    const byName = new Map(records.map((r) => [r.name, r]));
    const out: SystemJob[] = [];
    const registered = deps.jobs.registered();
    for (const job of registered) {
      if (job.kind === 'local') {
        const last = job.lastRunAt ?? null;
        out.push({
          name: job.name,
          every_ms: job.everyMs,
          kind: 'local',
          last_run_at: iso(last),
          ...resultOf(job.lastResult),
          failed: job.lastResult?.startsWith('failed:') ?? false,
          next_run_at: last === null ? null : iso(last + job.everyMs),
        });
        continue;
      }
      const record = byName.get(job.name);
      const claimed = record?.lastRunAt?.getTime() ?? null;
      const failed = record?.lastResult?.startsWith('failed:') ?? false;
      // a failed run moves its claim back so the job comes again after retryMs (lib/jobs.ts): the run
      // itself was everyMs - retryMs after the claim's time
      const ranAt = claimed === null ? null : failed ? claimed + job.everyMs - job.retryMs : claimed;
      out.push({
        name: job.name,
        every_ms: job.everyMs,
        kind: 'shared',
        last_run_at: iso(ranAt),
        ...resultOf(record?.lastResult),
        failed,
        // due now when never claimed: the runner's next check (within a minute) takes it
        next_run_at: iso(claimed === null ? Date.now() : Math.max(claimed + job.everyMs, Date.now())),
      });
    }
    // records of jobs this instance does not run (JOBS=off here, or another version's jobs)
    for (const record of records) {
      if (registered.some((j) => j.name === record.name)) continue;
      out.push({
        name: record.name,
        every_ms: null,
        kind: null,
        last_run_at: iso(record.lastRunAt?.getTime()),
        ...resultOf(record.lastResult),
        failed: record.lastResult?.startsWith('failed:') ?? false,
        next_run_at: null,
      });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  function buffers(): SystemBuffer[] {
    const engine = deps.engine.buffers();
    const dsp = deps.exchange.buffered();
    const at = iso(engine.lastFlushAt);
    return [
      { name: 'events', queued: engine.events, last_flush_at: at, last_error: engine.lastError },
      { name: 'traffic', queued: engine.traffic, last_flush_at: at, last_error: engine.lastError },
      { name: 'clicks', queued: engine.clicks, last_flush_at: null, last_error: null },
      {
        name: 'dsp_stats',
        queued: dsp.queued,
        last_flush_at: iso(dsp.lastFlushAt),
        last_error: dsp.lastError,
      },
    ];
  }

  return {
    maintenance: (): Promise<MaintenanceState> => deps.settings.maintenance(),
    setMaintenance: (enabled: boolean) => deps.settings.setMaintenance(enabled),
    async health(): Promise<SystemHealth> {
      const [db, rd, jobList, dbVersion, maintenance] = await Promise.all([
        database(),
        redis(),
        jobs(),
        timed(deps.repo.version()).catch(() => 'unknown'),
        deps.settings.maintenance(),
      ]);
      const index = deps.index.get();
      return {
        checked_at: new Date().toISOString(),
        database: db,
        redis: rd,
        jobs: jobList,
        ad_index: {
          campaigns: index.campaigns.size,
          creatives: index.creatives.length,
          widgets: index.widgetCount,
          built_at: new Date(index.builtAt).toISOString(),
          last_error: deps.index.lastError()?.message ?? null,
        },
        buffers: buffers(),
        versions: { app: APP_VERSION, node: process.version, db: dbVersion },
        maintenance,
      };
    },
  };
}
export type SystemService = ReturnType<typeof createSystemService>;
