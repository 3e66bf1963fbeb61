import { describe, expect, test } from 'vitest';
import { createLogLimiter } from './log-limiter.ts';

describe('log limiter', () => {
  test('one line per key per window; the next line carries the count held back', () => {
    const l = createLogLimiter(60_000);
    expect(l.hit(7, 0)).toEqual({ log: true, suppressed: 0 });
    for (let i = 1; i <= 5; i++) expect(l.hit(7, i * 1000)).toEqual({ log: false });
    // another partner is not held back by the first one
    expect(l.hit(8, 2000)).toEqual({ log: true, suppressed: 0 });
    expect(l.hit(7, 59_999)).toEqual({ log: false });
    expect(l.hit(7, 60_000)).toEqual({ log: true, suppressed: 6 });
    expect(l.hit(7, 60_001)).toEqual({ log: false });
    expect(l.hit(7, 200_000)).toEqual({ log: true, suppressed: 1 });
  });

  test('the key space stays bounded', () => {
    const l = createLogLimiter(60_000, 3);
    for (const k of [1, 2, 3, 4]) expect(l.hit(k, 0)).toEqual({ log: true, suppressed: 0 });
    // the map was cleared when full: key 1 is new again
    expect(l.hit(1, 1)).toEqual({ log: true, suppressed: 0 });
  });
});
