import { describe, expect, test } from 'vitest';
import { fittingCount } from './nav-links.tsx';

describe('horizontal menu overflow', () => {
  test('every entry shows when the row fits, without a More button', () => {
    expect(fittingCount([100, 100, 100], 60, 308)).toBe(3);
  });

  test('entries that do not fit beside More go under it', () => {
    // 60 (More) + 4 + 100 + 4 + 100 = 268 > 260: only one entry stays in the row
    expect(fittingCount([100, 100, 100], 60, 260)).toBe(1);
    expect(fittingCount([100, 100, 100], 60, 268)).toBe(2);
    expect(fittingCount([100, 100, 100], 60, 50)).toBe(0);
  });
});
