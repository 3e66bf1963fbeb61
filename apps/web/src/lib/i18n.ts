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
  'reports',
  'stats',
  'clicks',
  'decode',
  'pages',
  'adsense',
  'partners',
  'rtbpartners',
  'dsppartners',
  'notifications',
] as const;

/**
 * Namespaces a route loads together with its chunk (see page-routes.tsx); only `common` is loaded at
 * start. The login and password pages need these few; the dashboard pages the rest.
 */
export const guestNamespaces = ['auth', 'fields', 'validation', 'errors'] as const;
export const dashboardNamespaces = [...new Set<string>([...namespaces, ...webNamespaces])].filter(
  (ns) => ns !== 'common',
);

/** Set by vite.config.ts (localesPlugin): where the build puts packages/i18n's `<lng>/<ns>.json`. */
declare const __LOCALES_PATH__: string | undefined;

export type LocaleLoader = (lng: string, ns: string) => Promise<Record<string, unknown>>;

/** One plain JSON file per language and namespace: only the language in use is downloaded. */
const fetchLocale: LocaleLoader = async (lng, ns) => {
  const dir = typeof __LOCALES_PATH__ === 'string' ? __LOCALES_PATH__ : 'assets/locales';
  const response = await fetch(`${import.meta.env.BASE_URL}${dir}/${lng}/${ns}.json`);
  if (!response.ok) throw new Error(`no locale file ${lng}/${ns} (${response.status})`);
  return (await response.json()) as Record<string, unknown>;
};

let loadLocale: LocaleLoader = fetchLocale;

/** Tests (no HTTP server) read the files through their own loader. */
export function setLocaleLoader(loader: LocaleLoader): void {
  loadLocale = loader;
}

const lazyJsonBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng: string, ns: string, callback: ReadCallback) {
    loadLocale(lng, ns).then(
      (resources) => callback(null, resources),
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
