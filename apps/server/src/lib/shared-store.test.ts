import { randomBytes } from 'node:crypto';
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
