import { DEFAULT_THEME, luminance } from '@mantine/core';
import { expect, test } from 'vitest';
import { cssVariablesResolver, decimalSeparatorOf, themeFor } from './theme.ts';

const ratio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

test('light badges and coloured text of every palette reach 4.5:1 (yellow, teal and lime did not)', () => {
  const theme = { ...DEFAULT_THEME, ...themeFor('light') } as typeof DEFAULT_THEME;
  const { light } = cssVariablesResolver(theme);
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'dark' || name === 'gray') continue;
    const badge = light[`--mantine-color-${name}-light-color`] ?? shades[9];
    expect(ratio(badge, shades[1]), `${name} light badge`).toBeGreaterThanOrEqual(4.5);
    const text = light[`--mantine-color-${name}-text`] ?? shades[8];
    expect(ratio(text, '#ffffff'), `${name} text`).toBeGreaterThanOrEqual(4.5);
  }
  expect(light['--mantine-color-yellow-light-color']).toBeDefined();
});

test("number fields write decimals as the language does: '0,5' in de, ru, uk, fr, pt; '0.5' in en", () => {
  expect(['en', 'ru', 'uk', 'de', 'fr', 'pt'].map(decimalSeparatorOf)).toEqual([
    '.',
    ',',
    ',',
    ',',
    ',',
    ',',
  ]);
  const numberInput = themeFor('light', decimalSeparatorOf('de')).components?.NumberInput as {
    defaultProps?: { decimalSeparator?: string };
  };
  expect(numberInput.defaultProps?.decimalSeparator).toBe(',');
});
