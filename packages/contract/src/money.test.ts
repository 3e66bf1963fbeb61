import { expect, test } from 'vitest';
import { fromMicros, MONEY_MAX, money, moneyTotal, toMicros } from './money.ts';

test('amounts convert to micro-units and back without floating point drift', () => {
  expect(toMicros(12.5)).toBe(12_500_000n);
  expect(toMicros(0.1)).toBe(100_000n);
  expect(toMicros('0.000001')).toBe(1n);
  expect(toMicros(-3.25)).toBe(-3_250_000n);
  expect(fromMicros(12_500_000n)).toBe(12.5);
  expect(fromMicros(1n)).toBe(0.000001);
  expect(fromMicros(-3_250_000n)).toBe(-3.25);
  expect(fromMicros(toMicros(0.1) + toMicros(0.2))).toBe(0.3);
});

test('more than 6 decimals is not money', () => {
  expect(money.safeParse(1.1234567).success).toBe(false);
  expect(money.safeParse(1.123456).success).toBe(true);
  expect(money.safeParse(0.0000001).success).toBe(false);
  expect(money.safeParse(1e25).success).toBe(false);
  expect(() => toMicros('1.1234567')).toThrow();
  expect(() => toMicros('abc')).toThrow();
});

test('amounts are bounded so micro-units stay exact and inside bigint', () => {
  expect(money.safeParse(MONEY_MAX).success).toBe(true);
  expect(money.safeParse(-MONEY_MAX).success).toBe(true);
  expect(money.safeParse(999_999_999.999999).success).toBe(true);
  expect(toMicros(999_999_999.999999)).toBe(999_999_999_999_999n);
  for (const v of [1e13, -1e13, MONEY_MAX + 1, 9_223_372_036_854.775, 1e308]) {
    const result = money.safeParse(v);
    expect(result.success, String(v)).toBe(false);
    expect(result.error?.issues[0]?.code).toMatch(/too_big|too_small/);
  }
  expect(money.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
  expect(moneyTotal.safeParse(fromMicros(9_223_372_036_854_775_807n)).success).toBe(true);
});
