import ISO6391 from 'iso-639-1';

export interface Option {
  value: string;
  label: string;
}

const cache = new Map<string, Option[]>();

function languageName(code: string, locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' }).of(code);
    if (name) return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  } catch {
    // an engine without display names falls back to the English name
  }
  return ISO6391.getName(code) || code;
}

/** ISO 639-1 codes with their names in `locale`, sorted by name. */
export function languageOptions(locale: string): Option[] {
  const hit = cache.get(locale);
  if (hit) return hit;
  const sort = new Intl.Collator(locale, { sensitivity: 'base' });
  const built = ISO6391.getAllCodes()
    .map((code) => ({ value: code, label: `${languageName(code, locale)} (${code})` }))
    .sort((a, b) => sort.compare(a.label, b.label));
  cache.set(locale, built);
  return built;
}

/** ISO weekday 1 = Monday … 7 = Sunday, named in `locale`. */
export function weekdayName(day: number, locale: string): string {
  // 2024-01-01 was a Monday
  const date = new Date(Date.UTC(2024, 0, day));
  return new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(date);
}
