import { readFileSync } from 'node:fs';
import { validationKeys } from '@adp/contract';
import { expect, test } from 'vitest';
// @ts-expect-error plain ESM script without types, also run as `npm run i18n:check`
import { checkLocales } from '../scripts/check.mjs';
import { pickLocale } from './index.ts';

test('every locale has every key that en has', () => {
  expect(checkLocales()).toEqual([]);
});

test('every validation key of the contract has an English message with the field placeholder', () => {
  const en = JSON.parse(readFileSync(new URL('../locales/en/validation.json', import.meta.url), 'utf8'));
  for (const key of validationKeys) expect(en[key], key).toContain('{{field}}');
});

test('Accept-Language picks the best supported locale, English otherwise', () => {
  expect(pickLocale('de-CH,de;q=0.9,en;q=0.5')).toBe('de');
  expect(pickLocale('ja,pt-BR;q=0.8')).toBe('pt');
  expect(pickLocale('ja')).toBe('en');
  expect(pickLocale(undefined)).toBe('en');
  expect(pickLocale('ru;q=0.1,uk;q=0.9')).toBe('uk');
});
