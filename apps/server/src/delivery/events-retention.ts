import { type JobOutcome, jobOutcome } from '../lib/job-outcome.ts';
import type { DeliveryRepository } from './delivery.repository.ts';

const DAY_MS = 86_400_000;
/** The job's name in `jobs` (hourly, see startServices). */
export const RAW_EVENTS_JOB = 'raw-events-retention';
/** Rows per DELETE: short statements that never hold many locks or much WAL at once. */
export const RETENTION_CHUNK = 10_000;
/** Chunks per run at most; what is left is deleted by the next run. */
const MAX_CHUNKS = 500;

/** Runs `remove(chunk)` until a run deletes fewer than `chunk` rows, at most MAX_CHUNKS times: how many. */
async function inChunks(remove: (limit: number) => Promise<number>, chunk: number): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const n = await remove(chunk);
    deleted += n;
    if (n < chunk) break;
  }
  return deleted;
}

/**
 * The raw events retention job: deletes events older than `days` days in bounded chunks. Returns what it
 * did, for the job's `last_result`.
 * @example await pruneRawEvents(repo, 90) // 'deleted 12000 events before 2026-08-25T10:00:00.000Z'
 */
export async function pruneRawEvents(
  repo: Pick<DeliveryRepository, 'deleteEventsBefore'>,
  days: number,
  now: Date = new Date(),
  chunk: number = RETENTION_CHUNK,
): Promise<JobOutcome> {
  if (days <= 0) return jobOutcome('retention_kept', 'kept (RAW_EVENTS_DAYS=0)');
  const before = new Date(now.getTime() - days * DAY_MS);
  const deleted = await inChunks((limit) => repo.deleteEventsBefore(before, limit), chunk);
  return jobOutcome('events_deleted', `deleted ${deleted} events before ${before.toISOString()}`, {
    deleted,
    before: before.toISOString(),
  });
}

/**
 * The same job for the exchange's win and billing notices (`nurl`, `burl`): two notifications per exchange
 * impression, raw records as the events are (the charge itself stays in the ledgers and `rtb_notices`).
 * @example await pruneExchangeNotices(repo, 90) // 'deleted 800 exchange notices'
 */
export async function pruneExchangeNotices(
  repo: { deleteExchangeNoticesBefore(before: Date, limit: number): Promise<number> },
  days: number,
  now: Date = new Date(),
  chunk: number = RETENTION_CHUNK,
): Promise<JobOutcome> {
  if (days <= 0) return jobOutcome('retention_kept', 'exchange notices kept');
  const before = new Date(now.getTime() - days * DAY_MS);
  const deleted = await inChunks((limit) => repo.deleteExchangeNoticesBefore(before, limit), chunk);
  return jobOutcome('notices_deleted', `deleted ${deleted} exchange notices`, { deleted });
}
