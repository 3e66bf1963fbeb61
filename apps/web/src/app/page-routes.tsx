import type { RouteObject } from 'react-router';
import { lazyPage } from '../lib/lazy-page.ts';
import type { RouteMeta } from '../lib/route-meta.ts';
import { RootRedirect } from './root-redirect.tsx';

const auth = () => import('../features/auth/index.ts');
const misc = () => import('../features/misc/index.ts');
const users = () => import('../features/users/index.ts');
const sites = () => import('../features/sites/index.ts');
const widgets = () => import('../features/widgets/index.ts');
const promotions = () => import('../features/promotions/index.ts');
const social = () => import('../features/social/index.ts');
const moderation = () => import('../features/moderation/index.ts');

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
  // issue 4: publisher inventory
  {
    path: 'sites',
    handle: { resource: 'ACL', action: 'manage', title: 'common:publisher.sites', nav: { label: 'publisher.sites', icon: 'sites', order: 22 } },
    lazy: lazyPage(sites, 'SitesListPage'),
  },
  {
    path: 'users/:userId/sites',
    handle: { resource: 'Site', title: 'common:publisher.my_sites', nav: { label: 'publisher.my_sites', icon: 'sites', order: 15, to: ({ userId }) => `/users/${userId}/sites` } },
    lazy: lazyPage(sites, 'SitesListPage'),
  },
  {
    path: 'sites/create',
    handle: { resource: 'Site', action: 'create', title: 'common:publisher.site_create' },
    lazy: lazyPage(sites, 'SiteCreatePage'),
  },
  {
    path: 'sites/v2/:siteId',
    handle: { resource: 'Site', title: 'common:publisher.site' },
    lazy: lazyPage(sites, 'SiteV2Page'),
  },
  {
    path: 'sites/:siteId',
    handle: { resource: 'Site', title: 'common:publisher.site' },
    lazy: lazyPage(sites, 'SitePage'),
  },
  {
    path: 'sites/:siteId/edit',
    handle: { resource: 'Site', action: 'update', title: 'common:publisher.site_edit' },
    lazy: lazyPage(sites, 'SiteEditPage'),
  },
  {
    path: 'sites/:siteId/widgets',
    handle: { resource: 'Widget', title: 'common:publisher.widgets' },
    lazy: lazyPage(widgets, 'SiteWidgetsPage'),
  },
  {
    path: 'sites/:siteId/widgets/create',
    handle: { resource: 'Widget', action: 'create', title: 'common:publisher.widget_create' },
    lazy: lazyPage(widgets, 'WidgetCreatePage'),
  },
  {
    path: 'widgets/create',
    handle: { resource: 'Widget', action: 'create', title: 'common:publisher.widget_create' },
    lazy: lazyPage(widgets, 'WidgetCreatePage'),
  },
  {
    path: 'widgets/:widgetId',
    handle: { resource: 'Widget', title: 'common:publisher.widget' },
    lazy: lazyPage(widgets, 'WidgetPage'),
  },
  {
    path: 'widgets/:widgetId/edit',
    handle: { resource: 'Widget', action: 'update', title: 'common:publisher.widget_edit' },
    lazy: lazyPage(widgets, 'WidgetEditPage'),
  },
  {
    path: 'sites/:siteId/promotions',
    handle: { resource: 'Promotion', title: 'common:publisher.promotions' },
    lazy: lazyPage(promotions, 'SitePromotionsPage'),
  },
  {
    path: 'promotions/create',
    handle: { resource: 'Promotion', action: 'create', title: 'common:publisher.promotion_create' },
    lazy: lazyPage(promotions, 'PromotionCreatePage'),
  },
  {
    path: 'promotions/:promotionId',
    handle: { resource: 'Promotion', title: 'common:publisher.promotion' },
    lazy: lazyPage(promotions, 'PromotionViewPage'),
  },
  {
    path: 'promotions/:promotionId/edit',
    handle: { resource: 'Promotion', action: 'update', title: 'common:publisher.promotion_edit' },
    lazy: lazyPage(promotions, 'PromotionEditPage'),
  },
  {
    path: 'promotions/:promotionId/pages/create',
    handle: { resource: 'PromotionPage', action: 'create', title: 'common:publisher.promotion_page_create' },
    lazy: lazyPage(promotions, 'PromotionPageCreatePage'),
  },
  {
    path: 'promotions/:promotionId/pages/:promotionpageId',
    handle: { resource: 'PromotionPage', title: 'common:publisher.promotion_page' },
    lazy: lazyPage(promotions, 'PromotionPageViewPage'),
  },
  {
    path: 'promotions/:promotionId/pages/:promotionpageId/edit',
    handle: { resource: 'PromotionPage', action: 'update', title: 'common:publisher.promotion_page_edit' },
    lazy: lazyPage(promotions, 'PromotionPageEditPage'),
  },
  {
    path: 'sites/:siteId/social',
    handle: { resource: 'SocialGroup', title: 'common:publisher.social' },
    lazy: lazyPage(social, 'SiteSocialGroupsPage'),
  },
  {
    path: 'social/create',
    handle: { resource: 'SocialGroup', action: 'create', title: 'common:publisher.social_create' },
    lazy: lazyPage(social, 'SocialGroupCreatePage'),
  },
  {
    path: 'social/:groupId/edit',
    handle: { resource: 'SocialGroup', action: 'update', title: 'common:publisher.social_edit' },
    lazy: lazyPage(social, 'SocialGroupEditPage'),
  },
  {
    path: 'moderation',
    handle: { resource: 'Moderation', action: 'update', title: 'common:publisher.moderation', nav: { label: 'publisher.moderation', icon: 'moderation', order: 24 } },
    lazy: lazyPage(moderation, 'ModerationPage'),
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
