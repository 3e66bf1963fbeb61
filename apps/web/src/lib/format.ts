import { currentLocale } from './i18n.ts';

/**
 * The fraction digits of an amount: the currency's own (2 for USD), and up to 6 (micro-units) for an
 * amount that is not zero but would round to it, as an exchange impression's charge of $0.0025 does.
 */
function digitsOf(amount: number): Intl.NumberFormatOptions {
  return amount !== 0 && Math.abs(amount) < 0.01 ? { maximumFractionDigits: 6 } : {};
}

/**
 * An amount in the current interface language, e.g. 1 234,50 $ in Russian.
 * @example formatMoney(12.5, 'USD') // "$12.50" in English
 * @example formatMoney(0.0025, 'USD') // "$0.0025"
 */
export function formatMoney(amount: number, currency = 'USD', locale: string = currentLocale()): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, ...digitsOf(amount) }).format(amount);
  } catch {
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(amount)} ${currency}`;
  }
}

/** A signed amount: movements in ledgers show their direction. */
export function formatSignedMoney(
  amount: number,
  currency = 'USD',
  locale: string = currentLocale(),
): string {
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      signDisplay: 'exceptZero',
      ...digitsOf(amount),
    }).format(amount);
  } catch {
    return `${amount > 0 ? '+' : ''}${amount} ${currency}`;
  }
}

export function formatNumber(value: number, locale: string = currentLocale(), digits = 6): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}

export function formatPercent(value: number, locale: string = currentLocale()): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);
}

/**
 * An instant as a date and time of the reader's language, in `timeZone` when given (a statistics screen's
 * zone, so a row's time falls in the period it lists) else the browser's.
 */
export function formatDateTime(
  iso: string | null | undefined,
  locale: string = currentLocale(),
  timeZone?: string,
): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
      date,
    );
  } catch {
    // a zone this browser does not know: its own
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  }
}

export function formatDate(iso: string | null | undefined, locale: string = currentLocale()): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date);
}

/** "2026-03" → "March 2026" in the current language. */
export function formatMonth(month: string, locale: string = currentLocale()): string {
  const date = new Date(`${month.slice(0, 7)}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return month;
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/**
 * Where a money field writes its currency in this language: "$ 10" in en, "10 $" in de, ru, fr…
 * @example <NumberInput {...moneyAffix()} />
 */
export function moneyAffix(
  currency = 'USD',
  locale: string = currentLocale(),
): { prefix?: string; suffix?: string } {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(1);
  const at = parts.findIndex((p) => p.type === 'currency');
  const symbol = parts[at]?.value ?? currency;
  return at < parts.findIndex((p) => p.type === 'integer')
    ? { prefix: `${symbol} ` }
    : { suffix: ` ${symbol}` };
}

/** A duration in milliseconds as the language writes it: "3.2 ms", "3,2 мс". */
export function formatMs(value: number, locale: string = currentLocale()): string {
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: 'millisecond',
    maximumFractionDigits: 2,
  }).format(value);
}

/** A currency's name in the language ("Euro", "евро"), the stored name when the browser has none. */
export function currencyName(code: string, fallback: string, locale: string = currentLocale()): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'currency' }).of(code);
    return name && name !== code ? name : fallback;
  } catch {
    return fallback;
  }
}
