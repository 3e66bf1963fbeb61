import { defaultTargeting, type Targeting } from '@adp/contract';
import type { Decision, IndexedWidget } from './ad-index.ts';

/** Rows as the delivery repository loads them, for ad index unit tests: funded, untargeted, weight 100. */
export const campaignRow = (id: number, weight = 100) => ({
  id,
  userId: 1,
  adstype: 'default',
  clickprice: 500_000n,
  balance: 10_000_000n,
  dailyclicks: 0,
  dailyBudget: null,
  pacing: 'even',
  weight,
  clickFilter: 'dummy',
  utm: '',
  trackUrls: [],
  srcCode: '',
  siteId: null,
  widgetIds: [],
  brandName: '',
  onImageLoad: false,
  cpcFeedProcessor: null,
  ipRanges: [],
});

export const bannerRow = (id: number, campaignId: number, targeting: Partial<Targeting> = {}) => ({
  id,
  campaignId,
  title: `Ad ${id}`,
  text: '',
  url: 'https://shop.example/',
  targeting: { ...defaultTargeting(), ...targeting },
  images: null,
  video: null,
});

export const widgetRow = (id: number, siteId: number) => ({
  id,
  siteId,
  processor: 'default',
  settings: { columns: 4, rows: 1 },
  earnProcessor: 'percent',
  earnValue: 50_000_000n,
  siteUserId: 2,
  siteLanguage: 'de',
  siteCategory: 'news',
  siteAgencyRate: '0',
  siteDomain: `site${siteId}.example`,
  siteNoindex: false,
  siteMarkTraffic: false,
  siteCountOnScroll: false,
  siteStrictItems: false,
  siteAffiliateUserId: null,
  siteAffiliatePercent: '0',
  siteInfinite: false,
  criteoType: null as string | null,
  marketplaceUrl: null as string | null,
  siteAdvertorialUrl: null as string | null,
  siteModeration: 'approved',
  sitePaymentMethod: 'revshare',
  sitePaymentMethodChangedAt: new Date('2026-01-01T00:00:00Z'),
});

/** A desktop Chrome visitor from DE on this widget at noon UTC, 2026-11-23; `over` changes any fact. */
export function decisionOn(widget: IndexedWidget, over: Partial<Decision> = {}): Decision {
  return {
    now: new Date('2026-11-23T12:00:00Z'),
    device: 'desktop',
    os: 'windows',
    browser: 'chrome',
    browserLanguage: 'de',
    userLanguage: 'de',
    country: 'DE',
    cityId: null,
    siteId: String(widget.siteId),
    widgetType: 'default',
    siteLanguage: 'de',
    ip: '81.2.69.142',
    audiences: [],
    dspPartnerId: null,
    prebidPartnerId: null,
    seen: { impressions: 0, clicks: 0 },
    widget,
    mayServe: () => true,
    seenOf: () => ({ impressions: 0, clicks: 0 }),
    ...over,
  };
}
