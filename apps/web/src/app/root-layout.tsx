import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { useAppAbility, useAuth } from '../lib/ability.tsx';
import { isRouteMeta, type RouteMeta, routeAccess } from '../lib/route-meta.ts';
import { useLayoutSettings } from './layout-settings.tsx';
import { Customizer } from './layouts/customizer.tsx';
import { FullLayout } from './layouts/full-layout.tsx';
import { HorizontalLayout } from './layouts/horizontal-layout.tsx';
import { ScrollToTop } from './layouts/scroll-to-top.tsx';
import { VerticalLayout } from './layouts/vertical-layout.tsx';

export const NOT_AUTHORIZED_PATH = '/pages/miscellaneous/not-authorized';

/** The deepest route's meta decides: child routes describe the page actually shown. */
function useRouteMeta(): RouteMeta | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle;
    if (isRouteMeta(handle)) return handle;
  }
  return undefined;
}

/** Guard + layout choice for every page. */
export function RootLayout() {
  const meta = useRouteMeta();
  const auth = useAuth();
  const ability = useAppAbility();
  const location = useLocation();
  const { layout } = useLayoutSettings();
  const loggedIn = Boolean(auth.accessToken);
  const here = `${location.pathname}${location.search}`;
  const { t } = useTranslation();
  const title = meta?.title;
  useEffect(() => {
    const app = t('common:app_name');
    document.title = title ? `${t(title)} · ${app}` : app;
  }, [title, t]);

  if (meta?.guestOnly && loggedIn && auth.userId) return <Navigate to={`/users/${auth.userId}`} replace />;
  const access = routeAccess(meta, ability, loggedIn);
  if (access === 'login') return <Navigate to={`/login?redirect=${encodeURIComponent(here)}`} replace />;
  if (access === 'not-authorized') return <Navigate to={NOT_AUTHORIZED_PATH} replace />;

  const full = meta?.layout === 'full';
  const Layout = full ? FullLayout : layout === 'horizontal' ? HorizontalLayout : VerticalLayout;
  return (
    <>
      <ScrollRestoration />
      <Layout>
        <Outlet />
      </Layout>
      {full ? null : <Customizer />}
      <ScrollToTop />
    </>
  );
}
