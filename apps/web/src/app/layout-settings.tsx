import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export const layouts = ['vertical', 'horizontal'] as const;
export const skins = ['light', 'dark', 'bordered', 'semi-dark'] as const;
export const contentWidths = ['full', 'boxed'] as const;

export type LayoutType = (typeof layouts)[number];
export type Skin = (typeof skins)[number];
export type ContentWidth = (typeof contentWidths)[number];

export interface LayoutSettings {
  layout: LayoutType;
  skin: Skin;
  contentWidth: ContentWidth;
}

export const layoutStorageKeys = { layout: 'layout', skin: 'skin', contentWidth: 'content_width' } as const;

export const defaultLayoutSettings: LayoutSettings = {
  layout: 'vertical',
  skin: 'light',
  contentWidth: 'full',
};

function pick<T extends string>(allowed: readonly T[], value: string | null, fallback: T): T {
  return allowed.find((item) => item === value) ?? fallback;
}

export function readLayoutSettings(): LayoutSettings {
  const get = (key: string) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  return {
    layout: pick(layouts, get(layoutStorageKeys.layout), defaultLayoutSettings.layout),
    skin: pick(skins, get(layoutStorageKeys.skin), defaultLayoutSettings.skin),
    contentWidth: pick(
      contentWidths,
      get(layoutStorageKeys.contentWidth),
      defaultLayoutSettings.contentWidth,
    ),
  };
}

interface LayoutSettingsContextValue extends LayoutSettings {
  update: (patch: Partial<LayoutSettings>) => void;
  /** Lives here, not in a layout, so switching the layout does not close the customizer. */
  customizerOpened: boolean;
  setCustomizerOpened: (opened: boolean) => void;
}

const LayoutSettingsContext = createContext<LayoutSettingsContextValue | null>(null);

export function LayoutSettingsProvider({ children }: { children: (settings: LayoutSettings) => ReactNode }) {
  const [settings, setSettings] = useState(readLayoutSettings);
  const [customizerOpened, setCustomizerOpened] = useState(false);
  const update = useCallback((patch: Partial<LayoutSettings>) => {
    setSettings((previous) => {
      const next = { ...previous, ...patch };
      localStorage.setItem(layoutStorageKeys.layout, next.layout);
      localStorage.setItem(layoutStorageKeys.skin, next.skin);
      localStorage.setItem(layoutStorageKeys.contentWidth, next.contentWidth);
      return next;
    });
  }, []);
  const value = useMemo(
    () => ({ ...settings, update, customizerOpened, setCustomizerOpened }),
    [settings, update, customizerOpened],
  );
  return <LayoutSettingsContext.Provider value={value}>{children(settings)}</LayoutSettingsContext.Provider>;
}

export function useLayoutSettings(): LayoutSettingsContextValue {
  const value = useContext(LayoutSettingsContext);
  if (!value) throw new Error('useLayoutSettings needs LayoutSettingsProvider');
  return value;
}

/** Semi-dark skin: the navigation alone is drawn with Mantine's dark component styles. */
export function useNavigationScheme(): { 'data-mantine-color-scheme'?: 'dark' } {
  const { skin } = useLayoutSettings();
  return skin === 'semi-dark' ? { 'data-mantine-color-scheme': 'dark' } : {};
}
