import { lazy, Suspense, useState } from 'react';
import { LocaleButton } from './locale-button.tsx';

const LazyLocaleMenu = lazy(() => import('./locale-menu.tsx'));

/**
 * The language switcher of the full-layout pages (login, password, errors): the same button, but the
 * menu (and its popover code) loads on the first click, so the login page stays light. The dashboard
 * header, which has menus anyway, uses LocaleMenu directly.
 */
export function LocaleSwitcher() {
  const [wanted, setWanted] = useState(false);
  if (!wanted) return <LocaleButton aria-haspopup="menu" onClick={() => setWanted(true)} />;
  return (
    <Suspense fallback={<LocaleButton aria-haspopup="menu" aria-busy />}>
      <LazyLocaleMenu defaultOpened />
    </Suspense>
  );
}
