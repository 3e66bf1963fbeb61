import { expect, test } from 'vitest';
import { userRegexExec, userRegexSupported, userRegexTest } from './user-regex.ts';

test('a catastrophic pattern on a 50 000-character input returns (it would hang a backtracking engine)', () => {
  const evil = `${'a'.repeat(50_000)}!`;
  expect(userRegexTest('(a+)+$', evil)).toBe(false);
  expect(userRegexTest('^(a|aa)*$', evil)).toBe(false);
  expect(userRegexTest('(a+)+!$', evil)).toBe(true);
});

test('masks match like JavaScript regular expressions, with groups and case folding', () => {
  expect(userRegexExec('<img class="hero" src="([^"]+)"', '<img class="hero" src="/a.png">')).toEqual([
    '<img class="hero" src="/a.png"',
    '/a.png',
  ]);
  expect(userRegexTest('/NEWS/\\d+', 'https://x.example/news/42', { ignoreCase: true })).toBe(true);
  expect(userRegexTest('/NEWS/\\d+', 'https://x.example/news/42')).toBe(false);
  expect(userRegexExec('^(.*?)\\s*(tail)?$', 'Kyiv  ')).toEqual(['Kyiv  ', 'Kyiv', undefined]);
});

test('backreferences and lookaround are not supported; a stored one never matches instead of throwing', () => {
  expect(userRegexSupported('^/news/[a-z-]+$')).toBe(true);
  expect(userRegexSupported('(a)\\1')).toBe(false);
  expect(userRegexSupported('foo(?=bar)')).toBe(false);
  expect(userRegexSupported('(?<!x)y')).toBe(false);
  expect(userRegexTest('foo(?=bar)', 'foobar')).toBe(false);
});

test('many distinct patterns do not exhaust the engine (compiled patterns are freed)', () => {
  for (let i = 0; i < 3000; i++) expect(userRegexTest(`item-${i}-(x|y)+`, `item-${i}-xy`)).toBe(true);
});
