import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import fr from 'i18n-iso-countries/langs/fr.json';
import pt from 'i18n-iso-countries/langs/pt.json';
import ru from 'i18n-iso-countries/langs/ru.json';
import uk from 'i18n-iso-countries/langs/uk.json';

for (const data of [en, ru, uk, de, fr, pt]) countries.registerLocale(data);

export interface Option {
  value: string;
  label: string;
}

const collator = (locale: string) => new Intl.Collator(locale, { sensitivity: 'base' });
const cache = new Map<string, Option[]>();

function cached(key: string, build: () => Option[]): Option[] {
  const hit = cache.get(key);
  if (hit) return hit;
  const built = build();
  cache.set(key, built);
  return built;
}

/** ISO 3166-1 alpha-2 codes with their names in `locale`, sorted by name. */
export function countryOptions(locale: string): Option[] {
  return cached(`country:${locale}`, () => {
    const names = countries.getNames(locale, { select: 'official' });
    const english = countries.getNames('en', { select: 'official' });
    const sort = collator(locale);
    return Object.keys(countries.getAlpha2Codes())
      .map((code) => ({ value: code, label: `${names[code] ?? english[code] ?? code} (${code})` }))
      .sort((a, b) => sort.compare(a.label, b.label));
  });
}

/** Every IANA time zone the browser knows, UTC first. */
export function timezoneOptions(): string[] {
  const zones =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Europe/London'];
  return ['UTC', ...zones.filter((zone) => zone !== 'UTC')];
}

export const encodings = [
  'auto',
  'utf-8',
  'windows-1251',
  'koi8-r',
  'iso-8859-1',
  'iso-8859-2',
  'windows-1252',
];
