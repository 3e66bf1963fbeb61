import '@testing-library/jest-dom/vitest';
import { cleanNotifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { clearCredentials } from '../lib/auth-storage.ts';
import {
  changeLocale,
  dashboardNamespaces,
  guestNamespaces,
  i18n,
  initI18n,
  setLocaleLoader,
} from '../lib/i18n.ts';

// The app fetches the locale files from the build (vite.config.ts, localesPlugin); tests import them.
const localeFiles = import.meta.glob<{ default: Record<string, unknown> }>(
  '../../../../packages/i18n/locales/*/*.json',
);
setLocaleLoader(async (lng, ns) => {
  const load = localeFiles[`../../../../packages/i18n/locales/${lng}/${ns}.json`];
  if (!load) throw new Error(`no locale file ${lng}/${ns}`);
  return (await load()).default;
});

// Lazy page chunks load through the whole app; on a busy machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs that jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.scrollTo = () => {};
Element.prototype.scrollIntoView = () => {};
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

beforeAll(async () => {
  await initI18n('en');
  // Pages rendered outside the router get every namespace their routes would have loaded.
  await i18n.loadNamespaces([...guestNamespaces, ...dashboardNamespaces]);
  await i18n.loadLanguages(['en', 'ru']);
});

afterEach(async () => {
  cleanup();
  cleanNotifications();
  clearCredentials();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  if (i18n.language !== 'en') await changeLocale('en');
  localStorage.clear();
  clearCredentials();
});
