/**
 * The part of OpenRTB 2.5/2.6 (and Native 1.2) the outbound auction speaks: what we send a DSP partner for
 * one widget slot and what we read back. Fields we do not use are allowed through untouched.
 */

export interface SupplyChainNode {
  asi: string;
  sid: string;
  hp: 1;
}

export interface BidRequest {
  id: string;
  imp: {
    id: string;
    tagid: string;
    bidfloor: number;
    bidfloorcur: string;
    secure?: 0 | 1;
    native: { request: string; ver: '1.2' };
    /** The partner's ad position (OpenRTB AdPosition): native imps have no `pos` field of their own. */
    ext: { pos: number };
  }[];
  site: {
    id: string;
    domain: string;
    page?: string;
    publisher: { id: string };
  };
  device: {
    ua: string;
    ip?: string;
    ipv6?: string;
    language?: string;
    devicetype?: number;
    os?: string;
    geo?: { country?: string; city?: string };
  };
  user: { id: string };
  at: 1 | 2;
  tmax: number;
  cur: string[];
  source: {
    tid: string;
    /** OpenRTB 2.6 carries the supply chain here; 2.5 in `source.ext.schain`. */
    schain?: { complete: 1; ver: '1.0'; nodes: SupplyChainNode[] };
    ext?: { schain: { complete: 1; ver: '1.0'; nodes: SupplyChainNode[] } };
  };
}

export interface Bid {
  id: string;
  impid: string;
  price: number;
  adm?: string;
  adid?: string;
  crid?: string;
  nurl?: string;
  lurl?: string;
  burl?: string;
  adomain?: string[];
  [key: string]: unknown;
}

export interface BidResponse {
  id: string;
  seatbid?: { seat?: string; bid: Bid[] }[];
  cur?: string;
  nbr?: number;
}

/** A native ad read from a bid's `adm` (Native 1.2 response, with or without the `native` wrapper). */
export interface NativeAd {
  title: string;
  text: string;
  image: string;
  url: string;
  brand: string;
  imptrackers: string[];
  /** `link.clicktrackers`: called when the ad is clicked (the click itself goes to `url`). */
  clicktrackers: string[];
}

/** Asset ids of our native request: the response's assets are matched back by these. */
export const ASSET = { title: 1, image: 2, text: 3, brand: 4 } as const;

/** The Native 1.2 request of one widget slot: a title, a main image, a description and a sponsor. */
export function nativeRequest(w: number, h: number): string {
  return JSON.stringify({
    ver: '1.2',
    context: 1,
    plcmttype: 4,
    plcmtcnt: 1,
    assets: [
      { id: ASSET.title, required: 1, title: { len: 90 } },
      { id: ASSET.image, required: 1, img: { type: 3, wmin: Math.min(w, 100), hmin: Math.min(h, 100) } },
      { id: ASSET.text, required: 0, data: { type: 2, len: 140 } },
      { id: ASSET.brand, required: 0, data: { type: 1, len: 25 } },
    ],
    eventtrackers: [{ event: 1, methods: [1] }],
  });
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const httpish = (v: string) => /^https?:\/\//i.test(v);

/**
 * Reads a Native 1.2 (or 1.0/1.1) response: the title and image are required, the link must be http(s).
 * Answers null when the markup is not such a response.
 */
export function parseNativeAdm(adm: string): NativeAd | null {
  let doc: unknown;
  try {
    doc = JSON.parse(adm);
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object') return null;
  const root = ((doc as { native?: unknown }).native ?? doc) as Record<string, unknown>;
  const assets = Array.isArray(root.assets) ? (root.assets as Record<string, unknown>[]) : [];
  const link = (root.link ?? {}) as Record<string, unknown>;
  const ad: NativeAd = {
    title: '',
    text: '',
    image: '',
    url: str(link.url),
    brand: '',
    imptrackers: [],
    clicktrackers: [],
  };
  for (const a of assets) {
    if (!a || typeof a !== 'object') continue;
    const title = a.title as { text?: unknown } | undefined;
    const img = a.img as { url?: unknown } | undefined;
    const data = a.data as { value?: unknown; type?: unknown } | undefined;
    if (title) ad.title = str(title.text);
    else if (img) ad.image = str(img.url);
    else if (data) {
      if (a.id === ASSET.brand || data.type === 1) ad.brand = str(data.value);
      else ad.text = str(data.value);
    }
  }
  if (Array.isArray(root.imptrackers)) ad.imptrackers = root.imptrackers.map(str).filter(httpish);
  if (Array.isArray(link.clicktrackers)) ad.clicktrackers = link.clicktrackers.map(str).filter(httpish);
  if (Array.isArray(root.eventtrackers))
    for (const t of root.eventtrackers as Record<string, unknown>[])
      if (t?.event === 1 && t.method === 1 && httpish(str(t.url))) ad.imptrackers.push(str(t.url));
  if (!ad.title || !httpish(ad.image) || !httpish(ad.url)) return null;
  return {
    ...ad,
    title: ad.title.slice(0, 90),
    text: ad.text.slice(0, 140),
    brand: ad.brand.slice(0, 25),
  };
}

/**
 * Fills the standard OpenRTB auction macros of a nurl/lurl/burl. The price is the clearing CPM in
 * currency units.
 */
export function fillAuctionMacros(
  url: string,
  v: {
    auctionId: string;
    bidId: string;
    impId: string;
    seat: string;
    adId: string;
    price: string;
    currency: string;
    loss?: number;
  },
): string {
  const values: Record<string, string> = {
    AUCTION_ID: v.auctionId,
    AUCTION_BID_ID: v.bidId,
    AUCTION_IMP_ID: v.impId,
    AUCTION_SEAT_ID: v.seat,
    AUCTION_AD_ID: v.adId,
    AUCTION_PRICE: v.price,
    AUCTION_CURRENCY: v.currency,
    AUCTION_LOSS: v.loss === undefined ? '' : String(v.loss),
    AUCTION_MBR: '',
  };
  return url.replace(/\$\{(AUCTION_[A-Z_]+)\}/g, (m, name: string) =>
    name in values ? encodeURIComponent(values[name] as string) : m,
  );
}
