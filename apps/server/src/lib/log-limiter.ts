/**
 * A per-key log rate limiter for hot paths (README "Exchange"): the first event of a key in a window is
 * logged, the next ones in that window are only counted, and the first event of the next window is
 * logged with the number suppressed since. A partner that times out on every request writes one warn
 * line a minute, not one per request.
 */
export interface LogLimiter {
  /** Whether this event should be logged now; `suppressed` is how many were skipped since the last one. */
  hit(key: string | number, now?: number): { log: true; suppressed: number } | { log: false };
}

export function createLogLimiter(windowMs = 60_000, maxKeys = 10_000): LogLimiter {
  const state = new Map<string | number, { until: number; suppressed: number }>();
  return {
    hit(key, now = Date.now()) {
      const s = state.get(key);
      if (s && now < s.until) {
        s.suppressed++;
        return { log: false };
      }
      const suppressed = s?.suppressed ?? 0;
      // bounded: keys are partner ids, but never let an unexpected key space grow without end
      if (!s && state.size >= maxKeys) state.clear();
      state.set(key, { until: now + windowMs, suppressed: 0 });
      return { log: true, suppressed };
    },
  };
}
