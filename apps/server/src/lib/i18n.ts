import { readFileSync } from 'node:fs';
import { type Locale, locales } from '@adp/contract';
import { serverNamespaces } from '@adp/i18n';
import { createInstance, type Resource, type TFunction } from 'i18next';
import { findUp } from './paths.ts';

const localesDir = findUp('packages/i18n/locales');

function load() {
  const resources: Resource = {};
  for (const lng of locales) {
    const lang: Resource[string] = {};
    resources[lng] = lang;
    for (const ns of serverNamespaces) {
      try {
        lang[ns] = JSON.parse(readFileSync(`${localesDir}/${lng}/${ns}.json`, 'utf8'));
      } catch {
        // a missing translation falls back to English; i18n:check keeps the files complete
      }
    }
  }
  return resources;
}

const i18n = createInstance();
void i18n.init({
  resources: load(),
  lng: 'en',
  fallbackLng: 'en',
  ns: [...serverNamespaces],
  defaultNS: 'errors',
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** A translator fixed to one language: server messages follow the caller's Accept-Language. */
export function translator(lng: Locale): TFunction {
  return i18n.getFixedT(lng);
}
