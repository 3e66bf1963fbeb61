import type { ComponentType, ReactNode } from 'react';
import { guestNamespaces, loadNamespaces } from '../lib/i18n.ts';
import { lazyPage } from '../lib/lazy-page.ts';
import type { RouteMeta } from '../lib/route-meta.ts';
import { RootRedirect } from './root-redirect.tsx';

/** A guest page loads with its four namespaces; its styles are the first screen's (base-styles.ts). */
function lazyGuest<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return lazyPage(async () => (await Promise.all([load(), loadNamespaces(guestNamespaces)]))[0], name);
}

/** A page: its path, its meta (guard, layout, title, menu) and its element or lazily loaded component. */
export interface AppRoute {
  path?: string;
  index?: boolean;
  handle?: RouteMeta;
  element?: ReactNode;
  lazy?: () => Promise<{ Component: ComponentType }>;
  children?: AppRoute[];
}

const guestPage: RouteMeta = { resource: 'Auth', layout: 'full', guestOnly: true, withoutQueries: true };

/**
 * The routes the entry chunk knows: the root redirect and the guest pages. Every other route
 * (page-routes.tsx) is added by routes.tsx's patchRoutesOnNavigation on the first navigation to it.
 */
export const guestRoutes: AppRoute[] = [
  { index: true, element: <RootRedirect />, handle: { layout: 'full', withoutQueries: true } },
  {
    path: 'login',
    handle: { ...guestPage, title: 'auth:login.submit' },
    lazy: lazyGuest(() => import('../features/auth/login-page.tsx'), 'LoginPage'),
  },
  {
    path: 'register',
    handle: { ...guestPage, title: 'auth:register.title' },
    lazy: lazyGuest(() => import('../features/auth/register-page.tsx'), 'RegisterPage'),
  },
  {
    path: 'forgot-password',
    handle: { ...guestPage, title: 'auth:forgot.title' },
    lazy: lazyGuest(() => import('../features/auth/forgot-password-page.tsx'), 'ForgotPasswordPage'),
  },
];
