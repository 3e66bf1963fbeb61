import { describe, expect, test } from 'vitest';
import { bannerRow, campaignRow, decisionOn, widgetRow } from './ad-index.test-helper.ts';
import { buildAdIndex, type Decision, type IndexInput } from './ad-index.ts';

function index(campaigns: ReturnType<typeof campaignRow>[], banners: ReturnType<typeof bannerRow>[]) {
  const input: IndexInput = {
    campaigns,
    banners,
    widgets: [widgetRow(9, 3)],
    agencyOf: new Map(),
    referrerOf: new Map(),
  };
  return buildAdIndex(input, (k) => `https://cdn.example/${k}`);
}

const decision = (idx: ReturnType<typeof index>, over: Partial<Decision> = {}) =>
  decisionOn(idx.widget(9)!, over);

describe('ad index', () => {
  test('one creative per campaign, never an excluded one, never more than asked', () => {
    const idx = index(
      [campaignRow(1), campaignRow(2)],
      [bannerRow(10, 1), bannerRow(11, 1), bannerRow(20, 2)],
    );
    for (let i = 0; i < 50; i++) {
      const picked = idx.select(decision(idx), 4);
      expect(picked).toHaveLength(2);
      expect(new Set(picked.map((c) => c.campaign.id)).size).toBe(2);
    }
    expect(idx.select(decision(idx), 1)).toHaveLength(1);
    const without = idx.select(decision(idx), 4, { exclude: new Set([20]) });
    expect(without.map((c) => c.campaign.id)).toEqual([1]);
  });

  test('a feed campaign carries its feed read once; one without a usable feed is left out', () => {
    const mgid = JSON.stringify({ widget_id: '1', token: 'tok' });
    const feedCampaign = (id: number, adstype: string, processor: string | null, srcCode: string) =>
      ({ ...campaignRow(id), adstype, cpcFeedProcessor: processor, srcCode }) as ReturnType<
        typeof campaignRow
      >;
    const idx = index(
      [
        feedCampaign(1, 'external', 'mgid', mgid),
        feedCampaign(2, 'external', null, mgid),
        feedCampaign(3, 'cpcfeed', 'mgid', 'not json'),
        feedCampaign(4, 'default', null, 'not json'),
      ],
      [bannerRow(10, 1), bannerRow(20, 2), bannerRow(30, 3), bannerRow(40, 4)],
    );
    expect(idx.campaigns.get(1)?.feed).toMatchObject({
      processor: 'mgid',
      config: { widget_id: '1', token: 'tok' },
    });
    expect(idx.campaigns.has(2)).toBe(false);
    expect(idx.campaigns.has(3)).toBe(false);
    expect(idx.campaigns.get(4)?.feed).toBeNull();
    expect(idx.creatives.map((c) => c.id)).toEqual([10, 40]);
  });

  test('campaign weights steer the random choice, in both the sampling and the pool paths', () => {
    // many candidates: sampling path; then few candidates among many creatives: pool path
    const many = index([campaignRow(1, 300), campaignRow(2, 100)], [bannerRow(10, 1), bannerRow(20, 2)]);
    let seed = 1;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const firstOf = (idx: ReturnType<typeof index>, d: Decision) => {
      const n = { 1: 0, 2: 0 } as Record<number, number>;
      for (let i = 0; i < 2000; i++) n[idx.select(d, 1, { random })[0]!.campaign.id]! += 1;
      return n[1]! / 2000;
    };
    expect(firstOf(many, decision(many))).toBeGreaterThan(0.7);
    expect(firstOf(many, decision(many))).toBeLessThan(0.8);
    const others = Array.from({ length: 200 }, (_, i) =>
      bannerRow(100 + i, 3, { countries: { state: 'active', values: ['FR'] } }),
    );
    const sparse = index(
      [campaignRow(1, 300), campaignRow(2, 100), campaignRow(3)],
      [bannerRow(10, 1), bannerRow(20, 2), ...others],
    );
    expect(firstOf(sparse, decision(sparse))).toBeGreaterThan(0.7);
    expect(firstOf(sparse, decision(sparse))).toBeLessThan(0.8);
  });

  test('targeting narrows by bitsets and the full rules; paused campaigns and caps are skipped', () => {
    const idx = index(
      [campaignRow(1), campaignRow(2), campaignRow(3), campaignRow(4)],
      [
        bannerRow(10, 1, { countries: { state: 'active', values: ['DE'] } }),
        bannerRow(20, 2, { countries: { state: 'negative', values: ['DE'] } }),
        bannerRow(30, 3, { devices: { state: 'active', values: ['mobile'] }, start_date: '2020-01-01' }),
        bannerRow(40, 4, { end_date: '2026-11-22' }),
      ],
    );
    const ids = (d: Decision) =>
      idx
        .select(d, 8)
        .map((c) => c.id)
        .sort();
    expect(ids(decision(idx))).toEqual([10]);
    expect(ids(decision(idx, { country: 'FR' }))).toEqual([20]);
    expect(ids(decision(idx, { country: null, device: 'mobile' }))).toEqual([20, 30]);
    expect(ids(decision(idx, { mayServe: (c) => c.id !== 1 }))).toEqual([]);
  });
});
