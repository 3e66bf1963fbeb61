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
const payments = () => import('../features/payments/index.ts');
const withdrawals = () => import('../features/withdrawals/index.ts');
const system = () => import('../features/system/index.ts');
const currencies = () => import('../features/currencies/index.ts');
const agencies = () => import('../features/agencies/index.ts');
const campaigns = () => import('../features/campaigns/index.ts');
const banners = () => import('../features/banners/index.ts');
const pixels = () => import('../features/pixels/index.ts');
const landings = () => import('../features/landings/index.ts');

export type AppRoute = RouteObject & { handle?: RouteMeta; children?: AppRoute[] };

const guestPage: RouteMeta = { resource: 'Auth', layout: 'full', guestOnly: true };
const fullPage: RouteMeta = { layout: 'full' };
const notFound: RouteMeta = { layout: 'full', title: 'common:misc.not_found_title' };
const admin: RouteMeta = { resource: 'ACL', action: 'manage' };
const userPage: RouteMeta = { resource: 'User' };
const agencyPage: RouteMeta = { resource: 'Agency' };

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
    handle: { ...admin, title: 'common:nav.users', nav: { label: 'nav.users', icon: 'users', order: 20 } },
    lazy: lazyPage(users, 'UsersListPage'),
  },
  {
    path: 'users/:userId',
    handle: {
      ...userPage,
      title: 'common:nav.profile',
      nav: { label: 'nav.profile', icon: 'user', order: 10, to: ({ userId }) => `/users/${userId}` },
    },
    lazy: lazyPage(users, 'UserPage'),
  },
  {
    // SPEC.md section 6: editing a profile needs read on ACL.
    path: 'users/:userId/edit',
    handle: { resource: 'ACL', title: 'users:edit.title' },
    lazy: lazyPage(users, 'UserEditPage'),
  },
  {
    path: 'users/:userId/payments',
    handle: { ...userPage, title: 'users:payments.title' },
    lazy: lazyPage(users, 'UserPaymentsPage'),
  },
  {
    path: 'users/:userId/transaction',
    handle: {
      ...userPage,
      title: 'users:transactions.title',
      nav: {
        label: 'nav.transactions',
        icon: 'transactions',
        order: 12,
        to: ({ userId }) => `/users/${userId}/transaction`,
      },
    },
    lazy: lazyPage(users, 'UserTransactionsPage'),
  },
  { path: 'users/:userId/pay', handle: userPage, lazy: lazyPage(users, 'UserPayRedirect') },
  {
    path: 'users/:userId/referrals',
    handle: {
      ...userPage,
      title: 'users:referrals.title',
      nav: {
        label: 'nav.referrals',
        icon: 'referrals',
        order: 14,
        to: ({ userId }) => `/users/${userId}/referrals`,
      },
    },
    lazy: lazyPage(users, 'ReferralsPage'),
  },
  {
    path: 'users/:userId/topup',
    handle: { resource: 'TopUp', action: 'create', title: 'billing:topup.title' },
    lazy: lazyPage(payments, 'TopupPage'),
  },
  {
    path: 'users/:userId/withdrawals',
    handle: { ...userPage, title: 'billing:withdrawals.title' },
    lazy: lazyPage(withdrawals, 'UserWithdrawalsPage'),
  },
  {
    path: 'users/:userId/agencies',
    handle: { ...agencyPage, title: 'agencies:user_title' },
    lazy: lazyPage(agencies, 'UserAgenciesPage'),
  },
  {
    path: 'withdrawals',
    handle: {
      ...admin,
      title: 'billing:withdrawals.queue_title',
      nav: { label: 'nav.withdrawals', icon: 'withdrawals', order: 30 },
    },
    lazy: lazyPage(withdrawals, 'WithdrawalsQueuePage'),
  },
  {
    path: 'agencies',
    handle: {
      ...agencyPage,
      title: 'agencies:title',
      nav: { label: 'nav.agencies', icon: 'agencies', order: 40 },
    },
    lazy: lazyPage(agencies, 'AgenciesPage'),
  },
  {
    path: 'agencies/create',
    handle: { resource: 'Agency', action: 'create', title: 'agencies:create_title' },
    lazy: lazyPage(agencies, 'AgencyCreatePage'),
  },
  {
    path: 'agencies/:id',
    handle: { ...agencyPage, title: 'agencies:title' },
    lazy: lazyPage(agencies, 'AgencyPage'),
  },
  {
    path: 'agencies/:id/edit',
    handle: { resource: 'Agency', action: 'update', title: 'agencies:edit_title' },
    lazy: lazyPage(agencies, 'AgencyEditPage'),
  },
  {
    path: 'agencies/:id/create',
    handle: { resource: 'Agency', action: 'update', title: 'agencies:members.create_title' },
    lazy: lazyPage(agencies, 'MemberCreatePage'),
  },
  {
    path: 'agencies/:id/:memberId/edit',
    handle: { resource: 'Agency', action: 'update', title: 'agencies:members.edit_title' },
    lazy: lazyPage(agencies, 'MemberEditPage'),
  },
  {
    path: 'currencies',
    handle: {
      ...admin,
      title: 'currencies:title',
      nav: { label: 'nav.currencies', icon: 'currencies', order: 50 },
    },
    lazy: lazyPage(currencies, 'CurrenciesPage'),
  },
  {
    path: 'system',
    handle: {
      ...admin,
      title: 'billing:system.title',
      nav: { label: 'nav.system', icon: 'system', order: 60 },
    },
    lazy: lazyPage(system, 'SystemPage'),
  },
  // issue 4: publisher inventory
  {
    path: 'sites',
    handle: {
      resource: 'ACL',
      action: 'manage',
      title: 'common:publisher.sites',
      nav: { label: 'publisher.sites', icon: 'sites', order: 22 },
    },
    lazy: lazyPage(sites, 'SitesListPage'),
  },
  {
    path: 'users/:userId/sites',
    handle: {
      resource: 'Site',
      title: 'common:publisher.my_sites',
      nav: {
        label: 'publisher.my_sites',
        icon: 'sites',
        order: 15,
        to: ({ userId }) => `/users/${userId}/sites`,
      },
    },
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
    handle: {
      resource: 'Moderation',
      action: 'update',
      title: 'common:publisher.moderation',
      nav: { label: 'publisher.moderation', icon: 'moderation', order: 24 },
    },
    lazy: lazyPage(moderation, 'ModerationPage'),
  },
  // Issue 5: advertiser inventory (campaigns, creatives, pixels, landings)
  {
    path: 'campaigns',
    handle: {
      ...admin,
      title: 'campaigns:list.title',
      nav: { label: 'advertiser.all_campaigns', icon: 'campaigns', order: 26 },
    },
    lazy: lazyPage(campaigns, 'CampaignsListPage'),
  },
  {
    path: 'users/:userId/campaigns',
    handle: {
      resource: 'Campaign',
      title: 'campaigns:list.my_title',
      nav: {
        label: 'advertiser.campaigns',
        icon: 'campaigns',
        order: 16,
        to: ({ userId }) => `/users/${userId}/campaigns`,
      },
    },
    lazy: lazyPage(campaigns, 'CampaignsListPage'),
  },
  {
    path: 'users/:userId/campaigns/create',
    handle: { resource: 'Campaign', action: 'create', title: 'campaigns:form.create_title' },
    lazy: lazyPage(campaigns, 'CampaignCreatePage'),
  },
  {
    path: 'users/:userId/campaigns/:id',
    handle: { resource: 'Campaign', title: 'campaigns:view.title' },
    lazy: lazyPage(campaigns, 'CampaignPage'),
  },
  {
    path: 'users/:userId/campaigns/v2/:id',
    handle: { resource: 'Campaign', title: 'campaigns:view.title' },
    lazy: lazyPage(campaigns, 'CampaignPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/edit',
    handle: { resource: 'Campaign', action: 'update', title: 'campaigns:form.edit_page_title' },
    lazy: lazyPage(campaigns, 'CampaignEditPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/payments',
    handle: { resource: 'Campaign', title: 'campaigns:payments.title' },
    lazy: lazyPage(campaigns, 'CampaignPaymentsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives',
    handle: { resource: 'Banner', title: 'banners:list.title' },
    lazy: lazyPage(banners, 'BannersListPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/create',
    handle: { resource: 'Banner', action: 'create', title: 'banners:form.create_title' },
    lazy: lazyPage(banners, 'BannerCreatePage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId',
    handle: { resource: 'Banner', title: 'banners:view.title' },
    lazy: lazyPage(banners, 'BannerPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/edit',
    handle: { resource: 'Banner', action: 'update', title: 'banners:form.edit_page_title' },
    lazy: lazyPage(banners, 'BannerEditPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/create',
    handle: { resource: 'Banner', action: 'create', title: 'banners:form.create_title' },
    lazy: lazyPage(banners, 'BannerCreatePage'),
  },
  {
    path: 'pixels',
    handle: {
      ...admin,
      title: 'pixels:list.title',
      nav: { label: 'advertiser.all_pixels', icon: 'pixels', order: 27 },
    },
    lazy: lazyPage(pixels, 'PixelsListPage'),
  },
  {
    path: 'users/:userId/pixels',
    handle: {
      resource: 'Pixel',
      title: 'pixels:list.my_title',
      nav: {
        label: 'advertiser.pixels',
        icon: 'pixels',
        order: 17,
        to: ({ userId }) => `/users/${userId}/pixels`,
      },
    },
    lazy: lazyPage(pixels, 'PixelsListPage'),
  },
  {
    path: 'users/:userId/pixels/create',
    handle: { resource: 'Pixel', action: 'create', title: 'pixels:form.create_title' },
    lazy: lazyPage(pixels, 'PixelCreatePage'),
  },
  {
    path: 'users/:userId/pixels/:id',
    handle: { resource: 'Pixel', title: 'pixels:view.title' },
    lazy: lazyPage(pixels, 'PixelPage'),
  },
  {
    path: 'users/:userId/pixels/:id/edit',
    handle: { resource: 'Pixel', action: 'update', title: 'pixels:form.edit_page_title' },
    lazy: lazyPage(pixels, 'PixelEditPage'),
  },
  {
    path: 'users/:userId/landings',
    handle: {
      resource: 'Landing',
      title: 'landings:list.title',
      nav: {
        label: 'advertiser.landings',
        icon: 'landings',
        order: 18,
        to: ({ userId }) => `/users/${userId}/landings`,
      },
    },
    lazy: lazyPage(landings, 'LandingsListPage'),
  },
  {
    path: 'landings/create',
    handle: { resource: 'Landing', action: 'create', title: 'landings:form.create_title' },
    lazy: lazyPage(landings, 'LandingCreatePage'),
  },
  {
    path: 'landings/:landingId/edit',
    handle: { resource: 'Landing', title: 'landings:form.edit_page_title' },
    lazy: lazyPage(landings, 'LandingEditPage'),
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
    lazy: lazyPage(payments, 'PaymentSuccessPage'),
  },
  {
    path: 'payment-failed',
    handle: { ...fullPage, title: 'common:misc.payment_failed_title' },
    lazy: lazyPage(payments, 'PaymentFailedPage'),
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
