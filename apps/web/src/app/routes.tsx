import type { PatchRoutesOnNavigationFunction } from 'react-router';
import { type AppRoute, guestRoutes } from './guest-routes.tsx';
import { PageLoader } from './page-loader.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

/** The id of the route whose children are the pages (patchRoutes adds the dashboard's there). */
const PAGES_ROUTE_ID = 'pages';

/** Only the guest pages are known at start; patchRoutes adds the rest (page-routes.tsx). */
export const appRoutes: AppRoute[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown while the first page's chunk loads.
    hydrateFallbackElement: <PageLoader />,
    // The pathless child keeps the shell on screen when one page fails to load.
    children: [{ id: PAGES_ROUTE_ID, errorElement: <RouteError />, children: guestRoutes }],
  },
];

let dashboardTable: Promise<AppRoute[]> | null = null;

/**
 * React Router calls this for a path the guest routes do not match (and for paths with parameters):
 * the dashboard's route table (every definition, guard meta and menu entry) downloads then, once, and
 * joins the guest routes (React Router skips routes it already has). A failed download is tried again
 * on the next navigation and meanwhile shown by RouteError.
 */
export const patchRoutes: PatchRoutesOnNavigationFunction = async ({ patch }) => {
  if (!dashboardTable) {
    dashboardTable = import('./page-routes.tsx').then(
      (module) => module.dashboardRoutes,
      (error: unknown) => {
        dashboardTable = null;
        throw error;
      },
    );
  }
  patch(PAGES_ROUTE_ID, await dashboardTable);
};
