import type { Action, AppAbility, Subject } from '@adp/permissions';

/** What a route says about itself in `handle`; the guard, the layout and the menu read it. */
export interface RouteMeta {
  resource?: Subject;
  /** Defaults to read. */
  action?: Action;
  /** 'full' renders the page without the app shell. */
  layout?: 'full';
  /** Login and password pages: a logged-in user is sent to their own page. */
  guestOnly?: boolean;
  nav?: NavMeta;
  /** Translation key (with namespace) of the document title. */
  title?: string;
  /**
   * A full-layout page that uses no TanStack Query (login, password pages, the root redirect): it opens
   * without downloading the query client.
   */
  withoutQueries?: boolean;
}

export interface NavMeta {
  /** Key in the `common` namespace. */
  label: string;
  icon:
    | 'user'
    | 'users'
    | 'rtbpartners'
    | 'transactions'
    | 'referrals'
    | 'withdrawals'
    | 'agencies'
    | 'currencies'
    | 'reports'
    | 'system'
    | 'sites'
    | 'moderation'
    | 'campaigns'
    | 'pixels'
    | 'landings'
    | 'statistics'
    | 'sources'
    | 'decode'
    | 'faq'
    | 'contacts'
    | 'adsense'
    | 'notifications';
  order: number;
  /** Builds the link from the route path, e.g. to fill in the logged-in user's id. */
  to?: (ctx: { userId: string }) => string;
}

export type Access = 'allow' | 'login' | 'not-authorized';

/**
 * SPEC.md section 5: a page is allowed when the ability permits the route's action (default read) on
 * its resource; routes without a resource are public.
 */
export function routeAccess(meta: RouteMeta | undefined, ability: AppAbility, loggedIn: boolean): Access {
  if (!meta?.resource) return 'allow';
  if (ability.can(meta.action ?? 'read', meta.resource)) return 'allow';
  return loggedIn ? 'not-authorized' : 'login';
}
