import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { memoryStore, redisStore, type SharedStore } from './shared-store.ts';

// Redis runs in CI (TEST_REDIS_URL); without it only the in-process store is checked.
const stores: [string, () => SharedStore][] = [['memory', memoryStore]];
if (process.env.TEST_REDIS_URL)
  stores.push([
    'redis',
    () => redisStore(process.env.TEST_REDIS_URL!, `test:${randomBytes(4).toString('hex')}:`),
  ]);

describe.each(stores)('%s store', (_name, make) => {
  const store = make();
  afterAll(() => store.close());

  test('counts hits within a window and forgets them after it', async () => {
    expect(await store.hit('k', 200)).toBe(1);
    expect(await store.hit('k', 200)).toBe(2);
    expect(await store.count('k')).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.count('k')).toBe(0);
    expect(await store.hit('k', 200)).toBe(1);
  });

  test('reset clears a counter; concurrent hits are all counted', async () => {
    await Promise.all(Array.from({ length: 50 }, () => store.hit('c', 10_000)));
    expect(await store.count('c')).toBe(50);
    await store.reset('c');
    expect(await store.count('c')).toBe(0);
  });
});

describe.each(stores)('%s store: delivery counters', (_name, make) => {
  const store = make();
  afterAll(() => store.close());

  test('a claim succeeds once, even when many race for it', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claim('once', 10_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.has('once')).toBe(true);
    expect(await store.has('never')).toBe(false);
  });

  test('add counts up and down atomically; seed does not overwrite; values reads several', async () => {
    const got = await Promise.all(Array.from({ length: 30 }, () => store.add('spend', 5, 10_000)));
    expect(Math.max(...got)).toBe(150);
    expect(new Set(got).size).toBe(30);
    expect(await store.add('spend', -50, 10_000)).toBe(100);
    await store.seed('spend', 7, 10_000);
    await store.seed('fresh', 7, 10_000);
    expect(await store.values(['spend', 'fresh', 'missing'])).toEqual([100, 7, 0]);
  });
});

describe('the in-process store across a graceful restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adp-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('close writes the live entries, the next store reads them back once', async () => {
    const file = join(dir, 'nested', 'store.jsonl');
    const first = memoryStore({ file });
    expect(await first.claim('imp:answer-1', 60_000)).toBe(true);
    expect(await first.add('daily:7', 5, 60_000)).toBe(5);
    expect(await first.hit('login:a@b', 60_000)).toBe(1);
    expect(await first.hit('login:a@b', 60_000)).toBe(2);
    // a key with characters a line-based file could trip on
    expect(await first.claim('odd\tkey\n"quoted"', 60_000)).toBe(true);
    expect(await first.claim('short', 30)).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    await first.close();
    expect(existsSync(file)).toBe(true);

    const second = memoryStore({ file });
    // read once, then gone: a crash of this run does not bring back what it changes
    expect(existsSync(file)).toBe(false);
    expect(await second.claim('imp:answer-1', 60_000)).toBe(false);
    expect(await second.add('daily:7', 1, 60_000)).toBe(6);
    expect(await second.count('login:a@b')).toBe(2);
    expect(await second.has('odd\tkey\n"quoted"')).toBe(true);
    // expired before the restart: not brought back
    expect(await second.has('short')).toBe(false);
    await second.close();
    expect(readdirSync(join(dir, 'nested')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('a torn or foreign file starts the store empty, and a later close replaces it', async () => {
    const file = join(dir, 'torn.jsonl');
    writeFileSync(file, '["imp:x",1,99999999999999]\n["imp:y",1,');
    const store = memoryStore({ file });
    expect(await store.has('imp:y')).toBe(false);
    expect(existsSync(file)).toBe(false);
    await store.claim('imp:z', 60_000);
    await store.close();
    const again = memoryStore({ file });
    expect(await again.has('imp:z')).toBe(true);
    await again.close();
  });
});
