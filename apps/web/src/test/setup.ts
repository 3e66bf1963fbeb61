import '@testing-library/jest-dom/vitest';
import { cleanNotifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { clearCredentials } from '../lib/auth-storage.ts';
import { changeLocale, dashboardNamespaces, guestNamespaces, i18n, initI18n } from '../lib/i18n.ts';

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
