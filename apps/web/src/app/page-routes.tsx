import type { RouteObject } from 'react-router';
import { lazyPage } from '../lib/lazy-page.ts';
import type { RouteMeta } from '../lib/route-meta.ts';
import { RootRedirect } from './root-redirect.tsx';

const auth = () => import('../features/auth/index.ts');
const misc = () => import('../features/misc/index.ts');
const users = () => import('../features/users/index.ts');

export type AppRoute = RouteObject & { handle?: RouteMeta; children?: AppRoute[] };

const guestPage: RouteMeta = { resource: 'Auth', layout: 'full', guestOnly: true };
const fullPage: RouteMeta = { layout: 'full' };

/** Every page of the dashboard; `handle` carries the meta the guard, layout and menu read. */
export const pageRoutes: AppRoute[] = [
  { index: true, element: <RootRedirect />, handle: fullPage },
  { path: 'login', handle: guestPage, lazy: lazyPage(auth, 'LoginPage') },
  { path: 'register', handle: guestPage, lazy: lazyPage(auth, 'RegisterPage') },
  { path: 'forgot-password', handle: guestPage, lazy: lazyPage(auth, 'ForgotPasswordPage') },
  {
    path: 'pages/authentication/reset-password-v1',
    handle: { resource: 'Auth', layout: 'full' },
    lazy: lazyPage(auth, 'ResetPasswordV1Page'),
  },
  {
    path: 'pages/authentication/reset-password-v2',
    handle: { resource: 'Auth', layout: 'full' },
    lazy: lazyPage(auth, 'ResetPasswordV2Page'),
  },
  {
    path: 'users',
    handle: { resource: 'ACL', action: 'manage', nav: { label: 'nav.users', icon: 'users', order: 20 } },
    lazy: lazyPage(users, 'UsersListPage'),
  },
  {
    path: 'users/:userId',
    handle: {
      resource: 'User',
      nav: { label: 'nav.profile', icon: 'user', order: 10, to: ({ userId }) => `/users/${userId}` },
    },
    lazy: lazyPage(users, 'UserPage'),
  },
  { path: 'pages/miscellaneous/coming-soon', handle: fullPage, lazy: lazyPage(misc, 'ComingSoonPage') },
  { path: 'pages/miscellaneous/not-authorized', handle: fullPage, lazy: lazyPage(misc, 'NotAuthorizedPage') },
  {
    path: 'pages/miscellaneous/under-maintenance',
    handle: fullPage,
    lazy: lazyPage(misc, 'UnderMaintenancePage'),
  },
  { path: 'pages/miscellaneous/error', handle: fullPage, lazy: lazyPage(misc, 'ErrorPage') },
  { path: 'payment-success', handle: fullPage, lazy: lazyPage(misc, 'PaymentSuccessPage') },
  { path: 'payment-failed', handle: fullPage, lazy: lazyPage(misc, 'PaymentFailedPage') },
  { path: 'error-404', handle: fullPage, lazy: lazyPage(misc, 'NotFoundPage') },
  { path: '*', handle: fullPage, lazy: lazyPage(misc, 'NotFoundPage') },
];

/** Path and meta of every page, for the menu and the permission table test. */
export function flattenRoutes(
  routes: AppRoute[] = pageRoutes,
  parent = '/',
): { path: string; meta: RouteMeta }[] {
  return routes.flatMap((route) => {
    const path = route.index ? parent || '/' : route.path ? joinPath(parent, route.path) : parent;
    const own = route.handle && !route.index && route.path ? [{ path, meta: route.handle }] : [];
    return [...own, ...flattenRoutes(route.children ?? [], path)];
  });
}

function joinPath(parent: string, path: string): string {
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}
