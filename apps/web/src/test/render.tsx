import { render } from '@testing-library/react';
import { type Location, MemoryRouter, type NavigateFunction, useLocation, useNavigate } from 'react-router';
import { AppProviders } from '../app/providers.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { AuthExpiredRedirect } from '../app/router.tsx';
import { AppRoutes } from '../app/routes.tsx';

/** What a test reads of the router: the current location, and a way to navigate. */
export interface TestRouter {
  state: { location: Location };
  navigate: NavigateFunction;
}

function RouterProbe({ router }: { router: TestRouter }) {
  router.state.location = useLocation();
  router.navigate = useNavigate();
  return null;
}

/** Renders the whole dashboard at `path`, as the browser would after a navigation there. */
export function renderApp(path: string) {
  const router = { state: {} } as TestRouter;
  const queryClient = createQueryClient();
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <MemoryRouter initialEntries={[path]}>
        <RouterProbe router={router} />
        <AuthExpiredRedirect getLocale={() => 'en'} />
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...view, router };
}
