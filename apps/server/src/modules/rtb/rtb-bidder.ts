import { platformCurrency, targetCtrAllows } from '@adp/contract';
import countries from 'i18n-iso-countries';
import type {
  AdIndex,
  CreativeImage,
  IndexedCampaign,
  IndexedCreative,
  RtbDecision,
} from '../../delivery/ad-index.ts';
import type { VisitorReader } from '../../delivery/visitor/visitor.ts';
import type { RatesCache } from '../currencies/rates.ts';
import {
  type BidImp,
  type BidRequest,
  type NativeAsset,
  type NativeRequest,
  parseNativeRequest,
} from './openrtb.ts';
import { type BidSigner, newBidId } from './rtb-tokens.ts';

/** Our seat in every answer; `wseat` must allow it and `bseat` must not name it. */
export const RTB_SEAT = 'adp';
/** Creatives the bidder weighs per request at most, and per imp of the request. */
const MAX_CANDIDATES = 200;
const CANDIDATES_PER_IMP = 8;

export interface BidderDeps {
  index: () => AdIndex;
  visitors: VisitorReader;
  rates: RatesCache;
  signer: BidSigner;
  publicUrl: string;
  /** Whether a campaign may spend now (its daily clicks and budget: delivery's counters). */
  mayServe: (c: IndexedCampaign) => boolean;
  /** Micro-units the exchange charged today: per campaign, per partner (the shared counters' local copy). */
  spentToday: { campaign: (id: number) => number; partner: (id: number) => number };
}

/** Who asks: an RTB partner (`/rtb/openrtb2`) or a Prebid Server (`/rtb/prebid`, no daily limit). */
export interface BidderPartner {
  id: number;
  dailyLimit: bigint | null;
}
export type BidChannel = 'rtb' | 'prebid';

/** What a request was (its country and device as read) and which creatives bid: the statistics' keys. */
export interface BidTrace {
  country: string | null;
  device: string | null;
  placed: { campaignId: number; bannerId: number }[];
}

export type BidOutcome =
  /** `json`: the bid response as JSON text, joined from its parts (the markup escaped once per creative). */
  | { status: 200; json: string; bids: number; trace?: BidTrace }
  | { status: 204; reason: string; trace?: BidTrace };

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The host of a URL, lowercased, or '' (the advertiser's domain for adomain and badv). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}
/** A creative's advertiser domain, parsed once per index build. */
const domains = new WeakMap<IndexedCreative, string>();
function domainOf(c: IndexedCreative): string {
  let d = domains.get(c);
  if (d === undefined) {
    d = hostOf(c.url);
    domains.set(c, d);
  }
  return d;
}
const domainListed = (host: string, list: readonly string[]) =>
  host !== '' &&
  list.some((d) => {
    const x = d.toLowerCase().replace(/^www\./, '');
    return host === x || host.endsWith(`.${x}`);
  });

/** Whether a campaign's IAB categories meet `bcat`: the code itself or its tier-1 parent (`IAB7` blocks `IAB7-39`). */
function categoryBlocked(categories: readonly string[] | undefined, bcat: readonly string[]): boolean {
  if (!categories?.length) return false;
  return categories.some((c) => bcat.includes(c) || bcat.includes(c.split('-')[0] as string));
}

/** A request without a device: nothing known. */
const noVisitor = {
  ip: '0.0.0.0',
  country: null,
  cityId: null,
  city: null,
  device: null,
  os: null,
  browser: null,
  browserLanguage: null,
  bot: false,
} satisfies ReturnType<VisitorReader['read']>;

/** Text PostgreSQL can store: no NUL, no lone surrogate (a source is signed into nurl/burl and written). */
const storable = (text: string) =>
  // the usual domain or bundle has neither: one scan instead of two replacements
  !/[\0\uD800-\uDFFF]/.test(text)
    ? text
    : text
        .replace(/\0/g, '')
        .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** The source a request names: the site's domain (or its page's host), the app's bundle, else ''. */
export function sourceOf(r: BidRequest): string {
  if (r.site)
    return storable((r.site.domain || (r.site.page ? hostOf(r.site.page.trim()) : '') || '').toLowerCase());
  if (r.app) return storable((r.app.bundle || r.app.domain || '').toLowerCase());
  return '';
}

/** ISO alpha-3 (OpenRTB) or alpha-2 country code → our alpha-2, or null. */
function countryOf(code: string | undefined): string | null {
  if (!code) return null;
  const c = code.trim().toUpperCase();
  if (c.length === 2) return countries.isValid(c) ? c : null;
  return (c.length === 3 && countries.alpha3ToAlpha2(c)) || null;
}

/**
 * The size of the creative's image that fits a native image asset (Native 1.2): with `wmin`/`hmin` any
 * size at least that large (the client rescales), the smallest; with `w`/`h` alone that exact size, or one
 * of the same shape (within 5 %) at least as large; with neither, by the asset's type (an icon the smallest,
 * a main image the largest). Every size is WebP: a placement whose `mimes` leave it out gets none.
 */
export function imageFor(
  a: Extract<NativeAsset, { kind: 'img' }>,
  images: readonly CreativeImage[],
): CreativeImage | undefined {
  if (a.mimes.length && !images.some((i) => a.mimes.includes(i.mime))) return undefined;
  if (a.wmin > 0 || a.hmin > 0) return images.find((i) => i.w >= a.wmin && i.h >= a.hmin);
  if (a.w > 0 && a.h > 0) {
    const exact = images.find((i) => i.w === a.w && i.h === a.h);
    if (exact) return exact;
    const shape = a.w / a.h;
    return images.find((i) => i.w >= a.w && i.h >= a.h && Math.abs(i.w / i.h / shape - 1) <= 0.05);
  }
  return a.type === 1 ? images[0] : images[images.length - 1];
}

/** What the native answer can put in an asset, or null when a required asset cannot be filled. */
function nativeAssets(req: NativeRequest, c: IndexedCreative): Record<string, unknown>[] | null {
  const out: Record<string, unknown>[] = [];
  const fill = (a: NativeAsset): Record<string, unknown> | null => {
    switch (a.kind) {
      case 'title':
        return { id: a.id, title: { text: c.title.slice(0, a.len > 0 ? a.len : 90) } };
      case 'img': {
        // the size sent is the size of the file named: a buyer's layout trusts it
        const image = imageFor(a, c.images);
        return image ? { id: a.id, img: { url: image.url, w: image.w, h: image.h } } : null;
      }
      case 'data': {
        // 1 sponsored by, 2 description, 12 call to action; other data types we do not have
        const value =
          a.type === 1 ? c.campaign.brand : a.type === 2 ? c.text : a.type === 12 ? 'Learn more' : '';
        return value ? { id: a.id, data: { value: a.len > 0 ? value.slice(0, a.len) : value } } : null;
      }
      default:
        return null;
    }
  };
  for (const a of req.assets) {
    const filled = fill(a);
    if (filled) out.push(filled);
    else if (a.required) return null;
  }
  return out.length ? out : null;
}

/**
 * The inbound bidder: for each banner or native imp of the request, the best creative (highest eCPM bid)
 * of the campaigns with OpenRTB enabled that pass every rule; video and audio imps get no bid. Reads memory
 * only (the ad index, counters, rates, partners); each bid carries signed nurl/burl URLs.
 */
export function createBidder(deps: BidderDeps) {
  // our public URL as it stands in the answer's JSON text, and in the banner markup's (HTML, then JSON)
  const jsonPublicUrl = jsonText(deps.publicUrl);
  const htmlPublicUrl = escapeHtml(deps.publicUrl);
  /**
   * A banner as a JSON string: the creative's image and title linked to our click URL, with the billing
   * pixel; the URLs are our public URL (escaped once) and the token (base64url and '.': nothing to escape).
   */
  const bannerAdmJson = (c: IndexedCreative, size: { w: number; h: number }, token: string) =>
    `"${jsonText(`<a href="${htmlPublicUrl}/rtb/click/${token}" target="_blank" rel="noopener" style="display:block;width:${size.w}px;height:${size.h}px;overflow:hidden;position:relative">`)}${bannerBody(c)}${jsonText(`<img src="${htmlPublicUrl}/rtb/burl/${token}?price=\${AUCTION_PRICE}" width="1" height="1" style="display:none" alt="">`)}"`;
  return function bid(
    r: BidRequest,
    partner: BidderPartner,
    version: string,
    channel: BidChannel = 'rtb',
  ): BidOutcome {
    if (r.wseat?.length && !r.wseat.includes(RTB_SEAT)) return { status: 204, reason: 'seat_not_allowed' };
    if (r.bseat?.includes(RTB_SEAT)) return { status: 204, reason: 'seat_blocked' };
    // the answer's currency: ours when allowed (or unsaid), else the first listed one we have a rate for
    let cur = platformCurrency;
    let rate = 1;
    if (r.cur?.length && !r.cur.includes(platformCurrency)) {
      const known = r.cur.find((c) => deps.rates.get(c) !== undefined);
      if (!known) return { status: 204, reason: 'currency_unsupported' };
      cur = known;
      rate = Number(deps.rates.get(known));
    }
    const source = sourceOf(r);
    const device = r.device;
    // the device and the place as delivery reads them (GeoIP, user agent); nothing to read without a device
    const visitor = device
      ? deps.visitors.read({
          ip: device.ip || device.ipv6 || '0.0.0.0',
          headers: {
            'user-agent': device.ua ?? '',
            ...(device.language ? { 'accept-language': device.language } : {}),
          },
        })
      : noVisitor;
    // no bot verdict here: the visitor reader's rules are for page visits (an exchange sends test and
    // shortened user agents), and exchanges filter invalid traffic before they ask
    const decision: RtbDecision = {
      now: new Date(),
      device: visitor.device,
      os: visitor.os,
      browser: visitor.browser,
      browserLanguage: visitor.browserLanguage,
      userLanguage: visitor.browserLanguage,
      country: countryOf(device?.geo?.country) ?? countryOf(r.user?.geo?.country) ?? visitor.country,
      cityId: visitor.cityId,
      siteId: null,
      widgetType: null,
      siteLanguage: null,
      ip: visitor.ip === '0.0.0.0' ? null : visitor.ip,
      audiences: [],
      dspPartnerId: channel === 'rtb' ? String(partner.id) : null,
      prebidPartnerId: channel === 'prebid' ? String(partner.id) : null,
      seen: { impressions: 0, clicks: 0 },
      mayServe: deps.mayServe,
      seenOf: () => ({ impressions: 0, clicks: 0 }),
    };
    const badv = r.badv ?? [];
    const bcat = (r.bcat ?? []).map((x) => x.trim().toUpperCase()).filter(Boolean);
    const trace: BidTrace = { country: decision.country, device: visitor.device, placed: [] };
    const pid = String(partner.id);
    const partnerLeft =
      partner.dailyLimit === null
        ? Number.POSITIVE_INFINITY
        : Number(partner.dailyLimit) - deps.spentToday.partner(partner.id);
    // the campaigns' own rules, highest bid first; a few per imp is enough (an imp may refuse some), and
    // at most two creatives per campaign, so a request of several imps meets several campaigns
    const eligible = deps.index().rtbCandidates(
      decision,
      Math.min(MAX_CANDIDATES, r.imp.length * CANDIDATES_PER_IMP),
      (c) => {
        const o = c.campaign.openrtb;
        const m = c.campaign.rtbMicros;
        if (!o || o.ecpm_bid === null || !m || m.ecpmBid === null) return false;
        // integer micro-units, converted once by the index
        const cpm = m.ecpmBid;
        // a target CTR: passed by the owner's check, or on auto not failed by the hourly one
        if (o.target_ctr !== null && !targetCtrAllows(o.target_ctr_auto, c.campaign.targetCtrStatus))
          return false;
        // the DSP lists name RTB partners: a campaign with a whitelist bids only to them
        if (o.dsp_whitelist.length && (channel !== 'rtb' || !o.dsp_whitelist.includes(pid))) return false;
        if (channel === 'rtb' && o.dsp_blacklist.includes(pid)) return false;
        if (o.source_whitelist.length && !domainListed(source, o.source_whitelist)) return false;
        if (domainListed(source, o.source_blacklist)) return false;
        if (m.dailyBudgetLimit !== null) {
          const left = m.dailyBudgetLimit - deps.spentToday.campaign(c.campaign.id);
          if (left < cpm / 1000) return false;
        }
        if (partnerLeft < cpm / 1000) return false;
        if (badv.length && domainListed(domainOf(c), badv)) return false;
        if (bcat.length && categoryBlocked(c.campaign.iabCategories, bcat)) return false;
        return true;
      },
      2,
    );
    if (eligible.length === 0) return { status: 204, reason: 'no_campaign', trace };

    const bids: string[] = [];
    const used = new Set<number>();
    const issuedAt = Math.floor(Date.now() / 1000);
    for (const imp of r.imp) {
      const made = bidFor(imp);
      if (made) bids.push(made);
    }
    if (bids.length === 0) return { status: 204, reason: 'no_matching_imp', trace };
    return {
      status: 200,
      bids: bids.length,
      trace,
      json: `{"id":${JSON.stringify(r.id)},"seatbid":[{"seat":"${RTB_SEAT}","bid":[${bids.join(',')}]}],"bidid":"${newBidId()}","cur":${JSON.stringify(cur)}}`,
    };

    /** One bid as JSON text (its fields in the order of the OpenRTB spec's table), or null. */
    function bidFor(imp: BidImp): string | null {
      const nativeReq = imp.native ? parseNativeRequest(imp.native.request, imp.native.ver) : null;
      const banner = imp.banner;
      if (!nativeReq && !banner) return null; // video, audio, or a native request we cannot read
      const floorRate =
        imp.bidfloorcur && imp.bidfloorcur !== cur
          ? imp.bidfloorcur === platformCurrency
            ? 1 / rate
            : Number(deps.rates.get(imp.bidfloorcur) ?? Number.NaN) / rate
          : 1;
      const battr = [...(imp.banner?.battr ?? []), ...(imp.native?.battr ?? [])];
      for (const c of eligible) {
        if (used.has(c.campaign.id)) continue;
        const ecpmMicros = c.campaign.rtbMicros?.ecpmBid ?? 0;
        // the OpenRTB price is a decimal of the partner's currency (4 places); our books keep micro-units
        const price = Math.round((ecpmMicros / 100) * rate) / 10_000;
        if (!Number.isFinite(price)) continue;
        // a floor in a currency we cannot convert: no bid rather than a guess
        if (imp.bidfloor && !(price >= imp.bidfloor / floorRate)) continue;
        if (battr.length && c.video && battr.includes(6)) continue; // our video creatives may autoplay
        const bidId = newBidId();
        const token = deps.signer.sign({
          bidId,
          partnerId: partner.id,
          campaignId: c.campaign.id,
          bannerId: c.id,
          source,
          bid: ecpmMicros,
          cur,
          rate,
          issuedAt,
          ...(channel === 'prebid'
            ? { channel, country: decision.country ?? '', device: visitor.device ?? '' }
            : {}),
        });
        const burl = `${deps.publicUrl}/rtb/burl/${token}?price=\${AUCTION_PRICE}`;
        // the markup as JSON text: a string's quotes and escapes (its JSON.stringify) cost a bid more than
        // joining parts escaped once
        let adm: string | null = null;
        let size: { w: number; h: number } | null = null;
        let mtype = 1;
        if (nativeReq) {
          const assets = nativeAssets(nativeReq, c);
          if (assets) {
            adm = JSON.stringify(nativeAdm(nativeReq, assets, `${deps.publicUrl}/rtb/click/${token}`, burl));
            mtype = 4;
          }
        }
        if (adm === null && banner && c.image) {
          const f = banner.format?.find((x) => x.w && x.h);
          size = { w: banner.w || f?.w || 300, h: banner.h || f?.h || 250 };
          adm = bannerAdmJson(c, size, token);
        }
        if (adm === null) continue;
        used.add(c.campaign.id);
        trace.placed.push({ campaignId: c.campaign.id, bannerId: c.id });
        const domain = domainOf(c);
        const cat = c.campaign.iabCategories ?? [];
        let json =
          `{"id":"${bidId}","impid":${JSON.stringify(imp.id)},"price":${price},"adid":"${c.id}",` +
          `"nurl":"${jsonPublicUrl}/rtb/nurl/${token}?price=\${AUCTION_PRICE}",` +
          `"burl":"${jsonPublicUrl}/rtb/burl/${token}?price=\${AUCTION_PRICE}","adm":${adm}`;
        if (domain) json += `,"adomain":[${JSON.stringify(domain)}]`;
        json += `,"cid":"${c.campaign.id}","crid":"${c.id}"`;
        if (cat.length) json += `,"cat":${JSON.stringify(cat)}`;
        if (size) json += `,"w":${size.w},"h":${size.h}`;
        if (version.startsWith('2.6')) json += `,"mtype":${mtype}`;
        // a Prebid Server adapter reads the bid's media type here
        if (channel === 'prebid') json += `,"ext":{"prebid":{"type":"${mtype === 4 ? 'native' : 'banner'}"}}`;
        return `${json}}`;
      }
      return null;
    }
  };
}

/** Text as it stands inside a JSON string (its JSON.stringify without the quotes). */
const jsonText = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * A creative's banner markup between its link and its billing pixel (image and title, escaped for HTML,
 * then as JSON text), made once per index build: the bids of a busy creative only join it with their URLs.
 */
const bannerParts = new WeakMap<IndexedCreative, string>();
function bannerBody(c: IndexedCreative): string {
  let body = bannerParts.get(c);
  if (body === undefined) {
    const title = escapeHtml(c.title);
    body = jsonText(
      `<img src="${escapeHtml(c.image ?? '')}" alt="${title}" style="width:100%;height:100%;object-fit:cover">` +
        `<span style="position:absolute;left:0;right:0;bottom:0;padding:4px;background:rgba(0,0,0,.6);color:#fff;font:13px sans-serif">${title}</span></a>`,
    );
    bannerParts.set(c, body);
  }
  return body;
}

/** Native 1.2 markup (eventtrackers), or 1.0/1.1 (the `native` wrapper and imptrackers). */
function nativeAdm(
  req: NativeRequest,
  assets: Record<string, unknown>[],
  click: string,
  burl: string,
): string {
  const legacy = req.ver !== '1.2';
  const body: Record<string, unknown> = { ver: req.ver, assets, link: { url: click } };
  if (legacy) body.imptrackers = [burl];
  else body.eventtrackers = req.imgImpressionTracker ? [{ event: 1, method: 1, url: burl }] : [];
  if (!legacy && !req.imgImpressionTracker) body.imptrackers = [burl];
  return JSON.stringify(legacy ? { native: body } : body);
}
