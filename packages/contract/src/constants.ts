/**
 * The contract's plain lists, without zod: the dashboard's first screen (login) reads them without
 * downloading the schemas. `common.ts` and `roles.ts` build their enums from these.
 */

/** Interface languages, in the order the locale switcher shows them. */
export const locales = ['en', 'ru', 'uk', 'de', 'fr', 'pt'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

export const roles = [
  'dummy',
  'admin',
  'adminreadonly',
  'default',
  'defaultreadonly',
  'agency',
  'agencymember',
] as const;
export type Role = (typeof roles)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}
