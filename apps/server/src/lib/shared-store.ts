import { Redis } from 'ioredis';

/**
 * Counters that every server instance must see alike (failed logins, later frequency caps and click
 * filters): in-process by default, Redis when REDIS_URL is set.
 */
export interface SharedStore {
  kind: 'memory' | 'redis';
  /** Adds one and returns the new count; the window starts with the first hit and lasts `ttlMs`. */
  hit(key: string, ttlMs: number): Promise<number>;
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  redis?: Redis;
  close(): Promise<void>;
}

export function memoryStore(): SharedStore {
  const entries = new Map<string, { n: number; until: number }>();
  const live = (key: string) => {
    const e = entries.get(key);
    if (e && e.until <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return e;
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [k, e] of entries) if (e.until <= now) entries.delete(k);
  }, 60_000);
  sweep.unref();
  return {
    kind: 'memory',
    async hit(key, ttlMs) {
      const e = live(key);
      if (e) return ++e.n;
      entries.set(key, { n: 1, until: Date.now() + ttlMs });
      return 1;
    },
    async count(key) {
      return live(key)?.n ?? 0;
    },
    async reset(key) {
      entries.delete(key);
    },
    async close() {
      clearInterval(sweep);
      entries.clear();
    },
  };
}

export function redisStore(url: string, prefix = 'adp:'): SharedStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
  return {
    kind: 'redis',
    redis,
    async hit(key, ttlMs) {
      const k = prefix + key;
      const [[, n] = [], [, ttl] = []] = (await redis.multi().incr(k).pttl(k).exec()) ?? [];
      if (Number(ttl) < 0) await redis.pexpire(k, ttlMs);
      return Number(n);
    },
    async count(key) {
      return Number((await redis.get(prefix + key)) ?? 0);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async close() {
      await redis.quit();
    },
  };
}
