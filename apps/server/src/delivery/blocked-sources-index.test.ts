import { defaultTargeting } from '@adp/contract';
import { expect, test } from 'vitest';
import { type BlockRow, buildAdIndex, type Decision } from './ad-index.ts';

const campaignRow = (id: number) => ({
  id,
  userId: 1,
  adstype: 'default',
  clickprice: 500_000n,
  balance: 10_000_000n,
  dailyclicks: 0,
  dailyBudget: null,
  pacing: 'even',
  weight: 100,
  clickFilter: 'dummy',
  utm: '',
  trackUrls: [],
  srcCode: '',
  siteId: null,
  widgetIds: [],
  brandName: '',
  cpcFeedProcessor: null,
  ipRanges: [],
});
const bannerRow = (id: number, campaignId: number) => ({
  id,
  campaignId,
  title: `Ad ${id}`,
  text: '',
  url: 'https://shop.example/',
  targeting: defaultTargeting(),
  images: null,
  video: null,
});
const widgetRow = (id: number, siteId: number) => ({
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
});

function index(blocks: BlockRow[]) {
  return buildAdIndex(
    {
      campaigns: [campaignRow(1), campaignRow(2)],
      banners: [bannerRow(10, 1), bannerRow(20, 2)],
      widgets: [widgetRow(9, 3), widgetRow(8, 4)],
      agencyOf: new Map(),
      referrerOf: new Map(),
      blocks,
    },
    (k) => k,
  );
}

const NOW = new Date('2026-11-23T12:00:00Z');
function served(idx: ReturnType<typeof index>, widgetId: number, now = NOW): number[] {
  const widget = idx.widget(widgetId)!;
  const d: Decision = {
    now,
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
  };
  return idx
    .select(d, 4)
    .map((c) => c.campaign.id)
    .sort();
}

test('a site block leaves out that campaign on the site only; a widget block on that widget only', () => {
  const bySite = index([{ campaignId: 1, siteId: 3, widgetId: null, until: null }]);
  expect(served(bySite, 9)).toEqual([2]);
  expect(served(bySite, 8)).toEqual([1, 2]);
  const byWidget = index([{ campaignId: 2, siteId: null, widgetId: 8, until: null }]);
  expect(served(byWidget, 8)).toEqual([1]);
  expect(served(byWidget, 9)).toEqual([1, 2]);
});

test('a block for every campaign (campaign null) leaves the source without sponsored items', () => {
  const idx = index([{ campaignId: null, siteId: 4, widgetId: null, until: null }]);
  expect(served(idx, 8)).toEqual([]);
  expect(served(idx, 9)).toEqual([1, 2]);
});

test('a block ends at its until, checked at decision time (no rebuild needed)', () => {
  const until = new Date('2026-11-23T12:30:00Z');
  const idx = index([{ campaignId: 1, siteId: 3, widgetId: null, until }]);
  expect(served(idx, 9, NOW)).toEqual([2]);
  expect(served(idx, 9, new Date('2026-11-23T12:29:59Z'))).toEqual([2]);
  expect(served(idx, 9, until)).toEqual([1, 2]);
});

test('a block of a campaign that is not in the index changes nothing', () => {
  const idx = index([{ campaignId: 77, siteId: 3, widgetId: null, until: null }]);
  expect(served(idx, 9)).toEqual([1, 2]);
});
