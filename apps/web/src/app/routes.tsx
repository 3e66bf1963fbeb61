import {
  type ComponentType,
  Component as ErrorBoundaryBase,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useRef,
} from 'react';
import { matchRoutes, type RouteObject, useLocation, useRoutes } from 'react-router';
import { CHUNK_LOAD_TIMEOUT, ChunkLoadError, withTimeout } from '../lib/lazy-page.ts';
import { useMaintenanceBlocked, usePublicMaintenance } from '../lib/maintenance.ts';
import { useAuth } from '../lib/use-auth.ts';
import { type AppRoute, guestRoutes } from './guest-routes.tsx';
import { PageLoader } from './page-loader.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

let loadedTable: AppRoute[] | null = null;
let dashboardPages: ComponentType | null = null;

/**
 * The dashboard's route table (page-routes.tsx: every definition, guard meta and menu entry) downloads
 * on the first navigation to a path the guest routes do not match, once. A failed download is shown by
 * RouteError and tried again on the next navigation.
 */
function lazyDashboardPages(): ComponentType {
  dashboardPages ??= lazy(() =>
    // SPEC.md section 9: a table that has not arrived after 120 s is a failed load (the retry message)
    withTimeout(import('./page-routes.tsx'), CHUNK_LOAD_TIMEOUT).then(
      ({ pageRoutes }) => {
        loadedTable = pageRoutes;
        return { default: () => <PageRoutes routes={pageRoutes} /> };
      },
      (error: unknown) => {
        dashboardPages = null;
        throw new ChunkLoadError(error);
      },
    ),
  );
  return dashboardPages;
}

interface PageLoad {
  Page: ComponentType;
  /** Set once the chunk has arrived or failed. */
  settled: boolean;
  promise: Promise<unknown>;
}

/** One load and React.lazy component per route `lazy` function, started by the first match. */
const pageLoads = new WeakMap<NonNullable<AppRoute['lazy']>, PageLoad>();

function pageLoad(load: NonNullable<AppRoute['lazy']>): PageLoad {
  let entry = pageLoads.get(load);
  if (!entry) {
    const module = load().then((loaded) => ({ default: loaded.Component }));
    const created: PageLoad = {
      Page: lazy(() => module),
      settled: false,
      promise: module.then(
        () => {
          created.settled = true;
        },
        () => {
          created.settled = true;
        },
      ),
    };
    entry = created;
    pageLoads.set(load, entry);
  }
  return entry;
}

function RoutePage({ route }: { route: AppRoute }) {
  if (!route.lazy) return route.element ?? null;
  const { Page } = pageLoad(route.lazy);
  return <Page />;
}

interface BoundaryProps {
  /** A change (the path) clears a shown error: the next navigation tries again. */
  resetKey: string;
  children: ReactNode;
}

/** Shows RouteError (the chunk-load retry message or the generic error) for what fails below it. */
export class RouteErrorBoundary extends ErrorBoundaryBase<BoundaryProps, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

function toRouteObjects(routes: AppRoute[], resetKey: string): RouteObject[] {
  return routes.map((route) =>
    route.index
      ? { index: true, element: <RoutePage route={route} /> }
      : {
          path: route.path,
          element: (
            <RouteErrorBoundary resetKey={resetKey}>
              <Suspense fallback={<PageLoader />}>
                <RoutePage route={route} />
              </Suspense>
            </RouteErrorBoundary>
          ),
        },
  );
}

/** The deepest matched route's meta decides: it describes the page actually shown. */
function matchedPage(routes: AppRoute[], pathname: string) {
  const matches = matchRoutes(routes as RouteObject[], pathname) ?? [];
  return matches.length > 0 ? (matches[matches.length - 1]?.route as AppRoute) : undefined;
}

function PageRoutes({ routes }: { routes: AppRoute[] }) {
  const { pathname } = useLocation();
  const page = matchedPage(routes, pathname);
  // As a data router would: the page's chunk loads before the layout and the guard render, so the
  // guard's and the page's first requests leave together.
  const load = page?.lazy ? pageLoad(page.lazy) : undefined;
  // The shell stays on screen when one page fails: each page has its own boundary (toRouteObjects).
  const element = useRoutes([
    { path: '/', element: <RootLayout meta={page?.handle} />, children: toRouteObjects(routes, pathname) },
  ]);
  if (load && !load.settled) throw load.promise;
  return element;
}

const MaintenanceScreen = lazy(() => import('./maintenance-screen.tsx'));

/**
 * The maintenance switch: a visitor the API answered 503 `maintenance` (a non-admin), or one without a
 * session while the switch is on, sees the under-maintenance page on every route. Only the admin sign-in
 * (`/login?admin=1`, offered by that page) and the static pages of /pages/miscellaneous stay open.
 */
function useMaintenanceShown(pathname: string, search: string): boolean {
  const blocked = useMaintenanceBlocked();
  const anonymous = !useAuth().accessToken;
  const publicOn = usePublicMaintenance(anonymous && !blocked);
  if (blocked) return true;
  if (!anonymous || publicOn !== true) return false;
  if (pathname.startsWith('/pages/miscellaneous/')) return false;
  return !(pathname === '/login' && new URLSearchParams(search).get('admin') === '1');
}

const isGuestPath = (pathname: string) => matchRoutes(guestRoutes as RouteObject[], pathname) !== null;

/**
 * Every page of the dashboard. Only the guest pages are known at start; the rest come with the
 * dashboard's route table (page-routes.tsx), which loads on the first path the guest pages do not match.
 */
export function AppRoutes() {
  const { pathname, search } = useLocation();
  const maintenance = useMaintenanceShown(pathname, search);
  // SPEC: the scroll resets to the top on navigation (to another path).
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);
  let routes: ReactNode;
  if (maintenance) routes = <MaintenanceScreen />;
  else if (!loadedTable && isGuestPath(pathname)) routes = <PageRoutes routes={guestRoutes} />;
  else {
    // once loaded, the same (resolved) component: the shell is not mounted again
    const DashboardPages = lazyDashboardPages();
    routes = <DashboardPages />;
  }
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageLoader />}>{routes}</Suspense>
    </RouteErrorBoundary>
  );
}
