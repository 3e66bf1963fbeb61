import { expect, test } from 'vitest';
import { parseTypedDay } from './date-field.tsx';

test('a typed day is read in the ISO form, the numeric forms of our languages and the field’s own display', () => {
  expect(parseTypedDay('2026-11-05', 'en')).toBe('2026-11-05');
  expect(parseTypedDay('5.11.2026', 'de')).toBe('2026-11-05');
  expect(parseTypedDay('05/11/2026', 'fr')).toBe('2026-11-05');
  expect(parseTypedDay('5 Nov 2026', 'en')).toBe('2026-11-05');
  // not (yet) a day: the field keeps what is typed and changes nothing
  expect(parseTypedDay('2026-11', 'en')).toBeNull();
  expect(parseTypedDay('31.02.2026', 'de')).toBeNull();
});
