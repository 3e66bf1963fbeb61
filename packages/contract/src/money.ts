import { z } from 'zod';

export const MICROS = 1_000_000n;

/**
 * The largest amount (either sign) the API takes: a billion currency units. Below it every amount with 6
 * decimals has at most 15 significant digits, so a JSON number carries it exactly, and its micro-units sit
 * far inside PostgreSQL's bigint; 1e13 would overflow bigint and 1e10 would already lose micro-units.
 */
export const MONEY_MAX = 1_000_000_000;

/**
 * An amount in currency units as JSON carries it: a finite number with at most 6 decimals, at most
 * MONEY_MAX either way (a larger one is a 422 `less_than_or_equal`, never a database overflow).
 * @example money.parse(12.5) // 12.5
 */
export const money = z
  .number()
  .min(-MONEY_MAX)
  .max(MONEY_MAX)
  .refine((v) => Number.isFinite(v) && /^-?\d+(\.\d{1,6})?$/.test(toPlainString(v)), { message: 'money' });

/**
 * A rate or share in percent, 0 to 100, with at most 2 decimals (as the database keeps it): 12.5 or 7.25,
 * not 99.999 (which would be stored as 100).
 * @example percent.parse(15.5) // 15.5
 */
export const percent = z
  .number()
  .min(0)
  .max(100)
  .refine((v) => /^-?\d+(\.\d{1,2})?$/.test(toPlainString(v)), { message: 'percent' });

/**
 * A balance or a sum the API answers but never takes: many amounts add up past MONEY_MAX, and a total
 * above 2^53 micro-units is rounded by JSON itself, so only finiteness is promised.
 * @example const account = z.object({ balance: moneyTotal });
 */
export const moneyTotal = z.number();

function toPlainString(v: number): string {
  // Number#toString switches to exponent form below 1e-7 or above 1e21; money never needs those.
  const s = String(v);
  if (!s.includes('e')) return s;
  // exponent form only happens for tiny or huge values: spell them out so the decimal check sees them
  return Math.abs(v) < 1 ? v.toFixed(20).replace(/0+$/, '') : s;
}

/**
 * Converts currency units to integer micro-units without floating point arithmetic.
 * @example toMicros(12.5) // 12500000n
 */
export function toMicros(v: number | string): bigint {
  const s = typeof v === 'number' ? toPlainString(v) : v.trim();
  const m = /^(-)?(\d+)(?:\.(\d{1,6}))?$/.exec(s);
  if (!m) throw new RangeError(`not a money amount: ${s}`);
  const units = BigInt(m[2] ?? '0') * MICROS + BigInt((m[3] ?? '').padEnd(6, '0') || '0');
  return m[1] ? -units : units;
}

/**
 * Converts integer micro-units back to a JSON number in currency units.
 * @example fromMicros(12500000n) // 12.5
 */
export function fromMicros(micros: bigint | number | string): number {
  const v = BigInt(micros);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const frac = (abs % MICROS).toString().padStart(6, '0').replace(/0+$/, '');
  const text = `${neg ? '-' : ''}${abs / MICROS}${frac ? `.${frac}` : ''}`;
  return Number(text);
}
