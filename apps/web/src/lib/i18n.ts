import { defaultLocale, type Locale, locale as localeSchema, locales } from '@adp/contract';
import { namespaces } from '@adp/i18n';
import i18next, { type BackendModule, type i18n as I18n, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LOCALE_KEY = 'locale';

/** The dashboard's own namespaces beyond the shared list of @adp/i18n. */
export const webNamespaces = [
  'billing',
  'currencies',
  'agencies',
  'campaigns',
  'banners',
  'pixels',
  'landings',
] as const;
const allNamespaces = [...new Set<string>([...namespaces, ...webNamespaces])];

type LocaleModule = { default: Record<string, unknown> };

// One chunk per <lng>/<ns>.json: only the language in use is downloaded.
const localeFiles = import.meta.glob<LocaleModule>('../../../../packages/i18n/locales/*/*.json');

function fileFor(lng: string, ns: string) {
  return localeFiles[`../../../../packages/i18n/locales/${lng}/${ns}.json`];
}

const lazyJsonBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng: string, ns: string, callback: ReadCallback) {
    const load = fileFor(lng, ns);
    if (!load) {
      callback(new Error(`no locale file ${lng}/${ns}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

export function storedLocale(): Locale {
  try {
    const parsed = localeSchema.safeParse(localStorage.getItem(LOCALE_KEY));
    return parsed.success ? parsed.data : defaultLocale;
  } catch {
    return defaultLocale;
  }
}

export const i18n: I18n = i18next.createInstance();

let initialising: Promise<unknown> | null = null;

/** Starts i18next with the stored language; resolves when every namespace of it is loaded. */
export function initI18n(lng: Locale = storedLocale()): Promise<unknown> {
  if (!initialising) {
    i18n.on('languageChanged', (next) => {
      document.documentElement.lang = next;
    });
    initialising = i18n
      .use(lazyJsonBackend)
      .use(initReactI18next)
      .init({
        lng,
        fallbackLng: defaultLocale,
        supportedLngs: [...locales],
        ns: allNamespaces,
        defaultNS: 'common',
        fallbackNS: 'common',
        interpolation: { escapeValue: false },
        react: { useSuspense: true },
        returnNull: false,
      });
  }
  return initialising;
}

export async function changeLocale(next: Locale): Promise<void> {
  localStorage.setItem(LOCALE_KEY, next);
  await i18n.changeLanguage(next);
}

export function currentLocale(): Locale {
  const parsed = localeSchema.safeParse(i18n.resolvedLanguage ?? i18n.language);
  return parsed.success ? parsed.data : storedLocale();
}
