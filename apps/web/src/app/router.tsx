import { createBrowserRouter } from 'react-router';
import { configureApiClient } from '../lib/api-client.ts';
import { currentLocale } from '../lib/i18n.ts';
import { appRoutes, patchRoutes } from './routes.tsx';

export function createAppRouter() {
  const router = createBrowserRouter(appRoutes, { patchRoutesOnNavigation: patchRoutes });
  configureApiClient({
    getLocale: currentLocale,
    onAuthExpired: () => {
      const { pathname, search } = router.state.location;
      void router.navigate(`/?redirect=${encodeURIComponent(`${pathname}${search}`)}`, { replace: true });
    },
  });
  return router;
}
