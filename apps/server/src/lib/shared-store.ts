import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Redis, ReplyError } from 'ioredis';
import { storeUnavailable } from './errors.ts';

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
  /** Sets the key when it does not exist yet; true when this call set it (a once-only guard). */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Whether the key exists (a claim not yet expired). */
  has(key: string): Promise<boolean>;
  /**
   * Adds `by` (may be negative) to a counter and returns the new value; the counter expires `ttlMs` after
   * it was created. Atomic: concurrent calls on several instances each see their own result.
   */
  add(key: string, by: number, ttlMs: number): Promise<number>;
  /** Sets a counter only when it does not exist yet (seeding from the database after a restart). */
  seed(key: string, value: number, ttlMs: number): Promise<void>;
  /** Current values of several counters (0 when missing), in one round trip. */
  values(keys: readonly string[]): Promise<number[]>;
  redis?: Redis;
  close(): Promise<void>;
}

type Entry = { n: number; until: number };

/**
 * The in-process store's entries that are still live, read back from `file` (JSON lines `[key, n,
 * until]`, written by `close`); the file is removed once read, so a crash later does not bring back what a
 * newer run changed. Lines past one that cannot be read are left out (as a restart without the file would).
 */
function readEntries(file: string, entries: Map<string, Entry>): void {
  if (!existsSync(file)) return;
  try {
    const now = Date.now();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const [key, n, until] = JSON.parse(line) as [unknown, unknown, unknown];
      if (typeof key === 'string' && typeof n === 'number' && typeof until === 'number' && until > now)
        entries.set(key, { n, until });
    }
  } catch {
    // a torn or foreign file: what it held from the bad line on is forgotten, as a restart without it forgets
  }
  rmSync(file, { force: true });
}

/**
 * Writes the live entries to `file` through a temporary file renamed once complete; a failure (a full or
 * read-only disk) leaves no file, and the next start begins empty, as without one.
 */
async function writeEntries(file: string, entries: Map<string, Entry>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const out = createWriteStream(temporary);
    const closed = once(out, 'close');
    // a write that fails rejects this too: handled below, never left unhandled at shutdown
    closed.catch(() => {});
    const now = Date.now();
    let chunk = '';
    for (const [key, e] of entries) {
      if (e.until <= now) continue;
      chunk += `${JSON.stringify([key, e.n, e.until])}\n`;
      if (chunk.length > 65_536) {
        const more = out.write(chunk);
        chunk = '';
        if (!more) await once(out, 'drain');
      }
    }
    out.end(chunk);
    await closed;
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/**
 * The store in this process. With `file`, what it holds survives a graceful restart: `close` writes the
 * live entries there and the next start reads them back (click filters, replay guards, impressions'
 * claims, failed logins keep their windows); a crash still forgets them (share Redis for that).
 */
export function memoryStore(opts: { file?: string | undefined } = {}): SharedStore {
  const entries = new Map<string, Entry>();
  if (opts.file) readEntries(opts.file, entries);
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
    async claim(key, ttlMs) {
      if (live(key)) return false;
      entries.set(key, { n: 1, until: Date.now() + ttlMs });
      return true;
    },
    async has(key) {
      return live(key) !== undefined;
    },
    async add(key, by, ttlMs) {
      const e = live(key);
      if (e) {
        e.n += by;
        return e.n;
      }
      entries.set(key, { n: by, until: Date.now() + ttlMs });
      return by;
    },
    async seed(key, value, ttlMs) {
      if (!live(key)) entries.set(key, { n: value, until: Date.now() + ttlMs });
    },
    async values(keys) {
      return keys.map((k) => live(k)?.n ?? 0);
    },
    async close() {
      clearInterval(sweep);
      if (opts.file && entries.size) await writeEntries(opts.file, entries);
      entries.clear();
    },
  };
}

// INCRBY and, for a new key, its expiry, in one atomic step
const addScript = `local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;

/**
 * The store on Redis. A Redis that does not answer (down, unreachable, restarting) makes a call fail with
 * `storeUnavailable` (503 with Retry-After) rather than an error that reads as our failure; a reply error
 * (a command Redis refused) stays one. `onError` hears the connection's errors (ioredis would print every
 * reconnection attempt's error itself without a listener).
 */
export function redisStore(
  url: string,
  prefix = 'adp:',
  onError: (err: Error) => void = () => {},
): SharedStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
  redis.on('error', onError);
  const unavailable = (err: unknown): never => {
    throw err instanceof ReplyError ? err : storeUnavailable();
  };
  return {
    kind: 'redis',
    redis,
    async hit(key, ttlMs) {
      const k = prefix + key;
      const [[, n] = [], [, ttl] = []] =
        (await redis.multi().incr(k).pttl(k).exec().catch(unavailable)) ?? [];
      if (Number(ttl) < 0) await redis.pexpire(k, ttlMs).catch(unavailable);
      return Number(n);
    },
    async count(key) {
      return Number((await redis.get(prefix + key).catch(unavailable)) ?? 0);
    },
    async reset(key) {
      await redis.del(prefix + key).catch(unavailable);
    },
    async claim(key, ttlMs) {
      return (await redis.set(prefix + key, '1', 'PX', ttlMs, 'NX').catch(unavailable)) === 'OK';
    },
    async has(key) {
      return (await redis.exists(prefix + key).catch(unavailable)) === 1;
    },
    async add(key, by, ttlMs) {
      return Number(
        await redis.eval(addScript, 1, prefix + key, String(by), String(ttlMs)).catch(unavailable),
      );
    },
    async seed(key, value, ttlMs) {
      await redis.set(prefix + key, String(value), 'PX', ttlMs, 'NX').catch(unavailable);
    },
    async values(keys) {
      if (keys.length === 0) return [];
      const got = await redis.mget(keys.map((k) => prefix + k)).catch(unavailable);
      return got.map((v) => Number(v ?? 0));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
