import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useContext, useState } from 'react';
import { createQueryClient } from './query-client.ts';

let shared: ReturnType<typeof createQueryClient> | null = null;

/** One client for the app's lifetime, whichever boundary mounts first. */
function sharedClient() {
  if (!shared) shared = createQueryClient();
  return shared;
}

/**
 * Gives the pages TanStack Query. The login and password pages do without it, so the client (and
 * query-core) loads with the dashboard shell or the first page that needs it, not with /login. A client
 * passed to AppProviders (tests) is used as it is.
 */
export default function QueryBoundary({ children }: { children: ReactNode }) {
  const given = useContext(QueryClientContext);
  const [client] = useState(() => given ?? sharedClient());
  if (given) return children;
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
