import type { DeliveryRepository } from './delivery.repository.ts';

const DAY_MS = 86_400_000;
/** The job's name in `jobs` (hourly, see startServices). */
export const RAW_EVENTS_JOB = 'raw-events-retention';
/** Rows per DELETE: short statements that never hold many locks or much WAL at once. */
export const RETENTION_CHUNK = 10_000;
/** Chunks per run at most; what is left is deleted by the next run. */
const MAX_CHUNKS = 500;

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
): Promise<string> {
  if (days <= 0) return 'kept (RAW_EVENTS_DAYS=0)';
  const before = new Date(now.getTime() - days * DAY_MS);
  let deleted = 0;
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const n = await repo.deleteEventsBefore(before, chunk);
    deleted += n;
    if (n < chunk) break;
  }
  return `deleted ${deleted} events before ${before.toISOString()}`;
}
