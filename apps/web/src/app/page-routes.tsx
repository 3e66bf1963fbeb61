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
const notFound: RouteMeta = { layout: 'full', title: 'common:misc.not_found_title' };

/** Every page of the dashboard; `handle` carries the meta the guard, layout and menu read. */
export const pageRoutes: AppRoute[] = [
  { index: true, element: <RootRedirect />, handle: fullPage },
  { path: 'login', handle: { ...guestPage, title: 'auth:login.submit' }, lazy: lazyPage(auth, 'LoginPage') },
  {
    path: 'register',
    handle: { ...guestPage, title: 'auth:register.title' },
    lazy: lazyPage(auth, 'RegisterPage'),
  },
  {
    path: 'forgot-password',
    handle: { ...guestPage, title: 'auth:forgot.title' },
    lazy: lazyPage(auth, 'ForgotPasswordPage'),
  },
  {
    path: 'pages/authentication/reset-password-v1',
    handle: { resource: 'Auth', layout: 'full', title: 'auth:reset.title' },
    lazy: lazyPage(auth, 'ResetPasswordV1Page'),
  },
  {
    path: 'pages/authentication/reset-password-v2',
    handle: { resource: 'Auth', layout: 'full', title: 'auth:reset.title' },
    lazy: lazyPage(auth, 'ResetPasswordV2Page'),
  },
  {
    path: 'users',
    handle: {
      resource: 'ACL',
      action: 'manage',
      title: 'common:nav.users',
      nav: { label: 'nav.users', icon: 'users', order: 20 },
    },
    lazy: lazyPage(users, 'UsersListPage'),
  },
  {
    path: 'users/:userId',
    handle: {
      resource: 'User',
      title: 'common:nav.profile',
      nav: { label: 'nav.profile', icon: 'user', order: 10, to: ({ userId }) => `/users/${userId}` },
    },
    lazy: lazyPage(users, 'UserPage'),
  },
  {
    path: 'pages/miscellaneous/coming-soon',
    handle: { ...fullPage, title: 'common:misc.coming_soon_title' },
    lazy: lazyPage(misc, 'ComingSoonPage'),
  },
  {
    path: 'pages/miscellaneous/not-authorized',
    handle: { ...fullPage, title: 'common:misc.not_authorized_title' },
    lazy: lazyPage(misc, 'NotAuthorizedPage'),
  },
  {
    path: 'pages/miscellaneous/under-maintenance',
    handle: { ...fullPage, title: 'common:misc.maintenance_title' },
    lazy: lazyPage(misc, 'UnderMaintenancePage'),
  },
  {
    path: 'pages/miscellaneous/error',
    handle: { ...fullPage, title: 'common:misc.error_title' },
    lazy: lazyPage(misc, 'ErrorPage'),
  },
  {
    path: 'payment-success',
    handle: { ...fullPage, title: 'common:misc.payment_success_title' },
    lazy: lazyPage(misc, 'PaymentSuccessPage'),
  },
  {
    path: 'payment-failed',
    handle: { ...fullPage, title: 'common:misc.payment_failed_title' },
    lazy: lazyPage(misc, 'PaymentFailedPage'),
  },
  { path: 'error-404', handle: notFound, lazy: lazyPage(misc, 'NotFoundPage') },
  { path: '*', handle: notFound, lazy: lazyPage(misc, 'NotFoundPage') },
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
