import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { appRoutes, patchRoutes } from '../app/routes.tsx';
import { configureApiClient } from '../lib/api-client.ts';

/** Renders the whole dashboard at `path`, as the browser would after a navigation there. */
export function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, {
    initialEntries: [path],
    patchRoutesOnNavigation: patchRoutes,
  });
  configureApiClient({
    getLocale: () => 'en',
    onAuthExpired: () => {
      const { pathname, search } = router.state.location;
      void router.navigate(`/?redirect=${encodeURIComponent(`${pathname}${search}`)}`, { replace: true });
    },
  });
  const queryClient = createQueryClient();
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}
