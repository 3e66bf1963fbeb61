import { randomUUID } from 'node:crypto';
import type { Mgidv2Config } from './config.ts';
import { cleanItems, isRecord, MAX_TEXT, type RawItem, readJson } from './items.ts';
import { type FeedAdapter, FeedError } from './types.ts';

/** Asset ids of our native request; the answer refers to them. */
const ASSET = { title: 1, image: 2, sponsored: 3, desc: 4 } as const;

const nativeRequest = JSON.stringify({
  ver: '1.2',
  plcmttype: 1,
  assets: [
    { id: ASSET.title, required: 1, title: { len: MAX_TEXT } },
    { id: ASSET.image, required: 1, img: { type: 3, wmin: 300, hmin: 200 } },
    { id: ASSET.sponsored, required: 0, data: { type: 1 } },
    { id: ASSET.desc, required: 0, data: { type: 2, len: MAX_TEXT } },
  ],
});

function hostOf(pageUrl: string | null): string | undefined {
  if (!pageUrl) return undefined;
  try {
    return new URL(pageUrl).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** Native 1.x markup: `{native: {...}}` (1.0/1.1) or the object itself (1.2), as a string or object. */
function nativeItem(adm: unknown): RawItem | null {
  let markup: unknown = adm;
  if (typeof adm === 'string') {
    try {
      markup = JSON.parse(adm);
    } catch {
      return null;
    }
  }
  if (isRecord(markup) && isRecord(markup.native)) markup = markup.native;
  if (!isRecord(markup) || !Array.isArray(markup.assets)) return null;
  const raw: RawItem = {
    title: undefined,
    image: undefined,
    url: isRecord(markup.link) ? markup.link.url : undefined,
  };
  for (const asset of markup.assets) {
    if (!isRecord(asset)) continue;
    if (asset.id === ASSET.title && isRecord(asset.title)) raw.title = asset.title.text;
    else if (asset.id === ASSET.image && isRecord(asset.img)) raw.image = asset.img.url;
    else if (asset.id === ASSET.sponsored && isRecord(asset.data)) raw.brand = asset.data.value;
    else if (asset.id === ASSET.desc && isRecord(asset.data)) raw.text = asset.data.value;
    // an asset's own link wins over the ad's, per the Native spec
    if (isRecord(asset.link) && typeof asset.link.url === 'string' && asset.id === ASSET.title)
      raw.url = asset.link.url;
  }
  return raw;
}

/**
 * MGID's OpenRTB endpoint, the one its Prebid.js and Prebid Server adapters call: `POST
 * https://prebid.mgid.com/prebid/<account id>` with an OpenRTB 2.5 request, one native imp per slot
 * (`tagid` = placement id), answered by an OpenRTB bid response whose `adm` is Native markup. MGID
 * bids a CPM price, not a price per click, so `cpc` stays null. No `device.geo`: OpenRTB wants
 * alpha-3 countries and MGID locates the visitor by `device.ip` anyway.
 */
export const mgidv2: FeedAdapter<Mgidv2Config> = {
  processor: 'mgidv2',
  buildRequest(config, request) {
    const url = new URL(encodeURIComponent(config.account_id), config.endpoint);
    const imp = Array.from({ length: request.count }, (_, i) => ({
      id: String(i + 1),
      ...(config.placement_id ? { tagid: config.placement_id } : {}),
      native: { ver: '1.2', request: nativeRequest },
      ...(config.bidfloor !== undefined ? { bidfloor: config.bidfloor, bidfloorcur: 'USD' } : {}),
      secure: request.pageUrl?.startsWith('http:') ? 0 : 1,
    }));
    const domain = hostOf(request.pageUrl);
    const body = {
      id: randomUUID(),
      imp,
      site: {
        ...(request.pageUrl ? { page: request.pageUrl } : {}),
        ...(domain ? { domain } : {}),
      },
      device: {
        ua: request.userAgent,
        ip: request.ip,
        ...(request.language ? { language: request.language } : {}),
      },
      user: { id: request.visitorId },
      cur: ['USD'],
      at: 1,
    };
    return {
      url: url.toString(),
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-openrtb-version': '2.5' },
      body: JSON.stringify(body),
    };
  },
  parse(status, body) {
    const json = readJson(status, body);
    if (json === undefined) return [];
    if (!isRecord(json)) throw new FeedError('partner', 'the bid response is not an object');
    if (json.seatbid === undefined || json.seatbid === null) return [];
    if (!Array.isArray(json.seatbid)) throw new FeedError('partner', 'seatbid is not a list');
    const raws: RawItem[] = [];
    for (const seat of json.seatbid) {
      if (!isRecord(seat) || !Array.isArray(seat.bid)) continue;
      for (const bid of seat.bid) {
        if (!isRecord(bid)) continue;
        const raw = nativeItem(bid.adm);
        if (raw) raws.push(raw);
      }
    }
    return cleanItems(raws);
  },
};
