import ISO6391 from 'iso-639-1';

export interface LanguageOption {
  value: string;
  label: string;
}

const cache = new Map<string, LanguageOption[]>();

/**
 * A language's name in `locale` (the browser's own names, capitalised); the English name where the browser
 * has none in that language (a few rare languages in some locales).
 */
function languageName(code: string, locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' }).of(code);
    if (name) return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  } catch {
    // an engine without display names falls back to the English name
  }
  return ISO6391.getName(code) || code;
}

/** ISO 639-1 codes with their names in `locale`, sorted by name: the site's and the targeting's pickers. */
export function languageOptions(locale: string): LanguageOption[] {
  const hit = cache.get(locale);
  if (hit) return hit;
  const sort = new Intl.Collator(locale, { sensitivity: 'base' });
  const built = ISO6391.getAllCodes()
    .map((code) => ({ value: code, label: `${languageName(code, locale)} (${code})` }))
    .sort((a, b) => sort.compare(a.label, b.label));
  cache.set(locale, built);
  return built;
}
