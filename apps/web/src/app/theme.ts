import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  luminance,
  type MantineThemeOverride,
} from '@mantine/core';
import type { Skin } from './layout-settings.tsx';

/**
 * WCAG AA (4.5:1 for text): Mantine's default indigo-6 on white is 4.32:1 and its dimmed grey 3.32:1,
 * so the light scheme takes indigo-8 (5.67:1, and white on it) and a darker dimmed grey; the dark
 * scheme's dimmed grey is lightened the same way (dark-2 on dark-7 is 4.04:1).
 */
export const LIGHT_DIMMED = '#5c636a';
export const DARK_DIMMED = '#a6a6a6';

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** `color` darkened in steps until it reaches 4.6:1 on `background` (AA with a margin for rounding). */
export function readableOn(color: string, background: string): string {
  let c = color;
  for (let step = 0.1; contrast(c, background) < 4.6 && step <= 0.8; step += 0.1) c = darken(color, step);
  return c;
}

/**
 * Light variants (status badges, alerts) write shade 9 on shade 1, and coloured text is the filled shade
 * on white: for the bright palettes (yellow 2.7:1, orange, lime, teal 4.3:1 …) both are under 4.5:1, so
 * their light scheme takes the shade darkened until it reads.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = { '--mantine-color-dimmed': LIGHT_DIMMED };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'dark' || name === 'gray' || !shades[9] || !shades[1] || !shades[8]) continue;
    const lightColor = readableOn(shades[9], shades[1]);
    if (lightColor !== shades[9]) light[`--mantine-color-${name}-light-color`] = lightColor;
    const text = readableOn(shades[8], '#ffffff');
    if (text !== shades[8]) light[`--mantine-color-${name}-text`] = text;
  }
  return { variables: {}, light, dark: { '--mantine-color-dimmed': DARK_DIMMED } };
};

/** The decimal separator of a locale: "0,5" in de, ru, uk, fr, pt; "0.5" in en. */
export function decimalSeparatorOf(locale: string): string {
  try {
    return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  } catch {
    return '.';
  }
}

/**
 * @param decimal the language's decimal separator: number fields show "0,5" where the language writes it so
 * (a point typed is taken as it, Mantine's allowedDecimalSeparators)
 * @param clearLabel what a screen reader says of a field's clear button (the × of a clearable select or
 * date), in the user's language
 */
export function themeFor(skin: Skin, decimal = '.', clearLabel = 'Clear the field'): MantineThemeOverride {
  const clearable = { defaultProps: { clearButtonProps: { 'aria-label': clearLabel } } };
  const bordered = skin === 'bordered';
  return createTheme({
    primaryColor: 'indigo',
    primaryShade: { light: 8, dark: 8 },
    // Filled badges and buttons of every colour: dark text where white would fall under 4.5:1
    // (white needs a background luminance of at most 0.18; teal-8 or green-8 take dark text).
    autoContrast: true,
    luminanceThreshold: 0.18,
    defaultRadius: 'md',
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
    components: {
      NumberInput: { defaultProps: { decimalSeparator: decimal } },
      Select: clearable,
      MultiSelect: clearable,
      TagsInput: clearable,
      Autocomplete: clearable,
      DateInput: clearable,
      DatePickerInput: clearable,
      Paper: { defaultProps: { shadow: bordered ? undefined : 'sm', withBorder: bordered } },
      Card: { defaultProps: { shadow: bordered ? undefined : 'sm', withBorder: bordered } },
      // A badge (status, moderation, role...) is never cut, in any language: Mantine's label clips with an
      // ellipsis and lets a table column or flex row squeeze it to "INACTI…"; here it keeps its whole
      // width and the table scrolls sideways instead (DataTable's scroll container).
      // (a plain object, not Badge.extend: the theme is in the first-load chunk and Badge is not)
      Badge: {
        styles: {
          root: { flexShrink: 0, overflow: 'visible', maxWidth: 'none' },
          label: { overflow: 'visible', textOverflow: 'clip' },
        },
      },
    },
  });
}
