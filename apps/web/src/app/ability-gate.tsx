import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { AbilityProvider, useAppAbility } from '../lib/ability.tsx';
import { type RouteMeta, routeAccess } from '../lib/route-meta.ts';

export const NOT_AUTHORIZED_PATH = '/pages/miscellaneous/not-authorized';

function Access({ meta, loggedIn, here, children }: GateProps) {
  const access = routeAccess(meta, useAppAbility(), loggedIn);
  if (access === 'login') return <Navigate to={`/login?redirect=${encodeURIComponent(here)}`} replace />;
  if (access === 'not-authorized') return <Navigate to={NOT_AUTHORIZED_PATH} replace />;
  return children;
}

interface GateProps {
  meta: RouteMeta | undefined;
  loggedIn: boolean;
  /** The current path and query, kept as `redirect` when the visitor has to log in. */
  here: string;
  children: ReactNode;
}

/**
 * The permission guard (SPEC.md section 5) and the CASL ability for the page and the shell. Loaded
 * lazily by root-layout.tsx with every page but the guest ones, so /login opens without CASL.
 */
export default function AbilityGate(props: GateProps) {
  return (
    <AbilityProvider>
      <Access {...props} />
    </AbilityProvider>
  );
}
