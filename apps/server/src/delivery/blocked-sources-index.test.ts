import { expect, test } from 'vitest';
import { bannerRow, campaignRow, decisionOn, widgetRow } from './ad-index.test-helper.ts';
import { type BlockRow, buildAdIndex } from './ad-index.ts';

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
  const d = decisionOn(idx.widget(widgetId)!, { now });
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

test('a source blocked for every campaign (campaign null) does not serve at all, until the block ends', () => {
  const idx = index([{ campaignId: null, siteId: 4, widgetId: null, until: null }]);
  expect(idx.widget(8)).toBeUndefined();
  expect(served(idx, 9)).toEqual([1, 2]);
  const byWidget = index([{ campaignId: null, siteId: null, widgetId: 9, until: null }]);
  expect(byWidget.widget(9)).toBeUndefined();
  expect(byWidget.widget(8)).toBeDefined();
  // an ended block, and one still running next to it on the same widget: the later end counts
  const ended = index([
    { campaignId: null, siteId: null, widgetId: 9, until: new Date(Date.now() - 1000) },
    { campaignId: null, siteId: 3, widgetId: null, until: new Date(Date.now() - 1) },
  ]);
  expect(ended.widget(9)).toBeDefined();
  const later = index([
    { campaignId: null, siteId: null, widgetId: 9, until: new Date(Date.now() - 1000) },
    { campaignId: null, siteId: null, widgetId: 9, until: new Date(Date.now() + 60_000) },
  ]);
  expect(later.widget(9)).toBeUndefined();
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
