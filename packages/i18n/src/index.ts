import type { Locale } from '@adp/contract';

/** Namespaces of `locales/<lng>/<ns>.json`; the dashboard loads them lazily, the server reads `serverNamespaces`. */
export const namespaces = [
  'common',
  'auth',
  'validation',
  'fields',
  'errors',
  'emails',
  'users',
  'payments',
  /** Texts of the public landing pages (server-rendered for visitors). */
  'landingpage',
  /** The widgets' screens, and the server's preview placeholders. */
  'widgets',
] as const;
export type Namespace = (typeof namespaces)[number];
export const serverNamespaces = [
  'validation',
  'fields',
  'errors',
  'emails',
  'payments',
  'landingpage',
  // the widget preview's placeholder items
  'widgets',
] as const satisfies readonly Namespace[];

/** Native names for the locale switcher. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  ru: 'Русский',
  uk: 'Українська',
  de: 'Deutsch',
  fr: 'Français',
  pt: 'Português',
};

/**
 * Picks the best supported locale from an Accept-Language header.
 * @example pickLocale('de-CH,de;q=0.9,en;q=0.5') // 'de'
 */
export function pickLocale(header: string | undefined | null): Locale {
  const supported = ['en', 'ru', 'uk', 'de', 'fr', 'pt'];
  const ranked = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { lang: tag.trim().toLowerCase().slice(0, 2), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((x) => supported.includes(x.lang) && x.q > 0)
    .sort((a, b) => b.q - a.q);
  return (ranked[0]?.lang as Locale | undefined) ?? 'en';
}
