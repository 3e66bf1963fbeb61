import { defaultLocale, isLocale, type Locale, locales } from '@adp/contract/constants';
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

/**
 * Namespaces a route loads together with its chunk (see page-routes.tsx); only `common` is loaded at
 * start. The login and password pages need these few; the dashboard pages the rest.
 */
export const guestNamespaces = ['auth', 'fields', 'validation', 'errors'] as const;
export const dashboardNamespaces = [...new Set<string>([...namespaces, ...webNamespaces])].filter(
  (ns) => ns !== 'common',
);

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
    const stored = localStorage.getItem(LOCALE_KEY);
    return isLocale(stored) ? stored : defaultLocale;
  } catch {
    return defaultLocale;
  }
}

export const i18n: I18n = i18next.createInstance();

let initialising: Promise<unknown> | null = null;

/** Starts i18next with the stored language; resolves when its `common` namespace is loaded. */
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
        ns: ['common'],
        defaultNS: 'common',
        fallbackNS: 'common',
        interpolation: { escapeValue: false },
        react: { useSuspense: true },
        returnNull: false,
      });
  }
  return initialising;
}

/** Loads namespaces of the current language (a route's texts) before its page renders. */
export function loadNamespaces(ns: readonly string[]): Promise<unknown> {
  return initI18n().then(() => i18n.loadNamespaces([...ns]));
}

export async function changeLocale(next: Locale): Promise<void> {
  localStorage.setItem(LOCALE_KEY, next);
  await i18n.changeLanguage(next);
}

export function currentLocale(): Locale {
  const current = i18n.resolvedLanguage ?? i18n.language;
  return isLocale(current) ? current : storedLocale();
}
