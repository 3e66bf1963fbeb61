import {
  type BannerImageFormat,
  bannerImageFormats,
  type CampaignOpenRtb,
  campaignOpenRtb,
  feedAdsTypes,
  httpUrl,
  nativeAdsTypes,
  type Targeting,
  targeting as targetingSchema,
  toMicros,
  type WidgetSettings,
  widgetSettings,
} from '@adp/contract';
import { headerUrl } from '../lib/location.ts';
import type { BannerRow, CampaignRow, DeliveryRepository, WidgetRow } from './delivery.repository.ts';
import { basisPoints } from './delivery.repository.ts';
import { type CpcFeedProcessor, type FeedConfig, parseFeedConfig } from './feeds/config.ts';
import { ipInRange, rejectedBy, type TargetingRequest } from './targeting.ts';

/**
 * The ad index: every campaign that may spend now (active, approved, funded) with its approved active
 * creatives, and every widget that serves, held in memory and rebuilt when something changes. Targeting is
 * compiled once per build into bitsets per dimension and value, so a decision ANDs a few words per
 * dimension instead of evaluating every creative; the few creatives picked are then checked against their
 * full rules (`rejectedBy`, fail closed), the campaign's IP list, caps and pacing.
 */

export interface IndexedCampaign {
  id: number;
  userId: number;
  adstype: string;
  clickprice: bigint;
  dailyclicks: number;
  dailyBudget: bigint | null;
  pacing: 'even' | 'asap';
  weight: number;
  clickFilter: 'dummy' | 'onetoone' | 'lock';
  utm: string;
  trackUrls: string[];
  srcCode: string;
  brand: string;
  /** on_image_load: its items' impression counts once their images have loaded (the embed script waits). */
  onImageLoad: boolean;
  cpcFeedProcessor: string | null;
  /** A feed campaign's (cpcfeed, external) feed and its settings, read from `src_code` once per build. */
  feed: { processor: CpcFeedProcessor; config: FeedConfig } | null;
  ipRanges: string[];
  /** Placement: only this site and/or only these widgets, when set. */
  siteId: number | null;
  widgetIds: string[];
  /** Whether any creative of the campaign has capping on (then the visitor's counts are read). */
  capped: boolean;
  /** The OpenRTB block when enabled (the exchange bids for it), else null. */
  openrtb?: CampaignOpenRtb | null;
  /**
   * Its eCPM bid and daily budget limit in integer micro-units, converted once here from the block's
   * decimal amounts (the bidder's sums and the bid token never multiply a float amount).
   */
  rtbMicros?: { ecpmBid: number | null; dailyBudgetLimit: number | null };
  /** The target CTR check's verdict: 'unchecked', 'checked' or 'not_passed'. */
  targetCtrStatus?: string;
  /** The owner's agency group and its campaign rate (basis points of each charge), when it has one. */
  agency?: { userId: number; bp: bigint } | null;
  /** The campaign's IAB content categories (`IAB7`, `IAB7-39`): what the bidder's `bcat` check reads. */
  iabCategories?: string[];
}

/** One rendered size of a creative's image. */
export interface CreativeImage {
  url: string;
  w: number;
  h: number;
  mime: 'image/webp';
}

export interface IndexedCreative {
  /** Position in the index's arrays and bitsets. */
  n: number;
  id: number;
  campaign: IndexedCampaign;
  title: string;
  text: string;
  image: string | null;
  /** Every rendered size of the image (WebP), smallest first: what a native bid's image asset picks from. */
  images: readonly CreativeImage[];
  video: string | null;
  url: string;
  targeting: Targeting;
  /** Observed CTR with a prior (topctr), filled from the rollups at build time. */
  score: number;
}

/**
 * An http(s) URL the index may hand to a visitor's browser, header-safe (a redirect's `Location`); anything
 * else (a legacy row) is none.
 */
const safeUrl = (url: string | null | undefined): string | null =>
  url && httpUrl.safeParse(url).success ? headerUrl(url) : null;

/** A site's affiliate term as a referrer: its account and percent (basis points); none without both. */
function affiliateOf(userId: number | null | undefined, percent: string | null | undefined): Referrer | null {
  if (!userId || !percent) return null;
  const bp = basisPoints(percent);
  return bp > 0n ? { userId, bp } : null;
}

export interface IndexedWidget {
  id: number;
  siteId: number;
  publisherId: number;
  processor: string;
  settings: WidgetSettings;
  /** How many items the first answer holds. */
  slots: number;
  earnProcessor: 'percent' | 'fixed';
  /** Percent in micro-units of a percent, or fixed micro-units per click. */
  earnValue: bigint;
  siteLanguage: string | null;
  siteCategory: string;
  siteDomain: string;
  /** The site's switches that change how its widgets serve (SiteSwitches). */
  site: SiteSwitches;
  /** The agency account of the site owner, and its rate of the publisher's share in basis points. */
  agencyUserId: number | null;
  agencyBp: bigint;
  /** The agency group's phoenix rate: its share of the publisher's DSP revenue, basis points. */
  phoenixBp?: bigint;
  /**
   * The site's affiliate (its `affiliate_user_id`) and its `affiliate_earn_percent` in basis points: paid
   * first of the referrers, out of the platform's income from the site; null without one.
   */
  affiliate: Referrer | null;
  /**
   * The site's `payment_method`: `revshare` and `cpc` pay the publisher per click by the earn processor,
   * `cpm` per thousand impressions (cpm-earnings.ts), `fixed` a flat fee outside delivery.
   */
  paymentMethod: 'revshare' | 'cpc' | 'cpm' | 'fixed';
  /**
   * Until when (ms) a charge pays the publisher its share: always on a site paid per click; a `cpm` or
   * `fixed` site's until the end of the hour it switched in (its CPM hours start there).
   */
  perChargeUntil: number;
  /** A criteo widget's `criteo_type`: the campaigns' markup (banner, the default) or native cards. */
  criteoType: 'banner' | 'native' | null;
  /** The widget's `marketplace_url`: where its "Ads by" label leads (the platform's home without one). */
  marketplaceUrl: string | null;
  /**
   * The site's `default_advertorial_url` once a moderator approved the site: where a click on an ad that no
   * longer exists goes (while the widget serves; otherwise the click goes back to its page).
   */
  advertorialUrl: string | null;
}

/**
 * A site's switches that delivery obeys: `noindex` (use_noindex: the widget's links are nofollow and it is
 * kept out of search snippets), `countOnScroll` (stats_on_scroll: an answer counts its impression once
 * the widget scrolls into view, not when it is drawn), `infinite` (is_infinite: every widget of the site
 * loads more as the visitor scrolls), which the answer's settings carry to the embed script;
 * `markTraffic` (mark_traffic: links to the site's own articles carry UTM marks naming the widget) and
 * `strictItems` (strict_items_amount: a widget shows all its slots filled or nothing), which serving does.
 */
export interface SiteSwitches {
  noindex: boolean;
  countOnScroll: boolean;
  infinite: boolean;
  markTraffic: boolean;
  strictItems: boolean;
}

export interface Referrer {
  userId: number;
  bp: bigint;
}

/** An exchange bid request's decision: no widget of ours (placement-bound campaigns never bid). */
export interface RtbDecision extends TargetingRequest {
  mayServe: (c: IndexedCampaign) => boolean;
  seenOf: (creativeId: number, periodHours: number) => { impressions: number; clicks: number };
}

/** What a decision knows about the request beyond the targeting facts. */
export interface Decision extends TargetingRequest {
  widget: IndexedWidget;
  /** A campaign may spend now (daily clicks, daily budget, pacing: the counters' verdict). */
  mayServe: (c: IndexedCampaign) => boolean;
  /** This visitor's impressions and clicks of a creative in its capping period. */
  seenOf: (creativeId: number, periodHours: number) => { impressions: number; clicks: number };
}

type DimName =
  | 'countries'
  | 'cities'
  | 'devices'
  | 'os'
  | 'browsers'
  | 'browser_languages'
  | 'user_languages'
  | 'sites'
  | 'widget_types'
  | 'site_languages'
  | 'hours'
  | 'weekdays'
  | 'days_of_month'
  | 'pixels';
const indexedDims: DimName[] = [
  'countries',
  'cities',
  'devices',
  'os',
  'browsers',
  'browser_languages',
  'user_languages',
  'sites',
  'widget_types',
  'site_languages',
  'hours',
  'weekdays',
  'days_of_month',
  'pixels',
];

interface CompiledDim {
  /** Creatives this dimension does not restrict. */
  inactive: Uint32Array;
  /** Creatives with "all but these". */
  negative: Uint32Array;
  active: Map<string, Uint32Array>;
  negated: Map<string, Uint32Array>;
  /** Nothing restricts this dimension: skip it. */
  open: boolean;
}

const words = (n: number) => new Uint32Array(Math.ceil(n / 32) || 1);
const setBit = (b: Uint32Array, i: number) => {
  b[i >>> 5] = (b[i >>> 5] as number) | (1 << (i & 31));
};

function compileDim(count: number, entries: { n: number; state: string; values: string[] }[]): CompiledDim {
  const dim: CompiledDim = {
    inactive: words(count),
    negative: words(count),
    active: new Map(),
    negated: new Map(),
    open: true,
  };
  for (const e of entries) {
    if (e.state === 'inactive') {
      setBit(dim.inactive, e.n);
      continue;
    }
    dim.open = false;
    if (e.state === 'negative') setBit(dim.negative, e.n);
    const into = e.state === 'active' ? dim.active : dim.negated;
    for (const v of e.values) {
      let b = into.get(v);
      if (!b) {
        b = words(count);
        into.set(v, b);
      }
      setBit(b, e.n);
    }
  }
  return dim;
}

/** mask &= what this dimension allows for a request whose value(s) are `values`. */
function narrow(mask: Uint32Array, dim: CompiledDim, values: readonly string[]) {
  if (dim.open) return;
  const act: Uint32Array[] = [];
  const neg: Uint32Array[] = [];
  for (const v of values) {
    const a = dim.active.get(v);
    if (a) act.push(a);
    const g = dim.negated.get(v);
    if (g) neg.push(g);
  }
  for (let w = 0; w < mask.length; w++) {
    let allowed = dim.inactive[w] as number;
    let listedNeg = 0;
    for (const a of act) allowed |= a[w] as number;
    for (const g of neg) listedNeg |= g[w] as number;
    allowed |= (dim.negative[w] as number) & ~listedNeg;
    mask[w] = (mask[w] as number) & allowed;
  }
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The first index whose prefix sum exceeds `r`. */
function upperBound(prefix: Float64Array, r: number): number {
  let lo = 0;
  let hi = prefix.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((prefix[mid] as number) > r) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const indexedDimSet: ReadonlySet<string> = new Set(indexedDims);

/**
 * Rules the candidate bitsets decide alone: every rule outside the indexed dimensions is off (no dates,
 * times, IP ranges, partner lists, capping; anything unknown counts as a rule). A candidate with such rules
 * needs no second look at them.
 */
function decidedByIndex(t: Targeting): boolean {
  for (const [name, v] of Object.entries(t)) {
    if (v === null || v === undefined || indexedDimSet.has(name)) continue;
    if (typeof v === 'object' && (v as { state?: unknown }).state === 'inactive') continue;
    return false;
  }
  return true;
}

const imageOrder: BannerImageFormat[] = ['landscape', 'square', 'wide', 'thumb'];

export interface AdIndex {
  readonly builtAt: number;
  /** How many widgets serve (the system page's index size). */
  readonly widgetCount: number;
  readonly creatives: readonly IndexedCreative[];
  readonly campaigns: ReadonlyMap<number, IndexedCampaign>;
  /** A widget that serves now: indexed, and neither it nor its site blocked for every campaign. */
  widget(id: number): IndexedWidget | undefined;
  creative(id: number): IndexedCreative | undefined;
  referrer(userId: number): Referrer | undefined;
  /** Whether any creative caps per visitor (then a decision reads the visitor's counters). */
  readonly anyCapping: boolean;
  /** The creatives with capping on, found once per build (a decision reads their visitor counters). */
  readonly capped: readonly IndexedCreative[];
  /**
   * Up to `count` creatives for this request, one per campaign, never one of `exclude`: weighted random by
   * campaign weight (`order: 'random'`) or best observed CTR first (`order: 'ctr'`).
   */
  select(
    d: Decision,
    count: number,
    opts?: {
      order?: 'random' | 'ctr';
      adstypes?: ReadonlySet<string>;
      exclude?: ReadonlySet<number>;
      random?: () => number;
    },
  ): IndexedCreative[];
  /**
   * Creatives of campaigns with OpenRTB enabled and an eCPM bid, highest bid first (at most `limit`, at most
   * `perCampaign` of one campaign), that pass the caller's `accept` (asked first: the campaign's own rules),
   * the request's targeting and their campaign's limits: the exchange's bidder.
   */
  rtbCandidates(
    d: RtbDecision,
    limit: number,
    accept?: (c: IndexedCreative) => boolean,
    perCampaign?: number,
  ): IndexedCreative[];
}

export interface BlockRow {
  campaignId: number | null;
  siteId: number | null;
  widgetId: number | null;
  /** The block ends at this moment; null = permanent. */
  until: Date | null;
}

export interface IndexInput {
  /** The exchange's columns may be absent (then the campaign does not bid). */
  campaigns: (Omit<CampaignRow, 'openrtb' | 'targetCtrStatus' | 'iabCategories'> &
    Partial<Pick<CampaignRow, 'openrtb' | 'targetCtrStatus' | 'iabCategories'>>)[];
  banners: BannerRow[];
  widgets: WidgetRow[];
  agencyOf: Map<number, number>;
  /** The phoenix and campaign rates (basis points) of each member's agency group. */
  groupRatesOf?: Map<number, { phoenixBp: bigint; campaignBp: bigint }>;
  referrerOf: Map<number, Referrer>;
  /** Blocked traffic sources: a site or a widget where one campaign (null: every campaign) does not serve. */
  blocks?: BlockRow[];
  performance?: { bannerId: number; impressions: number; clicks: number }[];
}

const HOUR_MS = 3_600_000;
/** Kinds of request whose candidates one index build keeps (then it starts afresh). */
const MASKS_KEPT = 4096;

/** Beta prior of topctr: a new creative starts at 1 % CTR worth 200 impressions of evidence. */
const PRIOR_CTR = 0.01;
const PRIOR_IMPRESSIONS = 200;

/** A feed campaign's feed and settings; null when it names none or its settings do not read. */
function feedOf(processor: string | null, srcCode: string): IndexedCampaign['feed'] {
  if (!processor) return null;
  const parsed = parseFeedConfig(processor as CpcFeedProcessor, srcCode);
  return parsed.ok ? { processor: processor as CpcFeedProcessor, config: parsed.config } : null;
}

/** The agency group's cut of a member's campaign charges (its campaign rate), when it has one. */
function campaignAgencyOf(input: IndexInput, ownerId: number) {
  const userId = input.agencyOf.get(ownerId);
  const bp = input.groupRatesOf?.get(ownerId)?.campaignBp ?? 0n;
  return userId !== undefined && bp > 0n ? { userId, bp } : null;
}

export function buildAdIndex(input: IndexInput, uploadsUrl: (key: string) => string): AdIndex {
  const campaigns = new Map<number, IndexedCampaign>();
  for (const c of input.campaigns) {
    const feed = feedAdsTypes.has(c.adstype) ? feedOf(c.cpcFeedProcessor, c.srcCode) : null;
    // a feed campaign without a usable feed (an older row: the campaign's rules refuse one now) shows nowhere
    // rather than taking a feed's place in an answer and bringing nothing
    if (feedAdsTypes.has(c.adstype) && !feed) continue;
    campaigns.set(c.id, {
      id: c.id,
      userId: c.userId,
      adstype: c.adstype,
      clickprice: c.clickprice,
      dailyclicks: c.dailyclicks,
      dailyBudget: c.dailyBudget,
      pacing: c.pacing === 'asap' ? 'asap' : 'even',
      weight: c.weight,
      clickFilter: (['dummy', 'onetoone', 'lock'].includes(c.clickFilter)
        ? c.clickFilter
        : 'onetoone') as IndexedCampaign['clickFilter'],
      utm: c.utm,
      trackUrls: c.trackUrls,
      srcCode: c.srcCode,
      brand: c.brandName,
      onImageLoad: c.onImageLoad,
      cpcFeedProcessor: c.cpcFeedProcessor,
      feed,
      ipRanges: c.ipRanges,
      siteId: c.siteId,
      widgetIds: c.widgetIds,
      capped: false,
      openrtb: openRtbOf(c.openrtb),
      rtbMicros: rtbMicrosOf(openRtbOf(c.openrtb)),
      targetCtrStatus: c.targetCtrStatus ?? 'unchecked',
      agency: campaignAgencyOf(input, c.userId),
      // the campaign's IAB content categories (the codes once written in its sub-category moved here, 0026)
      iabCategories: c.iabCategories ?? [],
    });
  }
  const perf = new Map((input.performance ?? []).map((p) => [p.bannerId, p]));
  const creatives: IndexedCreative[] = [];
  for (const b of input.banners) {
    const campaign = campaigns.get(b.campaignId);
    if (!campaign || campaign.weight <= 0) continue;
    // a rule set that does not parse shows nowhere (fail closed)
    const parsed = targetingSchema.safeParse(b.targeting);
    if (!parsed.success) continue;
    const images = b.images ?? {};
    const key = imageOrder.map((f) => images[f]).find(Boolean);
    const p = perf.get(b.id);
    const score =
      ((p?.clicks ?? 0) + PRIOR_CTR * PRIOR_IMPRESSIONS) / ((p?.impressions ?? 0) + PRIOR_IMPRESSIONS);
    if (parsed.data.capping.state === 'active') campaign.capped = true;
    creatives.push({
      n: creatives.length,
      id: b.id,
      campaign,
      title: b.title,
      text: b.text,
      image: key ? uploadsUrl(key) : null,
      images: imageOrder
        .flatMap((f): CreativeImage[] => {
          const k = images[f];
          const [w, h] = bannerImageFormats[f];
          return k ? [{ url: uploadsUrl(k), w, h, mime: 'image/webp' }] : [];
        })
        .sort((a, b) => a.w * a.h - b.w * b.h),
      video: b.video ? uploadsUrl(b.video) : null,
      url: b.url,
      targeting: parsed.data,
      score,
    });
  }
  const count = creatives.length;
  // creatives whose rules are all in the bitsets (most of them): a candidate's full check has nothing left
  const decided = new Uint8Array(count);
  for (const c of creatives) decided[c.n] = decidedByIndex(c.targeting) ? 1 : 0;
  const all = words(count);
  for (const c of creatives) setBit(all, c.n);

  const dims = new Map<DimName, CompiledDim>();
  for (const name of indexedDims) {
    dims.set(
      name,
      compileDim(
        count,
        creatives.map((c) => {
          const d = c.targeting[name];
          return { n: c.n, state: d.state, values: d.values.map(String) };
        }),
      ),
    );
  }
  // the campaign's own placement: one site, and/or a list of widgets
  const placementSite = compileDim(
    count,
    creatives.map(({ n, campaign: { siteId } }) => ({
      n,
      state: siteId ? 'active' : 'inactive',
      values: siteId ? [String(siteId)] : [],
    })),
  );
  const placementWidgets = compileDim(
    count,
    creatives.map(({ n, campaign: { widgetIds } }) => ({
      n,
      state: widgetIds.length ? 'active' : 'inactive',
      values: widgetIds.map(String),
    })),
  );
  // blocked sources: per site ('s<id>') and widget ('w<id>'), the creatives that may not serve there and until when
  const blocked = new Map<string, { until: number; bits: Uint32Array }[]>();
  const ofCampaign = new Map<number, Uint32Array>();
  for (const c of creatives) {
    let bits = ofCampaign.get(c.campaign.id);
    if (!bits) {
      bits = words(count);
      ofCampaign.set(c.campaign.id, bits);
    }
    setBit(bits, c.n);
  }
  // a source blocked for every campaign (an admin's block) does not serve at all: its widgets answer 404
  // (DESIGN.md: a blocked widget does not serve) until the block ends
  const closedUntil = new Map<string, number>();
  for (const b of input.blocks ?? []) {
    if (b.campaignId !== null) continue;
    const key = b.siteId !== null ? `s${b.siteId}` : `w${b.widgetId}`;
    const until = b.until ? b.until.getTime() : Number.POSITIVE_INFINITY;
    closedUntil.set(key, Math.max(closedUntil.get(key) ?? 0, until));
  }
  const closed = (w: IndexedWidget) => {
    const now = Date.now();
    return (closedUntil.get(`w${w.id}`) ?? 0) > now || (closedUntil.get(`s${w.siteId}`) ?? 0) > now;
  };
  for (const b of input.blocks ?? []) {
    const bits = b.campaignId === null ? all : ofCampaign.get(b.campaignId);
    if (!bits) continue; // the campaign has nothing in the index
    const key = b.siteId !== null ? `s${b.siteId}` : `w${b.widgetId}`;
    const list = blocked.get(key) ?? [];
    list.push({ until: b.until ? b.until.getTime() : Number.POSITIVE_INFINITY, bits });
    blocked.set(key, list);
  }
  const byId = new Map(creatives.map((c) => [c.id, c]));
  const capped = creatives.filter((c) => c.targeting.capping.state === 'active');
  // prefix sums of the creatives' weights (their campaign's weight), for sampling
  const prefix = new Float64Array(count);
  let totalWeight = 0;
  for (const c of creatives) {
    totalWeight += c.campaign.weight;
    prefix[c.n] = totalWeight;
  }
  const byCtr = [...creatives].sort((a, b) => b.score - a.score);
  // the exchange's bidders, highest eCPM bid first: native campaigns only (a bid is a native or banner ad
  // of the creative's title and picture; a feed's, a tag's or a video's campaign has nothing of that kind)
  const byEcpm = creatives
    .filter((c) => c.campaign.openrtb?.ecpm_bid && nativeAdsTypes.has(c.campaign.adstype))
    .sort((a, b) => (b.campaign.openrtb?.ecpm_bid ?? 0) - (a.campaign.openrtb?.ecpm_bid ?? 0));

  const widgets = new Map<number, IndexedWidget>();
  for (const w of input.widgets) {
    const parsed = widgetSettings.safeParse(w.settings);
    if (!parsed.success) continue;
    const settings = parsed.data;
    const slots =
      settings.type === 'builder'
        ? settings.blocks.reduce((n, b) => n + b.items, 0)
        : settings.columns * settings.rows;
    const agencyUserId = input.agencyOf.get(w.siteUserId) ?? null;
    const method = (['cpc', 'cpm', 'fixed'] as const).find((m) => m === w.sitePaymentMethod) ?? 'revshare';
    widgets.set(w.id, {
      id: w.id,
      siteId: w.siteId,
      publisherId: w.siteUserId,
      processor: w.processor,
      settings,
      slots: Math.max(slots, 1),
      earnProcessor: w.earnProcessor === 'fixed' ? 'fixed' : 'percent',
      earnValue: w.earnValue,
      siteLanguage: w.siteLanguage,
      siteCategory: w.siteCategory,
      siteDomain: w.siteDomain,
      site: {
        noindex: w.siteNoindex,
        countOnScroll: w.siteCountOnScroll,
        infinite: w.siteInfinite,
        markTraffic: w.siteMarkTraffic,
        strictItems: w.siteStrictItems,
      },
      agencyUserId,
      agencyBp: agencyUserId ? basisPoints(w.siteAgencyRate) : 0n,
      phoenixBp: agencyUserId ? (input.groupRatesOf?.get(w.siteUserId)?.phoenixBp ?? 0n) : 0n,
      affiliate: affiliateOf(w.siteAffiliateUserId, w.siteAffiliatePercent),
      paymentMethod: method,
      perChargeUntil:
        method === 'cpm' || method === 'fixed'
          ? (Math.floor(w.sitePaymentMethodChangedAt.getTime() / HOUR_MS) + 1) * HOUR_MS
          : Number.POSITIVE_INFINITY,
      criteoType: w.criteoType === 'banner' || w.criteoType === 'native' ? w.criteoType : null,
      marketplaceUrl: safeUrl(w.marketplaceUrl),
      // a moderated field: a pending site's new redirect target waits for a moderator
      advertorialUrl: w.siteModeration === 'approved' ? safeUrl(w.siteAdvertorialUrl) : null,
    });
  }

  /**
   * The candidates of one kind of request, kept for this build: visitors alike in every fact the bitsets
   * read (the usual case: most requests of a widget come from a few countries, devices and browsers) share
   * one mask, read-only, and its count of candidates, until the hour turns or a blocked source expires. At
   * most MASKS_KEPT kinds.
   */
  const masks = new Map<string, { mask: Uint32Array; count: number; expires: number }>();
  function candidates(d: RtbDecision & { widget?: IndexedWidget }): { mask: Uint32Array; count: number } {
    const now = d.now;
    const at = now.getTime();
    const key = `${d.country}|${d.cityId}|${d.device}|${d.os}|${d.browser}|${d.browserLanguage}|${d.userLanguage}|${d.siteId}|${d.widgetType}|${d.siteLanguage}|${Math.floor(at / HOUR_MS)}|${d.audiences.join(',')}|${d.widget ? `${d.widget.siteId}|${d.widget.id}` : ''}`;
    const kept = masks.get(key);
    if (kept && at < kept.expires) return kept;
    let expires = (Math.floor(at / HOUR_MS) + 1) * HOUR_MS;
    const mask = computeCandidates(d);
    if (blocked.size > 0 && d.widget)
      for (const k of [`s${d.widget.siteId}`, `w${d.widget.id}`])
        for (const b of blocked.get(k) ?? []) if (b.until > at) expires = Math.min(expires, b.until);
    let count = 0;
    for (let w = 0; w < mask.length; w++) count += popcount(mask[w] as number);
    if (masks.size >= MASKS_KEPT) masks.clear();
    const made = { mask, count, expires };
    masks.set(key, made);
    return made;
  }

  function computeCandidates(d: RtbDecision & { widget?: IndexedWidget }): Uint32Array {
    const mask = all.slice();
    const one = (v: string | number | null) => (v === null ? [] : [String(v)]);
    const now = d.now;
    const weekday = ((now.getUTCDay() + 6) % 7) + 1;
    const values: Record<DimName, readonly string[]> = {
      countries: one(d.country),
      cities: one(d.cityId),
      devices: one(d.device),
      os: one(d.os),
      browsers: one(d.browser),
      browser_languages: one(d.browserLanguage),
      user_languages: one(d.userLanguage),
      sites: one(d.siteId),
      widget_types: one(d.widgetType),
      site_languages: one(d.siteLanguage),
      hours: [String(now.getUTCHours())],
      weekdays: [String(weekday)],
      days_of_month: [String(now.getUTCDate())],
      pixels: d.audiences,
    };
    for (const [name, dim] of dims) narrow(mask, dim, values[name]);
    narrow(mask, placementSite, d.widget ? [String(d.widget.siteId)] : []);
    narrow(mask, placementWidgets, d.widget ? [String(d.widget.id)] : []);
    if (blocked.size > 0 && d.widget) {
      const at = now.getTime();
      for (const key of [`s${d.widget.siteId}`, `w${d.widget.id}`]) {
        for (const b of blocked.get(key) ?? []) {
          if (b.until <= at) continue; // expired since the build
          for (let w = 0; w < mask.length; w++) mask[w] = (mask[w] as number) & ~(b.bits[w] as number);
        }
      }
    }
    return mask;
  }

  /** The full check of one creative: its rules, its campaign's IP list, caps and pacing. */
  function passes(c: IndexedCreative, d: RtbDecision): boolean {
    if (!d.mayServe(c.campaign)) return false;
    if (
      c.campaign.ipRanges.length > 0 &&
      !(d.ip && c.campaign.ipRanges.some((r) => ipInRange(d.ip as string, r)))
    )
      return false;
    // only ever asked about candidates (the mask passed them): the bitsets already checked these rules
    if (decided[c.n] === 1) return true;
    const cap = c.targeting.capping;
    const seen = cap.state === 'active' ? d.seenOf(c.id, cap.period_hours) : { impressions: 0, clicks: 0 };
    try {
      return rejectedBy(c.targeting, { ...d, seen }) === null;
    } catch {
      return false; // fail closed
    }
  }

  return {
    builtAt: Date.now(),
    widgetCount: widgets.size,
    creatives,
    campaigns,
    anyCapping: capped.length > 0,
    capped,
    widget(id) {
      const w = widgets.get(id);
      return w && closedUntil.size > 0 && closed(w) ? undefined : w;
    },
    creative: (id) => byId.get(id),
    referrer: (userId) => input.referrerOf.get(userId),
    select(d, wanted, opts = {}) {
      if (wanted <= 0 || count === 0) return [];
      const { mask, count: candidateCount } = candidates(d);
      const random = opts.random ?? Math.random;
      const usable = (c: IndexedCreative) =>
        ((mask[c.n >>> 5] as number) & (1 << (c.n & 31))) !== 0 &&
        (!opts.adstypes || opts.adstypes.has(c.campaign.adstype)) &&
        !opts.exclude?.has(c.id) &&
        !c.campaign.openrtb?.only_openrtb;
      const picked: IndexedCreative[] = [];
      const campaignsUsed = new Set<number>();
      if (opts.order === 'ctr') {
        for (const c of byCtr) {
          if (picked.length >= wanted) break;
          if (!usable(c) || campaignsUsed.has(c.campaign.id) || !passes(c, d)) continue;
          picked.push(c);
          campaignsUsed.add(c.campaign.id);
        }
        return picked;
      }
      const isCandidate = (c: IndexedCreative) => ((mask[c.n >>> 5] as number) & (1 << (c.n & 31))) !== 0;
      if (candidateCount === 0) return [];
      // many candidates (the common case: little targeting): sample from the prefix sums of every creative's
      // weight, built once, and skip non-candidates; cost grows with the answer, not with the index
      if (candidateCount * 8 >= count && totalWeight > 0) {
        const failed = new Set<number>();
        let tries = wanted * 24 + 32;
        while (picked.length < wanted && tries-- > 0) {
          const c = creatives[upperBound(prefix, random() * totalWeight)] as IndexedCreative;
          if (!isCandidate(c) || failed.has(c.n) || campaignsUsed.has(c.campaign.id) || !usable(c)) continue;
          if (!passes(c, d)) {
            failed.add(c.n);
            continue;
          }
          picked.push(c);
          campaignsUsed.add(c.campaign.id);
        }
        if (picked.length >= wanted) return picked;
      }
      // few candidates, or sampling came up short: weighted random without replacement over the candidates
      const pool: IndexedCreative[] = [];
      for (let w = 0; w < mask.length; w++) {
        let bits = mask[w] as number;
        while (bits !== 0) {
          const low = bits & -bits;
          const c = creatives[(w << 5) + (31 - Math.clz32(low))] as IndexedCreative;
          bits ^= low;
          if (usable(c)) pool.push(c);
        }
      }
      const weights = pool.map((c) => c.campaign.weight);
      let total = weights.reduce((a, b) => a + b, 0);
      let attempts = wanted * 4 + 16;
      while (picked.length < wanted && total > 0 && attempts-- > 0) {
        let r = random() * total;
        let i = 0;
        for (; i < pool.length - 1; i++) {
          r -= weights[i] as number;
          if (r < 0) break;
        }
        const c = pool[i] as IndexedCreative;
        total -= weights[i] as number;
        weights[i] = 0;
        if (campaignsUsed.has(c.campaign.id) || !passes(c, d)) continue;
        picked.push(c);
        campaignsUsed.add(c.campaign.id);
        // the rest of this campaign's creatives can no longer be picked
        for (let j = 0; j < pool.length; j++)
          if ((pool[j] as IndexedCreative).campaign.id === c.campaign.id && (weights[j] as number) > 0) {
            total -= weights[j] as number;
            weights[j] = 0;
          }
      }
      return picked;
    },
    rtbCandidates(d, limit, accept, perCampaign = Number.POSITIVE_INFINITY) {
      if (byEcpm.length === 0 || limit <= 0) return [];
      const { mask } = candidates(d);
      const found: IndexedCreative[] = [];
      const taken = new Map<number, number>();
      for (const c of byEcpm) {
        if (found.length >= limit) break;
        if (((mask[c.n >>> 5] as number) & (1 << (c.n & 31))) === 0) continue;
        const n = taken.get(c.campaign.id) ?? 0;
        if (n >= perCampaign || (accept && !accept(c)) || !passes(c, d)) continue;
        taken.set(c.campaign.id, n + 1);
        found.push(c);
      }
      return found;
    },
  };
}

/** A campaign's OpenRTB block when it is enabled and readable (an unreadable one bids nowhere). */
function rtbMicrosOf(o: CampaignOpenRtb | null) {
  const micros = (v: number | null | undefined) =>
    v === null || v === undefined ? null : Number(toMicros(v));
  return { ecpmBid: micros(o?.ecpm_bid), dailyBudgetLimit: micros(o?.daily_budget_limit) };
}

function openRtbOf(raw: unknown): CampaignOpenRtb | null {
  const parsed = campaignOpenRtb.safeParse(raw ?? {});
  return parsed.success && parsed.data.enabled ? parsed.data : null;
}

/**
 * Keeps the current index: built at start, rebuilt (debounced) when the database says something that
 * delivery reads changed, and every minute anyway (dates and hours move on, CTRs change).
 */
export function createAdIndexHolder(
  repo: DeliveryRepository,
  uploadsUrl: (key: string) => string,
  log: { error: (o: object, msg: string) => void },
) {
  let current: AdIndex = buildAdIndex(
    { campaigns: [], banners: [], widgets: [], agencyOf: new Map(), referrerOf: new Map() },
    uploadsUrl,
  );
  let pending: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  const rebuiltListeners: (() => unknown)[] = [];
  // the last failed rebuild (cleared by a good one): the system page says the index is stale and why
  let lastError: { at: number; message: string } | null = null;

  async function rebuild(): Promise<void> {
    if (pending) {
      again = true;
      return pending;
    }
    pending = (async () => {
      do {
        again = false;
        try {
          const data = await repo.loadIndex();
          const performance = await repo.creativePerformance(new Date(Date.now() - 7 * 86_400_000));
          current = buildAdIndex({ ...data, performance }, uploadsUrl);
          lastError = null;
          for (const l of rebuiltListeners) await l();
        } catch (err) {
          lastError = { at: Date.now(), message: (err as Error)?.message ?? String(err) };
          log.error({ err }, 'ad index rebuild failed; the previous index keeps serving');
        }
      } while (again);
    })().finally(() => {
      pending = null;
    });
    return pending;
  }

  return {
    get: () => current,
    /** The last failed rebuild since the last good one, if any. */
    lastError: () => lastError,
    rebuild,
    /** Called after every successful rebuild. */
    onRebuilt(listener: () => unknown) {
      rebuiltListeners.push(listener);
    },
    /** A change was announced: rebuild soon, once for a burst of changes. */
    changed() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void rebuild();
      }, 50);
      timer.unref();
    },
    stop() {
      if (timer) clearTimeout(timer);
    },
  };
}
export type AdIndexHolder = ReturnType<typeof createAdIndexHolder>;
