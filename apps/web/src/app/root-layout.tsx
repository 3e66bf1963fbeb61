import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { useAppAbility, useAuth } from '../lib/ability.tsx';
import { isRouteMeta, type RouteMeta, routeAccess } from '../lib/route-meta.ts';
import { useLayoutSettings } from './layout-settings.tsx';
import { FullLayout } from './layouts/full-layout.tsx';
import { PageLoader } from './page-loader.tsx';

const DashboardShell = lazy(() => import('./layouts/dashboard-shell.tsx'));
const QueryBoundary = lazy(() => import('./query-boundary.tsx'));

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

  // Full-layout pages (login, password, errors) render without the shell, which loads on demand.
  if (meta?.layout === 'full') {
    return (
      <>
        <ScrollRestoration />
        <FullLayout>
          {meta.withoutQueries ? (
            <Outlet />
          ) : (
            <Suspense fallback={<PageLoader />}>
              <QueryBoundary>
                <Outlet />
              </QueryBoundary>
            </Suspense>
          )}
        </FullLayout>
      </>
    );
  }
  return (
    <>
      <ScrollRestoration />
      <Suspense fallback={<PageLoader />}>
        <DashboardShell layout={layout}>
          <Outlet />
        </DashboardShell>
      </Suspense>
    </>
  );
}
