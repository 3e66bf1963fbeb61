import { createTheme, type MantineThemeOverride } from '@mantine/core';
import type { Skin } from './layout-settings.tsx';

export function themeFor(skin: Skin): MantineThemeOverride {
  const bordered = skin === 'bordered';
  return createTheme({
    primaryColor: 'indigo',
    defaultRadius: 'md',
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
    components: {
      Paper: { defaultProps: { shadow: bordered ? undefined : 'sm', withBorder: bordered } },
      Card: { defaultProps: { shadow: bordered ? undefined : 'sm', withBorder: bordered } },
    },
  });
}
