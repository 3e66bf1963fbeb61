import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import fr from 'i18n-iso-countries/langs/fr.json';
import pt from 'i18n-iso-countries/langs/pt.json';
import ru from 'i18n-iso-countries/langs/ru.json';
import uk from 'i18n-iso-countries/langs/uk.json';

for (const data of [en, ru, uk, de, fr, pt]) countries.registerLocale(data);

/** An ISO 3166-1 alpha-2 code's name in `locale` (the code itself when unknown). */
export function countryName(code: string, locale: string): string {
  return countries.getName(code.toUpperCase(), locale) ?? countries.getName(code.toUpperCase(), 'en') ?? code;
}

/** A day 'YYYY-MM-DD' as the language writes it (no timezone shift: the day is already the user's). */
export function formatDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** A day 'YYYY-MM-DD' short, for the chart's axis ("Mar 2" / "2. März"). */
export function formatShortDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
}

/**
 * An hour key of the API ('2026-03-01T13:00:00+01:00', the hour's start in the user's timezone) as its
 * day and wall-clock hour: the key's own digits, so no timezone conversion can shift it.
 */
export function formatHour(key: string, locale: string, withDay = true): string {
  const day = key.slice(0, 10);
  const hour = key.slice(11, 16);
  return withDay ? `${formatShortDay(day, locale)} ${hour}` : hour;
}

/** The rollups' OS and browser values as their makers write them (a value not listed shows as it is). */
const brands: Record<string, string> = {
  windows: 'Windows',
  macos: 'macOS',
  ios: 'iOS',
  android: 'Android',
  chromeos: 'ChromeOS',
  linux: 'Linux',
  chrome: 'Chrome',
  firefox: 'Firefox',
  safari: 'Safari',
  edge: 'Edge',
  opera: 'Opera',
  yandex: 'Yandex Browser',
  samsung: 'Samsung Internet',
};
export const brandName = (value: string): string => brands[value] ?? value;

/** The device classes of the rollups; their names are translated (stats:devices.*). */
export const deviceClasses = ['desktop', 'mobile', 'tablet', 'tv', 'other'] as const;
