import { useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { configureApiClient } from '../lib/api-client.ts';

/**
 * Rendered inside the router, before the pages: an expired session (lib/api-client.ts) sends the
 * visitor to `/` with the current page as `redirect`. Configured during render, so before any
 * request the pages' effects make.
 */
export function AuthExpiredRedirect({ getLocale }: { getLocale: () => string }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const latest = useRef({ navigate, here: '' });
  latest.current = { navigate, here: `${pathname}${search}` };
  useState(() =>
    configureApiClient({
      getLocale,
      onAuthExpired: () => {
        const { navigate: go, here } = latest.current;
        void go(`/?redirect=${encodeURIComponent(here)}`, { replace: true });
      },
    }),
  );
  return null;
}
