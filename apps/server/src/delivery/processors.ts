import { nativeAdsTypes } from '@adp/contract';
import type { OrganicSource } from './processors/organic.ts';

/**
 * A widget's processor (SPEC.md section 3) decides what fills its slots: sponsored creatives (which ads
 * types, in which order, shown how) and/or unsponsored items (the site's own materials in some order,
 * other sites' materials, promotion pages). This table is the one place that says it; the code of the
 * non-trivial ones is in processors/; the README lists what each one does.
 */
export interface Plan {
  /** Sponsored creatives of these ads types (any when undefined) fill the slots first. */
  sponsored: boolean;
  adstypes?: ReadonlySet<string>;
  /**
   * Weighted random by campaign weight, best observed CTR (with a prior) first, or most similar to the
   * page's material first (random when the page is unknown).
   */
  order: 'random' | 'ctr' | 'relevant';
  /**
   * How a sponsored item is shown: a native card; a video card; the campaign's markup (`src_code`) in a
   * sandboxed frame; or the items of the campaign's external CPC feed.
   */
  kind?: 'native' | 'video' | 'markup' | 'feed';
  /** At most this many sponsored items per answer. */
  maxSponsored?: number;
  /** Unsponsored items fill what the sponsored items leave. */
  organic: boolean;
  /** Where they come from: the site's newest materials unless said. */
  source?: OrganicSource;
  /** With none of its sponsored items (no campaign of its one kind), the default plan serves instead. */
  fallback?: boolean;
  /** DSP partners may outbid our best creative for the first slot (delivery/exchange/slot.ts). */
  auction?: boolean;
}

const native = nativeAdsTypes;
/** A criteo widget set to native (`criteo_type`): criteo campaigns' creatives as native cards. */
const criteoNative: Plan = {
  sponsored: true,
  adstypes: new Set(['criteo']),
  order: 'random',
  kind: 'native',
  organic: false,
  fallback: true,
};
const organicOnly = (source: OrganicSource): Plan => ({
  sponsored: false,
  order: 'random',
  organic: true,
  source,
});

const plans: Record<string, Plan> = {
  default: { sponsored: true, adstypes: native, order: 'random', organic: true, auction: true },
  bannerrandom: { sponsored: true, adstypes: native, order: 'random', organic: false, auction: true },
  topctr: { sponsored: true, adstypes: native, order: 'ctr', organic: true, auction: true },
  articlerelevant: { sponsored: true, adstypes: native, order: 'relevant', organic: true, auction: true },
  videobannerrandom: {
    sponsored: true,
    adstypes: new Set(['video']),
    order: 'random',
    kind: 'video',
    organic: false,
  },
  criteo: {
    sponsored: true,
    adstypes: new Set(['criteo']),
    order: 'random',
    kind: 'markup',
    organic: false,
    fallback: true,
  },
  adsensebannerrandom: {
    sponsored: true,
    adstypes: new Set(['adsense']),
    order: 'random',
    kind: 'markup',
    organic: false,
    fallback: true,
  },
  // the feeds of a few cpcfeed (or external) campaigns are asked at once (processors/feeds.ts); their
  // items come first
  cpcfeedapi: {
    sponsored: true,
    adstypes: new Set(['cpcfeed']),
    order: 'random',
    kind: 'feed',
    organic: true,
    fallback: true,
  },
  externalapi: {
    sponsored: true,
    adstypes: new Set(['external', 'cpcfeed']),
    order: 'random',
    kind: 'feed',
    organic: true,
    fallback: true,
  },
  // sponsored news (news campaigns, at most two) among the site's articles of the last 24 hours
  newsrandom: {
    sponsored: true,
    adstypes: new Set(['news']),
    order: 'random',
    maxSponsored: 2,
    organic: true,
    source: 'news',
  },
  articlerandom: organicOnly('random'),
  rssrandom: organicOnly('random'),
  articlelanguage: organicOnly('language'),
  articlerecommend: organicOnly('recommend'),
  exchangerandom: organicOnly('exchange'),
  exchangesitesgrouprandom: organicOnly('exchange_group'),
  exchangeownerrss: organicOnly('exchange_owner'),
  promotionpagerandom: organicOnly('promotions'),
  dummy: { sponsored: false, order: 'random', organic: false },
};

export const defaultPlan = plans.default as Plan;

export function planOf(processor: string): Plan {
  return plans[processor] ?? defaultPlan;
}

/** A widget's plan: its processor's, a criteo widget's by its `criteo_type` (banner markup or native cards). */
export function planFor(widget: { processor: string; criteoType: 'banner' | 'native' | null }): Plan {
  return widget.processor === 'criteo' && widget.criteoType === 'native'
    ? criteoNative
    : planOf(widget.processor);
}
