import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { usePageTitleText } from '../lib/page-title.ts';
import type { RouteMeta } from '../lib/route-meta.ts';
import { useAuth } from '../lib/use-auth.ts';
import { type LayoutType, useLayoutSettings } from './layout-settings.tsx';
import { FullLayout } from './layouts/full-layout.tsx';
import { PageLoader } from './page-loader.tsx';

const DashboardShell = lazy(() => import('./layouts/dashboard-shell.tsx'));
const QueryBoundary = lazy(() => import('./query-boundary.tsx'));
const AbilityGate = lazy(() => import('./ability-gate.tsx'));

/** Guard + layout choice for every page; `meta` is the matched route's (routes.tsx). */
export function RootLayout({ meta }: { meta: RouteMeta | undefined }) {
  const auth = useAuth();
  const location = useLocation();
  const { layout } = useLayoutSettings();
  const loggedIn = Boolean(auth.accessToken);
  const here = `${location.pathname}${location.search}`;
  const { t } = useTranslation();
  // the page's own title (lib/page-title.ts: "Anna Petrova · Account") or else the route's
  const own = usePageTitleText();
  const title = meta?.title;
  useEffect(() => {
    const app = t('common:app_name');
    const text = own ?? (title ? t(title) : undefined);
    document.title = text ? `${text} · ${app}` : app;
  }, [own, title, t]);

  if (meta?.guestOnly && loggedIn && auth.userId) return <Navigate to={`/users/${auth.userId}`} replace />;
  // The root redirect, and the login and password pages for a visitor without a session (who may read
  // Auth, defineRulesFor(null)), open without the permission guard and CASL; every other page waits for
  // ability-gate.tsx, which checks the route's resource and action and gives the page and shell the ability.
  const guest = meta?.withoutQueries && (!meta.resource || (meta.guestOnly && !loggedIn));
  const page = guest ? (
    <PageContent meta={meta} layout={layout} />
  ) : (
    <Suspense fallback={<PageLoader />}>
      <AbilityGate meta={meta} loggedIn={loggedIn} here={here}>
        {<PageContent meta={meta} layout={layout} />}
      </AbilityGate>
    </Suspense>
  );
  return page;
}

/** Full-layout pages (login, password, errors) render without the shell, which loads on demand. */
function PageContent({ meta, layout }: { meta: RouteMeta | undefined; layout: LayoutType }) {
  if (meta?.layout === 'full') {
    return (
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
    );
  }
  return (
    <Suspense fallback={<PageLoader />}>
      <DashboardShell layout={layout}>
        <Outlet />
      </DashboardShell>
    </Suspense>
  );
}
