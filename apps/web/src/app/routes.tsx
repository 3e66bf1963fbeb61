import { PageLoader } from './page-loader.tsx';
import { type AppRoute, pageRoutes } from './page-routes.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

export const appRoutes: AppRoute[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown while the first page's chunk loads.
    hydrateFallbackElement: <PageLoader />,
    // The pathless child keeps the shell on screen when one page fails to load.
    children: [{ errorElement: <RouteError />, children: pageRoutes }],
  },
];
