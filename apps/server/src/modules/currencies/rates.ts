/**
 * Exchange-rate arithmetic on decimal strings, exact: values are scaled BigInts, never floats.
 * Rates are "units of the currency per 1 unit of the platform currency" (USD).
 */

/** Decimals kept for a rate (the `currencies.rate` column is numeric(24, 10)). */
export const RATE_SCALE = 10;

const decimalPattern = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal string as an integer and its number of decimals: "1.05" → {int: 105n, scale: 2}. */
export function parseDecimal(text: string): { int: bigint; scale: number } {
  const m = decimalPattern.exec(text.trim());
  if (!m) throw new RangeError(`not a decimal: ${text}`);
  const frac = m[2] ?? '';
  return { int: BigInt(`${m[1]}${frac}`), scale: frac.length };
}

/** num / den rounded half up (away from zero), for den > 0. */
function divRound(num: bigint, den: bigint): bigint {
  const neg = num < 0n;
  const abs = neg ? -num : num;
  const q = (abs * 2n + den) / (2n * den);
  return neg ? -q : q;
}

/** An integer scaled by 10^scale as a plain decimal string: (12345n, 4) → "1.2345". */
export function formatScaled(value: bigint, scale: number): string {
  const neg = value < 0n;
  const digits = (neg ? -value : value).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${neg ? '-' : ''}${int}${frac}`;
}

/** a / b as a decimal string with `places` decimals, rounded half up. */
export function divideDecimals(a: string, b: string, places = RATE_SCALE): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (y.int === 0n) throw new RangeError('division by zero');
  // a/b = (x.int / 10^x.scale) / (y.int / 10^y.scale); scaled by 10^places
  const num = x.int * 10n ** BigInt(y.scale + places);
  const den = y.int * 10n ** BigInt(x.scale);
  return formatScaled(divRound(num, den), places);
}

/**
 * Converts micro-units of the platform currency into micro-units of a currency with `rate`, rounding
 * half up (away from zero for negative amounts).
 * @example convertMicros(10_000_000n, '0.9123456789') // 9_123_457n
 */
export function convertMicros(micros: bigint, rate: string): bigint {
  const r = parseDecimal(rate);
  return divRound(micros * r.int, 10n ** BigInt(r.scale));
}

/** A JSON number rate (as the API sends it) as a decimal string, without exponent notation. */
export function rateFromNumber(value: number): string {
  const s = String(value);
  if (!s.includes('e')) return s;
  return value.toFixed(RATE_SCALE).replace(/\.?0+$/, '');
}

/**
 * The rates of every known currency, kept in memory so turning a balance into a display amount never
 * queries the database. Reloaded at start, after every rate change, and periodically (another instance
 * may have changed them).
 */
export interface RatesCache {
  get(code: string): string | undefined;
  replace(rates: Iterable<[string, string]>): void;
}

export function createRatesCache(): RatesCache {
  let map = new Map<string, string>();
  return {
    get: (code) => map.get(code),
    replace(rates) {
      map = new Map(rates);
    },
  };
}
