import { dashboardNamespaces, guestNamespaces, loadNamespaces } from '../lib/i18n.ts';
import { lazyPage } from '../lib/lazy-page.ts';
import type { RouteMeta } from '../lib/route-meta.ts';
import { type AppRoute, guestRoutes } from './guest-routes.tsx';

export type { AppRoute };

/**
 * Every route loads its own page file (not the feature's barrel), so a page downloads only what it
 * imports. Its texts and styles load alongside: the guest pages (guest-routes.tsx) need four namespaces
 * and the first screen's styles (base-styles.ts); the other pages every namespace and all Mantine styles.
 * This table is not in the entry chunk: routes.tsx loads it on the first navigation outside the guest pages.
 */
const pageNamespaces = [...guestNamespaces, ...dashboardNamespaces];

function lazyDashboard<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return lazyPage(
    async () => (await Promise.all([load(), import('./full-styles.ts'), loadNamespaces(pageNamespaces)]))[0],
    name,
  );
}

const resetPage: RouteMeta = { resource: 'Auth', layout: 'full', withoutQueries: true };
const fullPage: RouteMeta = { layout: 'full' };
const notFound: RouteMeta = { layout: 'full', title: 'common:misc.not_found_title' };
const admin: RouteMeta = { resource: 'ACL', action: 'manage' };
const userPage: RouteMeta = { resource: 'User' };
const agencyPage: RouteMeta = { resource: 'Agency' };

/** Every page of the dashboard but the guest ones; `handle` carries the meta the guard, layout and menu read. */
export const dashboardRoutes: AppRoute[] = [
  {
    path: 'pages/authentication/reset-password-v1',
    handle: { ...resetPage, title: 'auth:reset.title' },
    lazy: lazyDashboard(() => import('../features/auth/reset-password-page.tsx'), 'ResetPasswordV1Page'),
  },
  {
    path: 'pages/authentication/reset-password-v2',
    handle: { ...resetPage, title: 'auth:reset.title' },
    lazy: lazyDashboard(() => import('../features/auth/reset-password-page.tsx'), 'ResetPasswordV2Page'),
  },
  {
    // the link of an e-mail change: opened signed in or not
    path: 'confirm-email',
    handle: { resource: 'Auth', layout: 'full', title: 'auth:confirm_email.title' },
    lazy: lazyDashboard(() => import('../features/auth/confirm-email-page.tsx'), 'ConfirmEmailPage'),
  },
  {
    path: 'users',
    handle: { ...admin, title: 'common:nav.users', nav: { label: 'nav.users', icon: 'users', order: 20 } },
    lazy: lazyDashboard(() => import('../features/users/users-list-page.tsx'), 'UsersListPage'),
  },
  {
    path: 'users/:userId',
    handle: {
      ...userPage,
      title: 'common:nav.profile',
      nav: { label: 'nav.profile', icon: 'user', order: 10, to: ({ userId }) => `/users/${userId}` },
    },
    lazy: lazyDashboard(() => import('../features/users/user-page.tsx'), 'UserPage'),
  },
  {
    // SPEC.md section 6: editing a profile needs read on ACL.
    path: 'users/:userId/edit',
    handle: { resource: 'ACL', title: 'users:edit.title' },
    lazy: lazyDashboard(() => import('../features/users/user-edit-page.tsx'), 'UserEditPage'),
  },
  {
    path: 'users/:userId/payments',
    handle: { ...userPage, title: 'users:payments.title' },
    lazy: lazyDashboard(() => import('../features/users/user-payments-page.tsx'), 'UserPaymentsPage'),
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
    lazy: lazyDashboard(() => import('../features/users/user-payments-page.tsx'), 'UserTransactionsPage'),
  },
  {
    path: 'users/:userId/pay',
    handle: userPage,
    lazy: lazyDashboard(() => import('../features/users/pay-redirect.tsx'), 'UserPayRedirect'),
  },
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
    lazy: lazyDashboard(() => import('../features/users/referrals-page.tsx'), 'ReferralsPage'),
  },
  {
    path: 'users/:userId/topup',
    handle: { resource: 'TopUp', action: 'create', title: 'billing:topup.title' },
    lazy: lazyDashboard(() => import('../features/payments/topup-page.tsx'), 'TopupPage'),
  },
  {
    path: 'users/:userId/withdrawals',
    handle: { ...userPage, title: 'billing:withdrawals.title' },
    lazy: lazyDashboard(
      () => import('../features/withdrawals/user-withdrawals-page.tsx'),
      'UserWithdrawalsPage',
    ),
  },
  {
    path: 'users/:userId/agencies',
    handle: { ...agencyPage, title: 'agencies:user_title' },
    lazy: lazyDashboard(() => import('../features/agencies/agencies-list-pages.tsx'), 'UserAgenciesPage'),
  },
  {
    path: 'withdrawals',
    handle: {
      ...admin,
      title: 'billing:withdrawals.queue_title',
      nav: { label: 'nav.withdrawals', icon: 'withdrawals', order: 30 },
    },
    lazy: lazyDashboard(
      () => import('../features/withdrawals/withdrawals-queue-page.tsx'),
      'WithdrawalsQueuePage',
    ),
  },
  {
    path: 'agencies',
    handle: {
      ...agencyPage,
      title: 'agencies:title',
      nav: { label: 'nav.agencies', icon: 'agencies', order: 40 },
    },
    lazy: lazyDashboard(() => import('../features/agencies/agencies-list-pages.tsx'), 'AgenciesPage'),
  },
  {
    path: 'users/:userId/agencies/create',
    handle: { resource: 'Agency', action: 'create', title: 'agencies:create_title' },
    lazy: lazyDashboard(() => import('./alias-redirects.tsx'), 'UserAgencyRedirect'),
  },
  {
    path: 'users/:userId/agencies/:id/*',
    handle: { ...agencyPage, title: 'agencies:title' },
    lazy: lazyDashboard(() => import('./alias-redirects.tsx'), 'UserAgencyRedirect'),
  },
  {
    path: 'agencies/create',
    handle: { resource: 'Agency', action: 'create', title: 'agencies:create_title' },
    lazy: lazyDashboard(() => import('../features/agencies/agency-form-pages.tsx'), 'AgencyCreatePage'),
  },
  {
    path: 'agencies/:id',
    handle: { ...agencyPage, title: 'agencies:title' },
    lazy: lazyDashboard(() => import('../features/agencies/agency-page.tsx'), 'AgencyPage'),
  },
  {
    path: 'agencies/:id/edit',
    handle: { resource: 'Agency', action: 'update', title: 'agencies:edit_title' },
    lazy: lazyDashboard(() => import('../features/agencies/agency-form-pages.tsx'), 'AgencyEditPage'),
  },
  {
    path: 'agencies/:id/create',
    handle: { resource: 'Agency', action: 'update', title: 'agencies:members.create_title' },
    lazy: lazyDashboard(() => import('../features/agencies/member-pages.tsx'), 'MemberCreatePage'),
  },
  {
    path: 'agencies/:id/:memberId/edit',
    handle: { resource: 'Agency', action: 'update', title: 'agencies:members.edit_title' },
    lazy: lazyDashboard(() => import('../features/agencies/member-pages.tsx'), 'MemberEditPage'),
  },
  // agency groups (SPEC.md "Partners"), admins
  {
    path: 'partners',
    handle: {
      resource: 'Partner',
      title: 'partners:list.title',
      nav: { label: 'nav.partners', icon: 'agencies', order: 53 },
    },
    lazy: lazyDashboard(() => import('../features/partners/partners-pages.tsx'), 'PartnersListPage'),
  },
  {
    path: 'partners/create',
    handle: { resource: 'Partner', action: 'create', title: 'partners:form.create_title' },
    lazy: lazyDashboard(() => import('../features/partners/partners-pages.tsx'), 'PartnerCreatePage'),
  },
  {
    path: 'partners/:id',
    handle: { resource: 'Partner', title: 'partners:list.title' },
    lazy: lazyDashboard(() => import('../features/partners/partners-pages.tsx'), 'PartnerViewPage'),
  },
  {
    path: 'partners/:id/edit',
    handle: { resource: 'Partner', action: 'update', title: 'partners:form.edit_page_title' },
    lazy: lazyDashboard(() => import('../features/partners/partners-pages.tsx'), 'PartnerEditPage'),
  },
  {
    path: 'partners/:id/logs',
    handle: { resource: 'Partner', title: 'partners:view.logs' },
    lazy: lazyDashboard(() => import('../features/partners/partners-pages.tsx'), 'PartnerLogsPage'),
  },
  {
    // stats, stats/phoenix/partners/{partnerId}, stats/geo/country/{countryId}, stats/device/{deviceId} …
    path: 'partners/:id/stats/*',
    handle: { resource: 'Partner', title: 'partners:view.stats' },
    lazy: lazyDashboard(() => import('../features/partners/partners-pages.tsx'), 'PartnerStatsPage'),
  },
  {
    path: 'prebidpartners',
    handle: {
      resource: 'PrebidPartner',
      title: 'partners:prebid.title',
      nav: { label: 'nav.prebidpartners', icon: 'transactions', order: 54 },
    },
    lazy: lazyDashboard(
      () => import('../features/prebid-partners/prebid-partners-pages.tsx'),
      'PrebidPartnersListPage',
    ),
  },
  {
    path: 'prebidpartners/create',
    handle: { resource: 'PrebidPartner', action: 'create', title: 'partners:prebid.create' },
    lazy: lazyDashboard(
      () => import('../features/prebid-partners/prebid-partners-pages.tsx'),
      'PrebidPartnerCreatePage',
    ),
  },
  {
    path: 'prebidpartners/:id',
    handle: { resource: 'PrebidPartner', title: 'partners:prebid.title' },
    lazy: lazyDashboard(
      () => import('../features/prebid-partners/prebid-partners-pages.tsx'),
      'PrebidPartnerViewPage',
    ),
  },
  {
    path: 'prebidpartners/:id/edit',
    handle: { resource: 'PrebidPartner', action: 'update', title: 'partners:prebid.edit_page_title' },
    lazy: lazyDashboard(
      () => import('../features/prebid-partners/prebid-partners-pages.tsx'),
      'PrebidPartnerEditPage',
    ),
  },
  {
    path: 'prebidpartners/:id/logs',
    handle: { resource: 'PrebidPartner', title: 'partners:view.logs' },
    lazy: lazyDashboard(
      () => import('../features/prebid-partners/prebid-partners-pages.tsx'),
      'PrebidPartnerLogsPage',
    ),
  },
  {
    path: 'prebidpartners/:id/stats',
    handle: { resource: 'PrebidPartner', title: 'partners:view.stats' },
    lazy: lazyDashboard(
      () => import('../features/prebid-partners/prebid-partners-pages.tsx'),
      'PrebidPartnerStatsPage',
    ),
  },
  {
    path: 'prebidpartners/:id/v2/stats',
    handle: { resource: 'PrebidPartner', title: 'partners:view.stats' },
    lazy: lazyDashboard(
      () => import('../features/prebid-partners/prebid-partners-pages.tsx'),
      'PrebidPartnerV2StatsPage',
    ),
  },
  {
    path: 'currencies',
    handle: {
      ...admin,
      title: 'currencies:title',
      nav: { label: 'nav.currencies', icon: 'currencies', order: 50 },
    },
    lazy: lazyDashboard(() => import('../features/currencies/currencies-page.tsx'), 'CurrenciesPage'),
  },
  {
    path: 'dsppartners',
    handle: {
      resource: 'DspPartner',
      title: 'dsppartners:list.title',
      nav: { label: 'nav.dsppartners', icon: 'transactions', order: 52 },
    },
    lazy: lazyDashboard(
      () => import('../features/dsp-partners/dsp-partners-pages.tsx'),
      'DspPartnersListPage',
    ),
  },
  {
    path: 'dsppartners/create',
    handle: { resource: 'DspPartner', action: 'create', title: 'dsppartners:form.create_title' },
    lazy: lazyDashboard(
      () => import('../features/dsp-partners/dsp-partners-pages.tsx'),
      'DspPartnerCreatePage',
    ),
  },
  {
    path: 'dsppartners/:id',
    handle: { resource: 'DspPartner', title: 'dsppartners:list.title' },
    lazy: lazyDashboard(
      () => import('../features/dsp-partners/dsp-partners-pages.tsx'),
      'DspPartnerViewPage',
    ),
  },
  {
    path: 'dsppartners/:id/edit',
    handle: { resource: 'DspPartner', action: 'update', title: 'dsppartners:form.edit_page_title' },
    lazy: lazyDashboard(
      () => import('../features/dsp-partners/dsp-partners-pages.tsx'),
      'DspPartnerEditPage',
    ),
  },
  {
    path: 'dsppartners/:id/logs',
    handle: { resource: 'DspPartner', title: 'dsppartners:view.logs' },
    lazy: lazyDashboard(
      () => import('../features/dsp-partners/dsp-partners-pages.tsx'),
      'DspPartnerLogsPage',
    ),
  },
  {
    path: 'dsppartners/:id/stats',
    handle: { resource: 'DspPartner', title: 'dsppartners:view.stats' },
    lazy: lazyDashboard(
      () => import('../features/dsp-partners/dsp-partner-stats-page.tsx'),
      'DspPartnerStatsPage',
    ),
  },
  {
    path: 'dsppartners/:id/stats/:tab',
    handle: { resource: 'DspPartner', title: 'dsppartners:view.stats' },
    lazy: lazyDashboard(
      () => import('../features/dsp-partners/dsp-partner-stats-page.tsx'),
      'DspPartnerStatsPage',
    ),
  },
  {
    path: 'dsppartners/:id/stats/:kind/:key',
    handle: { resource: 'DspPartner', title: 'dsppartners:view.stats' },
    lazy: lazyDashboard(
      () => import('../features/dsp-partners/dsp-partner-stats-page.tsx'),
      'DspPartnerStatsPage',
    ),
  },
  {
    // the exchanges that send us OpenRTB bid requests (admins)
    path: 'rtbpartners',
    handle: {
      resource: 'RtbPartner',
      action: 'read',
      title: 'rtbpartners:title',
      nav: { label: 'nav.rtbpartners', icon: 'rtbpartners', order: 52 },
    },
    lazy: lazyDashboard(() => import('../features/rtb-partners/rtb-partners-page.tsx'), 'RtbPartnersPage'),
  },
  {
    path: 'reports',
    handle: {
      ...admin,
      title: 'reports:title',
      nav: { label: 'nav.reports', icon: 'reports', order: 45 },
    },
    lazy: lazyDashboard(() => import('../features/reports/reports-page.tsx'), 'ReportsPage'),
  },
  {
    // SPEC.md section 4: traffic sources blocked for campaigns, every campaign's (admin)
    path: 'sources',
    handle: {
      ...admin,
      title: 'campaigns:blocked_sources.all_title',
      nav: { label: 'nav.blocked_sources', icon: 'sources', order: 29 },
    },
    lazy: lazyDashboard(() => import('../features/campaigns/blocked-sources-page.tsx'), 'BlockedSourcesPage'),
  },
  {
    // SPEC.md section 2: Adsense incomes (admins; read-only admins look)
    path: 'adsense-incomes',
    handle: {
      resource: 'Adsense',
      action: 'read',
      title: 'adsense:title',
      nav: { label: 'nav.adsense_incomes', icon: 'adsense', order: 54 },
    },
    lazy: lazyDashboard(() => import('../features/adsense/adsense-pages.tsx'), 'AdsenseIncomesPage'),
  },
  {
    path: 'adsense-incomes/:id',
    handle: { resource: 'Adsense', action: 'read', title: 'adsense:title' },
    lazy: lazyDashboard(() => import('../features/adsense/adsense-pages.tsx'), 'AdsenseIncomePage'),
  },
  {
    // SPEC.md section 2: /notifications; every role that reads notifications (the header's bell links here)
    path: 'notifications',
    handle: {
      resource: 'Notification',
      title: 'notifications:title',
      nav: { label: 'nav.notifications', icon: 'notifications', order: 11 },
    },
    lazy: lazyDashboard(
      () => import('../features/notifications/notifications-page.tsx'),
      'NotificationsPage',
    ),
  },
  {
    path: 'decode-url',
    handle: {
      ...admin,
      title: 'decode:title',
      nav: { label: 'nav.decode_url', icon: 'decode', order: 55 },
    },
    lazy: lazyDashboard(() => import('../features/decode-url/decode-url-page.tsx'), 'DecodeUrlPage'),
  },
  {
    path: 'system',
    handle: {
      ...admin,
      title: 'billing:system.title',
      nav: { label: 'nav.system', icon: 'system', order: 60 },
    },
    lazy: lazyDashboard(() => import('../features/system/system-page.tsx'), 'SystemPage'),
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
    lazy: lazyDashboard(() => import('../features/sites/sites-list-page.tsx'), 'SitesListPage'),
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
    lazy: lazyDashboard(() => import('../features/sites/sites-list-page.tsx'), 'SitesListPage'),
  },
  {
    path: 'sites/create',
    handle: { resource: 'Site', action: 'create', title: 'common:publisher.site_create' },
    lazy: lazyDashboard(() => import('../features/sites/site-edit-pages.tsx'), 'SiteCreatePage'),
  },
  {
    path: 'sites/v2/:siteId',
    handle: { resource: 'Site', title: 'common:publisher.site' },
    lazy: lazyDashboard(() => import('../features/sites/site-page.tsx'), 'SiteV2Page'),
  },
  {
    path: 'sites/:siteId',
    handle: { resource: 'Site', title: 'common:publisher.site' },
    lazy: lazyDashboard(() => import('../features/sites/site-page.tsx'), 'SitePage'),
  },
  {
    path: 'sites/:siteId/edit',
    handle: { resource: 'Site', action: 'update', title: 'common:publisher.site_edit' },
    lazy: lazyDashboard(() => import('../features/sites/site-edit-pages.tsx'), 'SiteEditPage'),
  },
  {
    path: 'sites/:siteId/widgets',
    handle: { resource: 'Widget', title: 'common:publisher.widgets' },
    lazy: lazyDashboard(() => import('../features/widgets/widgets-pages.tsx'), 'SiteWidgetsPage'),
  },
  {
    path: 'sites/:siteId/widgets/create',
    handle: { resource: 'Widget', action: 'create', title: 'common:publisher.widget_create' },
    lazy: lazyDashboard(() => import('../features/widgets/widgets-pages.tsx'), 'WidgetCreatePage'),
  },
  {
    path: 'widgets/create',
    handle: { resource: 'Widget', action: 'create', title: 'common:publisher.widget_create' },
    lazy: lazyDashboard(() => import('../features/widgets/widgets-pages.tsx'), 'WidgetCreatePage'),
  },
  {
    path: 'widgets/:widgetId',
    handle: { resource: 'Widget', title: 'common:publisher.widget' },
    lazy: lazyDashboard(() => import('../features/widgets/widgets-pages.tsx'), 'WidgetPage'),
  },
  {
    path: 'widgets/:widgetId/edit',
    handle: { resource: 'Widget', action: 'update', title: 'common:publisher.widget_edit' },
    lazy: lazyDashboard(() => import('../features/widgets/widgets-pages.tsx'), 'WidgetEditPage'),
  },
  {
    path: 'sites/:siteId/widgets/:widgetId',
    handle: { resource: 'Widget', title: 'common:publisher.widget' },
    lazy: lazyDashboard(() => import('../features/widgets/widgets-pages.tsx'), 'WidgetPage'),
  },
  {
    path: 'sites/:siteId/widgets/:widgetId/edit',
    handle: { resource: 'Widget', action: 'update', title: 'common:publisher.widget_edit' },
    lazy: lazyDashboard(() => import('../features/widgets/widgets-pages.tsx'), 'WidgetEditPage'),
  },
  {
    path: 'sites/:siteId/promotions',
    handle: { resource: 'Promotion', title: 'common:publisher.promotions' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'SitePromotionsPage'),
  },
  {
    path: 'promotions/create',
    handle: { resource: 'Promotion', action: 'create', title: 'common:publisher.promotion_create' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionCreatePage'),
  },
  {
    path: 'promotions/:promotionId',
    handle: { resource: 'Promotion', title: 'common:publisher.promotion' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionViewPage'),
  },
  {
    path: 'promotions/:promotionId/edit',
    handle: { resource: 'Promotion', action: 'update', title: 'common:publisher.promotion_edit' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionEditPage'),
  },
  {
    path: 'promotions/:promotionId/pages/create',
    handle: { resource: 'PromotionPage', action: 'create', title: 'common:publisher.promotion_page_create' },
    lazy: lazyDashboard(
      () => import('../features/promotions/promotions-pages.tsx'),
      'PromotionPageCreatePage',
    ),
  },
  {
    path: 'promotions/:promotionId/pages/:promotionpageId',
    handle: { resource: 'PromotionPage', title: 'common:publisher.promotion_page' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionPageViewPage'),
  },
  {
    path: 'promotions/:promotionId/pages/:promotionpageId/edit',
    handle: { resource: 'PromotionPage', action: 'update', title: 'common:publisher.promotion_page_edit' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionPageEditPage'),
  },
  {
    path: 'sites/:siteId/promotions/create',
    handle: { resource: 'Promotion', action: 'create', title: 'common:publisher.promotion_create' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionCreatePage'),
  },
  {
    path: 'sites/:siteId/promotions/:promotionId',
    handle: { resource: 'Promotion', title: 'common:publisher.promotion' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionViewPage'),
  },
  {
    path: 'sites/:siteId/promotions/:promotionId/edit',
    handle: { resource: 'Promotion', action: 'update', title: 'common:publisher.promotion_edit' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionEditPage'),
  },
  {
    path: 'sites/:siteId/promotions/:promotionId/pages/create',
    handle: { resource: 'PromotionPage', action: 'create', title: 'common:publisher.promotion_page_create' },
    lazy: lazyDashboard(
      () => import('../features/promotions/promotions-pages.tsx'),
      'PromotionPageCreatePage',
    ),
  },
  {
    path: 'sites/:siteId/promotions/:promotionId/pages/:promotionpageId',
    handle: { resource: 'PromotionPage', title: 'common:publisher.promotion_page' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionPageViewPage'),
  },
  {
    path: 'sites/:siteId/promotions/:promotionId/pages/:promotionpageId/edit',
    handle: { resource: 'PromotionPage', action: 'update', title: 'common:publisher.promotion_page_edit' },
    lazy: lazyDashboard(() => import('../features/promotions/promotions-pages.tsx'), 'PromotionPageEditPage'),
  },
  {
    path: 'sites/:siteId/social',
    handle: { resource: 'SocialGroup', title: 'common:publisher.social' },
    lazy: lazyDashboard(() => import('../features/social/social-pages.tsx'), 'SiteSocialGroupsPage'),
  },
  {
    path: 'social/create',
    handle: { resource: 'SocialGroup', action: 'create', title: 'common:publisher.social_create' },
    lazy: lazyDashboard(() => import('../features/social/social-pages.tsx'), 'SocialGroupCreatePage'),
  },
  {
    path: 'social/:groupId/edit',
    handle: { resource: 'SocialGroup', action: 'update', title: 'common:publisher.social_edit' },
    lazy: lazyDashboard(() => import('../features/social/social-pages.tsx'), 'SocialGroupEditPage'),
  },
  {
    path: 'moderation',
    handle: {
      resource: 'Moderation',
      action: 'update',
      title: 'common:publisher.moderation',
      nav: { label: 'publisher.moderation', icon: 'moderation', order: 24 },
    },
    lazy: lazyDashboard(() => import('../features/moderation/moderation-page.tsx'), 'ModerationPage'),
  },
  // Issue 10: click-level screens (features/clicks)
  {
    path: 'users/:userId/campaigns/:id/clicks',
    handle: { resource: 'Campaign', title: 'clicks:title.clicks' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'CampaignClicksPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/impressions',
    handle: { resource: 'Campaign', title: 'clicks:title.impressions' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'CampaignImpressionsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/geoclicks',
    handle: { resource: 'Campaign', title: 'clicks:title.geoclicks' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'CampaignGeoClicksPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/pixelclicks',
    handle: { resource: 'Campaign', title: 'clicks:title.pixelclicks' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'CampaignPixelClicksPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/postback',
    handle: { resource: 'Campaign', title: 'clicks:title.postback' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'CampaignPostbackPage'),
  },
  {
    path: 'sites/:siteId/clicks',
    handle: { resource: 'Site', title: 'clicks:title.clicks' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'SiteClicksPage'),
  },
  {
    path: 'sites/:siteId/click-sources',
    handle: { resource: 'Site', title: 'clicks:title.click_sources' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'SiteClickSourcesPage'),
  },
  {
    path: 'sites/:siteId/geoclicks',
    handle: { resource: 'Site', title: 'clicks:title.geoclicks' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'SiteGeoClicksPage'),
  },
  {
    path: 'sites/:siteId/impression-rate',
    handle: { resource: 'Site', title: 'clicks:title.impression_rate' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'SiteImpressionRatePage'),
  },
  {
    path: 'sites/:siteId/toparticles',
    handle: { resource: 'Site', title: 'clicks:title.toparticles' },
    lazy: lazyDashboard(() => import('../features/clicks/top-articles-page.tsx'), 'SiteTopArticlesPage'),
  },
  {
    path: 'widgets/:widgetId/clicks',
    handle: { resource: 'Widget', title: 'clicks:title.widget_clicks' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'WidgetClicksPage'),
  },
  {
    path: 'sites/:siteId/widgets/:widgetId/clicks',
    handle: { resource: 'Widget', title: 'clicks:title.widget_clicks' },
    lazy: lazyDashboard(() => import('../features/clicks/clicks-pages.tsx'), 'WidgetClicksPage'),
  },
  // Issue 5: advertiser inventory (campaigns, creatives, pixels, landings)
  {
    path: 'campaigns',
    handle: {
      ...admin,
      title: 'campaigns:list.title',
      nav: { label: 'advertiser.all_campaigns', icon: 'campaigns', order: 26 },
    },
    lazy: lazyDashboard(() => import('../features/campaigns/campaigns-list-page.tsx'), 'CampaignsListPage'),
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
    lazy: lazyDashboard(() => import('../features/campaigns/campaigns-list-page.tsx'), 'CampaignsListPage'),
  },
  {
    path: 'users/:userId/campaigns/create',
    handle: { resource: 'Campaign', action: 'create', title: 'campaigns:form.create_title' },
    lazy: lazyDashboard(() => import('../features/campaigns/campaign-edit-pages.tsx'), 'CampaignCreatePage'),
  },
  {
    path: 'users/:userId/campaigns/:id',
    handle: { resource: 'Campaign', title: 'campaigns:view.title' },
    lazy: lazyDashboard(() => import('../features/campaigns/campaign-page.tsx'), 'CampaignPage'),
  },
  {
    path: 'users/:userId/campaigns/v2/:id',
    handle: { resource: 'Campaign', title: 'campaigns:view.title' },
    lazy: lazyDashboard(() => import('../features/campaigns/campaign-page.tsx'), 'CampaignPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/edit',
    handle: { resource: 'Campaign', action: 'update', title: 'campaigns:form.edit_page_title' },
    lazy: lazyDashboard(() => import('../features/campaigns/campaign-edit-pages.tsx'), 'CampaignEditPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/payments',
    handle: { resource: 'Campaign', title: 'campaigns:payments.title' },
    lazy: lazyDashboard(() => import('../features/campaigns/campaign-page.tsx'), 'CampaignPaymentsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives',
    handle: { resource: 'Banner', title: 'banners:list.title' },
    lazy: lazyDashboard(() => import('../features/banners/banners-pages.tsx'), 'BannersListPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/create',
    handle: { resource: 'Banner', action: 'create', title: 'banners:form.create_title' },
    lazy: lazyDashboard(() => import('../features/banners/banners-pages.tsx'), 'BannerCreatePage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId',
    handle: { resource: 'Banner', title: 'banners:view.title' },
    lazy: lazyDashboard(() => import('../features/banners/banners-pages.tsx'), 'BannerPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/edit',
    handle: { resource: 'Banner', action: 'update', title: 'banners:form.edit_page_title' },
    lazy: lazyDashboard(() => import('../features/banners/banners-pages.tsx'), 'BannerEditPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/create',
    handle: { resource: 'Banner', action: 'create', title: 'banners:form.create_title' },
    lazy: lazyDashboard(() => import('../features/banners/banners-pages.tsx'), 'BannerCreatePage'),
  },
  {
    path: 'pixels',
    handle: {
      ...admin,
      title: 'pixels:list.title',
      nav: { label: 'advertiser.all_pixels', icon: 'pixels', order: 27 },
    },
    lazy: lazyDashboard(() => import('../features/pixels/pixels-pages.tsx'), 'PixelsListPage'),
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
    lazy: lazyDashboard(() => import('../features/pixels/pixels-pages.tsx'), 'PixelsListPage'),
  },
  {
    path: 'pixels/create',
    handle: { resource: 'Pixel', action: 'create', title: 'pixels:form.create_title' },
    lazy: lazyDashboard(() => import('./alias-redirects.tsx'), 'PixelCreateRedirect'),
  },
  {
    // the pixel pages read only the pixel's id: the same pages under the short path
    path: 'pixels/:id',
    handle: { resource: 'Pixel', title: 'pixels:view.title' },
    lazy: lazyDashboard(() => import('../features/pixels/pixels-pages.tsx'), 'PixelPage'),
  },
  {
    path: 'pixels/:id/edit',
    handle: { resource: 'Pixel', action: 'update', title: 'pixels:form.edit_page_title' },
    lazy: lazyDashboard(() => import('../features/pixels/pixels-pages.tsx'), 'PixelEditPage'),
  },
  {
    path: 'users/:userId/pixels/create',
    handle: { resource: 'Pixel', action: 'create', title: 'pixels:form.create_title' },
    lazy: lazyDashboard(() => import('../features/pixels/pixels-pages.tsx'), 'PixelCreatePage'),
  },
  {
    path: 'users/:userId/pixels/:id',
    handle: { resource: 'Pixel', title: 'pixels:view.title' },
    lazy: lazyDashboard(() => import('../features/pixels/pixels-pages.tsx'), 'PixelPage'),
  },
  {
    path: 'users/:userId/pixels/:id/edit',
    handle: { resource: 'Pixel', action: 'update', title: 'pixels:form.edit_page_title' },
    lazy: lazyDashboard(() => import('../features/pixels/pixels-pages.tsx'), 'PixelEditPage'),
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
    lazy: lazyDashboard(() => import('../features/landings/landings-pages.tsx'), 'LandingsListPage'),
  },
  {
    path: 'landings/create',
    handle: { resource: 'Landing', action: 'create', title: 'landings:form.create_title' },
    lazy: lazyDashboard(() => import('../features/landings/landings-pages.tsx'), 'LandingCreatePage'),
  },
  {
    path: 'landings/:landingId/edit',
    handle: { resource: 'Landing', title: 'landings:form.edit_page_title' },
    lazy: lazyDashboard(() => import('../features/landings/landings-pages.tsx'), 'LandingEditPage'),
  },
  {
    path: 'users/:userId/landings/create',
    handle: { resource: 'Landing', action: 'create', title: 'landings:form.create_title' },
    lazy: lazyDashboard(() => import('../features/landings/landings-pages.tsx'), 'LandingCreatePage'),
  },
  {
    path: 'users/:userId/landings/:landingId/edit',
    handle: { resource: 'Landing', title: 'landings:form.edit_page_title' },
    lazy: lazyDashboard(() => import('../features/landings/landings-pages.tsx'), 'LandingEditPage'),
  },
  // Issue 10: statistics screens (features/stats, one StatsScreen component)
  {
    path: 'users/:userId/campaigns/:id/stats',
    handle: { resource: 'Campaign', title: 'stats:pages.campaign_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'CampaignStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/stats-sites',
    handle: { resource: 'Campaign', title: 'stats:pages.campaign_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'CampaignSitesStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/criteo',
    handle: { resource: 'Campaign', title: 'stats:pages.criteo_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'CampaignCriteoStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/rtb-stats',
    handle: { resource: 'Campaign', title: 'stats:pages.rtb_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'CampaignRtbStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/rtb-stats/sources',
    handle: { resource: 'Campaign', title: 'stats:pages.rtb_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'CampaignRtbStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/rtb-stats/partner/:partnerId',
    handle: { resource: 'Campaign', title: 'stats:pages.rtb_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'CampaignRtbStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/rtb-stats/partner/:partnerId/source/:sourceId',
    handle: { resource: 'Campaign', title: 'stats:pages.rtb_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'CampaignRtbStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/stats',
    handle: { resource: 'Banner', title: 'stats:pages.creative_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'BannerStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/v2',
    handle: { resource: 'Banner', title: 'stats:pages.creative_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'BannerStatsV2Page'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/rtb-stats',
    handle: { resource: 'Banner', title: 'stats:pages.rtb_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'BannerRtbStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/rtb-stats/sources',
    handle: { resource: 'Banner', title: 'stats:pages.rtb_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'BannerRtbStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/rtb-stats/partner/:partnerId',
    handle: { resource: 'Banner', title: 'stats:pages.rtb_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'BannerRtbStatsPage'),
  },
  {
    path: 'users/:userId/campaigns/:id/creatives/:bannerId/rtb-stats/source/:sourceId',
    handle: { resource: 'Banner', title: 'stats:pages.rtb_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'BannerRtbStatsPage'),
  },
  {
    path: 'widgets/:widgetId/stats',
    handle: { resource: 'Widget', title: 'stats:pages.widget_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'WidgetStatsPage'),
  },
  {
    path: 'widgets/:widgetId/v2/stats',
    handle: { resource: 'Widget', title: 'stats:pages.widget_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'WidgetStatsV2Page'),
  },
  {
    path: 'sites/:siteId/widgets/:widgetId/stats',
    handle: { resource: 'Widget', title: 'stats:pages.widget_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'WidgetStatsPage'),
  },
  {
    path: 'sites/:siteId/widgets/:widgetId/v2/stats',
    handle: { resource: 'Widget', title: 'stats:pages.widget_title' },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'WidgetStatsV2Page'),
  },
  {
    path: 'users/:userId/stats',
    handle: {
      resource: 'User',
      title: 'stats:pages.user_title',
      nav: {
        label: 'nav.my_statistics',
        icon: 'statistics',
        order: 11,
        to: ({ userId }) => `/users/${userId}/stats`,
      },
    },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'UserStatsPage'),
  },
  {
    path: 'statistics',
    handle: {
      ...admin,
      title: 'stats:pages.platform',
      nav: { label: 'nav.statistics', icon: 'statistics', order: 28 },
    },
    lazy: lazyDashboard(() => import('../features/stats/stats-pages.tsx'), 'PlatformStatsPage'),
  },
  // issue 12: the admin-written FAQ and contacts pages, open to every signed-in role
  {
    path: 'faq',
    handle: { title: 'pages:faq.title', nav: { label: 'nav.faq', icon: 'faq', order: 90 } },
    lazy: lazyDashboard(() => import('../features/content-pages/content-pages.tsx'), 'FaqPage'),
  },
  {
    path: 'contacts',
    handle: { title: 'pages:contacts.title', nav: { label: 'nav.contacts', icon: 'contacts', order: 91 } },
    lazy: lazyDashboard(() => import('../features/content-pages/content-pages.tsx'), 'ContactsPage'),
  },
  {
    path: 'pages/miscellaneous/coming-soon',
    handle: { ...fullPage, title: 'common:misc.coming_soon_title' },
    lazy: lazyDashboard(() => import('../features/misc/misc-pages.tsx'), 'ComingSoonPage'),
  },
  {
    path: 'pages/miscellaneous/not-authorized',
    handle: { ...fullPage, title: 'common:misc.not_authorized_title' },
    lazy: lazyDashboard(() => import('../features/misc/misc-pages.tsx'), 'NotAuthorizedPage'),
  },
  {
    path: 'pages/miscellaneous/under-maintenance',
    handle: { ...fullPage, title: 'common:misc.maintenance_title' },
    lazy: lazyDashboard(() => import('../features/misc/misc-pages.tsx'), 'UnderMaintenancePage'),
  },
  {
    path: 'pages/miscellaneous/error',
    handle: { ...fullPage, title: 'common:misc.error_title' },
    lazy: lazyDashboard(() => import('../features/misc/misc-pages.tsx'), 'ErrorPage'),
  },
  {
    path: 'payment-success',
    handle: { ...fullPage, title: 'common:misc.payment_success_title' },
    lazy: lazyDashboard(() => import('../features/payments/payment-result-pages.tsx'), 'PaymentSuccessPage'),
  },
  {
    path: 'payment-failed',
    handle: { ...fullPage, title: 'common:misc.payment_failed_title' },
    lazy: lazyDashboard(() => import('../features/payments/payment-result-pages.tsx'), 'PaymentFailedPage'),
  },
  {
    path: 'error-404',
    handle: notFound,
    lazy: lazyDashboard(() => import('../features/misc/misc-pages.tsx'), 'NotFoundPage'),
  },
  {
    path: '*',
    handle: notFound,
    lazy: lazyDashboard(() => import('../features/misc/misc-pages.tsx'), 'NotFoundPage'),
  },
];

/** Every page of the dashboard. */
export const pageRoutes: AppRoute[] = [...guestRoutes, ...dashboardRoutes];

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
