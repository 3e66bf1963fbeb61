import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { eurToUsdBase, parseEcbXml } from './rate-sources.ts';
import { convertMicros, divideDecimals, formatScaled, parseDecimal, rateFromNumber } from './rates.ts';

const fixture = readFileSync(new URL('./fixtures/eurofxref-daily.xml', import.meta.url), 'utf8');

describe('convertMicros', () => {
  test('multiplies by the rate exactly and rounds half up', () => {
    expect(convertMicros(10_000_000n, '0.9123456789')).toBe(9_123_457n);
    expect(convertMicros(1n, '0.5')).toBe(1n); // 0.5 micro rounds up
    expect(convertMicros(1n, '0.4999999999')).toBe(0n);
    expect(convertMicros(3n, '0.5')).toBe(2n); // 1.5 → 2
    expect(convertMicros(0n, '123.45')).toBe(0n);
    expect(convertMicros(12_500_000n, '1')).toBe(12_500_000n);
  });

  test('negative amounts round away from zero, symmetric with positive ones', () => {
    expect(convertMicros(-3n, '0.5')).toBe(-2n);
    expect(convertMicros(-10_000_000n, '0.9123456789')).toBe(-9_123_457n);
  });

  test('stays exact where floating point would drift', () => {
    // 0.1 + 0.2 territory: 1e15 micros (a billion dollars) at a 10-decimal rate
    expect(convertMicros(1_000_000_000_000_000n, '0.1000000001')).toBe(100_000_000_100_000n);
    expect(convertMicros(9_007_199_254_740_993n, '1.0000000000')).toBe(9_007_199_254_740_993n);
  });

  test('a rate that is not a decimal is refused', () => {
    expect(() => convertMicros(1n, '1e5')).toThrow(RangeError);
    expect(() => convertMicros(1n, '-1')).toThrow(RangeError);
  });
});

describe('decimal helpers', () => {
  test('parse, format and divide', () => {
    expect(parseDecimal('1.0500')).toEqual({ int: 10500n, scale: 4 });
    expect(formatScaled(5n, 3)).toBe('0.005');
    expect(formatScaled(-12345n, 2)).toBe('-123.45');
    expect(divideDecimals('1', '3')).toBe('0.3333333333');
    expect(divideDecimals('2', '3')).toBe('0.6666666667');
    expect(divideDecimals('181.43', '1.1581')).toBe('156.6617735947');
    expect(() => divideDecimals('1', '0')).toThrow(RangeError);
  });

  test('a JSON number rate never becomes exponent notation', () => {
    expect(rateFromNumber(0.92)).toBe('0.92');
    expect(rateFromNumber(1e-7)).toBe('0.0000001');
  });
});

describe('ECB feed', () => {
  test('the saved daily file parses to its date and EUR rates', () => {
    const { date, rates } = parseEcbXml(fixture);
    expect(date).toBe('2026-11-20');
    expect(Object.keys(rates)).toHaveLength(29);
    expect(rates).toMatchObject({ USD: '1.1581', JPY: '181.43', GBP: '0.88115', ISK: '146.80' });
    expect(rates.RUB).toBeUndefined();
  });

  test('EUR rates are re-based on USD with 10 exact decimals', () => {
    const usd = eurToUsdBase(parseEcbXml(fixture).rates);
    expect(usd.USD).toBe('1');
    expect(usd.EUR).toBe('0.8634832916'); // 1 / 1.1581
    expect(usd.GBP).toBe('0.7608583024'); // 0.88115 / 1.1581
    expect(usd.JPY).toBe('156.6617735947');
    expect(usd.CHF).toBe('0.8038165961');
    expect(usd.PLN).toBe('3.6598739314');
  });

  test('a feed without USD, without a date or that is not XML is refused', () => {
    expect(() => eurToUsdBase({ GBP: '0.88' })).toThrow(/USD/);
    expect(() => parseEcbXml(fixture.replace("time='2026-11-20'", ''))).toThrow(/date/);
    expect(() => parseEcbXml('<html><body>maintenance</body></html>')).toThrow();
    expect(() => parseEcbXml('')).toThrow();
  });

  test('entries with a bad code or rate are skipped, the rest kept', () => {
    const xml = fixture
      .replace("currency='JPY' rate='181.43'", "currency='jpy' rate='181.43'")
      .replace("currency='GBP' rate='0.88115'", "currency='GBP' rate='n/a'")
      .replace("currency='CHF' rate='0.9309'", "currency='CHF' rate='0'");
    const { rates } = parseEcbXml(xml);
    expect(rates.JPY).toBeUndefined();
    expect(rates.GBP).toBeUndefined();
    expect(rates.CHF).toBeUndefined();
    expect(rates.USD).toBe('1.1581');
  });
});
