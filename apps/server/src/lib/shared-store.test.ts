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
