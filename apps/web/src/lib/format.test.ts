import { describe, expect, test } from 'vitest';
import { currencyName, formatMoney, formatMs, formatSignedMoney, moneyAffix } from './format.ts';

describe('money as the dashboard shows it', () => {
  test("the currency's digits, and more only for a sum that would otherwise read as zero", () => {
    expect(formatMoney(12.5, 'USD', 'en')).toBe('$12.50');
    expect(formatMoney(19.2725, 'USD', 'en')).toBe('$19.27');
    expect(formatMoney(0, 'USD', 'en')).toBe('$0.00');
    // an exchange impression billed at a $2.50 CPM
    expect(formatMoney(0.0025, 'USD', 'en')).toBe('$0.0025');
    expect(formatSignedMoney(-0.0025, 'USD', 'en')).toBe('-$0.0025');
    expect(formatSignedMoney(-0.000001, 'USD', 'en')).toBe('-$0.000001');
    expect(formatSignedMoney(0.5, 'USD', 'en')).toBe('+$0.50');
    expect(formatMoney(0.0025, 'USD', 'ru').replace(/\s/g, ' ')).toBe('0,0025 $');
  });
});

describe('units as the language writes them', () => {
  test('a money field puts the currency where the language does', () => {
    expect(moneyAffix('USD', 'en')).toEqual({ prefix: '$ ' });
    expect(moneyAffix('USD', 'ru')).toEqual({ suffix: ' $' });
    expect(moneyAffix('EUR', 'de')).toEqual({ suffix: ' €' });
  });
  test('milliseconds', () => {
    expect(formatMs(3.2, 'en')).toBe('3.2 ms');
    expect(formatMs(3.2, 'ru')).toBe('3,2 мс');
  });
});

test("a currency's name in the language, the stored one when the browser knows none", () => {
  expect(currencyName('EUR', 'Euro', 'ru')).toBe('евро');
  expect(currencyName('USD', 'US dollar', 'de')).toBe('US-Dollar');
  expect(currencyName('XYZ', 'Stored name', 'de')).toBe('Stored name');
});
