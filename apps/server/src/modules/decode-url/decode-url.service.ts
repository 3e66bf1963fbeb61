import {
  type DecodedBid,
  type DecodedKind,
  type DecodedUrl,
  fromMicros,
  isTrackingParam,
} from '@adp/contract';
import type { Shown, TokenSigner } from '../../delivery/tokens.ts';
import { FieldsError } from '../../lib/errors.ts';
import type { SharedStore } from '../../lib/shared-store.ts';
import type { BidSigner } from '../rtb/rtb-tokens.ts';
import type { DecodeUrlRepository } from './decode-url.repository.ts';

/** Our delivery paths and the kind each names; the token is the path's last segment. */
const deliveryPaths: [prefix: string, kind: Exclude<DecodedKind, 'other'>][] = [
  ['/click/', 'click'],
  ['/serve/c/', 'markup_click'],
  ['/serve/m/', 'material_click'],
  ['/serve/i/', 'impression'],
  ['/serve/v/', 'view'],
  ['/rtb/click/', 'rtb_click'],
  ['/rtb/nurl/', 'rtb_nurl'],
  ['/rtb/burl/', 'rtb_burl'],
];

export interface DecodeUrlDeps {
  repo: DecodeUrlRepository;
  signer: TokenSigner;
  store: SharedStore;
  /** Seconds a token lives (CLICK_TTL). */
  clickTtl: number;
  /** The exchange's bid tokens (nurl, burl, click) and the seconds they live. */
  bids: BidSigner;
  bidTtl: number;
  /** PUBLIC_URL: a path without a host is read against it. */
  publicUrl: string;
}

/**
 * Decode-URL (admins): reads any URL's query parameters and, for our click, impression and viewable URLs,
 * what their signed token says (answer, site, widget, visitor, items and prices, when issued, whether
 * expired) and what became of it (beacons used, the click written and why it was or was not charged).
 */
export function createDecodeUrlService(deps: DecodeUrlDeps) {
  function parse(raw: string): URL {
    const text = raw.trim();
    const invalid = () => new FieldsError([{ field: 'url', code: 'url' }]);
    // a path copied without its host (`/click/…`)
    if (text.startsWith('/')) return new URL(text, deps.publicUrl);
    // a host without its scheme (`shop.example/x?y`): a dotted name first
    const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text)
      ? text
      : /^[^/?#\s]+\.[^/?#\s]+([/?#]|$)/.test(text)
        ? `https://${text}`
        : null;
    if (!withScheme || !URL.canParse(withScheme)) throw invalid();
    return new URL(withScheme);
  }

  /** An exchange token: what the bid said, read even when expired (then said so), and its notices. */
  async function readBid(token: string): Promise<DecodedBid | 'forged' | 'malformed'> {
    let claim = deps.bids.open(token);
    let expired = false;
    if (claim === 'expired') {
      // genuine but old: read it as of its own time to show what it said
      expired = true;
      claim = deps.bids.open(token, 0);
    }
    if (typeof claim === 'string') return claim === 'forged' ? 'forged' : 'malformed';
    const channel = (claim as { channel?: string }).channel === 'prebid' ? 'prebid' : 'rtb';
    const [partnerName, campaignTitles, bannerTitles, notices] = await Promise.all([
      deps.repo.partnerName(channel, claim.partnerId),
      deps.repo.titles('campaigns', [claim.campaignId]),
      deps.repo.titles('banners', [claim.bannerId]),
      deps.repo.noticesOf(claim.bidId),
    ]);
    const notice = (kind: 'nurl' | 'burl') => {
      const n = notices.find((x) => x.kind === kind);
      return n
        ? {
            price: fromMicros(n.price),
            charged: fromMicros(n.charged),
            created_at: n.createdAt.toISOString(),
          }
        : null;
    };
    return {
      status: expired ? 'expired' : 'valid',
      bid_id: claim.bidId,
      channel,
      partner_id: String(claim.partnerId),
      partner_name: partnerName,
      campaign_id: String(claim.campaignId),
      campaign_title: campaignTitles.get(claim.campaignId) ?? null,
      banner_id: String(claim.bannerId),
      banner_title: bannerTitles.get(claim.bannerId) ?? null,
      source: claim.source,
      bid: fromMicros(BigInt(claim.bid)),
      currency: claim.cur,
      rate: claim.rate,
      issued_at: new Date(claim.issuedAt * 1000).toISOString(),
      expires_at: new Date((claim.issuedAt + deps.bidTtl) * 1000).toISOString(),
      nurl: notice('nurl'),
      burl: notice('burl'),
    };
  }

  async function readToken(
    shown: Shown,
    kind: DecodedKind,
    position: number | null,
    materialId: number | null = null,
  ) {
    const [siteTitles, widgetTitles, campaignTitles, bannerTitles] = await Promise.all([
      deps.repo.titles('sites', [shown.siteId]),
      deps.repo.titles('widgets', [shown.widgetId]),
      deps.repo.titles('campaigns', [...new Set(shown.items.map((i) => i.campaignId))]),
      deps.repo.titles('banners', [...new Set(shown.items.map((i) => i.bannerId))]),
    ]);
    const [impression, view] = await Promise.all([
      deps.store.has(`imp:${shown.impressionId}`),
      deps.store.has(`view:${shown.impressionId}`),
    ]);
    const click =
      (kind === 'click' || kind === 'markup_click') && position !== null
        ? await deps.repo.clickOf(`${shown.impressionId}:${position}`)
        : null;
    const issued = shown.issuedAt;
    return {
      status: deps.signer.expired(issued) ? ('expired' as const) : ('valid' as const),
      impression_id: shown.impressionId,
      issued_at: new Date(issued * 1000).toISOString(),
      expires_at: new Date((issued + deps.clickTtl) * 1000).toISOString(),
      site_id: String(shown.siteId),
      site_title: siteTitles.get(shown.siteId) ?? null,
      widget_id: String(shown.widgetId),
      widget_title: widgetTitles.get(shown.widgetId) ?? null,
      visitor_id: shown.visitorId,
      country: shown.country,
      city: shown.city ?? '',
      device: shown.device,
      os: shown.os,
      browser: shown.browser,
      items: shown.items.map((it, i) => ({
        position: i,
        campaign_id: String(it.campaignId),
        campaign_title: campaignTitles.get(it.campaignId) ?? null,
        banner_id: String(it.bannerId),
        banner_title: bannerTitles.get(it.bannerId) ?? null,
        price: fromMicros(it.price),
        url: it.url ?? null,
      })),
      position,
      material_id: materialId === null ? null : String(materialId),
      impression_counted: impression,
      view_counted: view,
      click: click
        ? {
            click_id: click.clickId,
            status: click.status,
            reason: click.reason,
            price: fromMicros(click.price),
            created_at: click.createdAt.toISOString(),
          }
        : null,
    };
  }

  return {
    async decode(raw: string): Promise<DecodedUrl> {
      const url = parse(raw);
      const params = [...url.searchParams].map(([name, value]) => ({
        name,
        value,
        tracking: isTrackingParam(name),
      }));
      const base = { origin: url.origin, path: url.pathname, params, token: null, bid: null, error: null };
      // our URL by its path (copied from a widget on any host: a proxy, a CDN, a custom domain)
      const match = deliveryPaths.find(([prefix]) => url.pathname.startsWith(prefix));
      let token = '';
      try {
        token = match ? decodeURIComponent(url.pathname.slice(match[0].length)) : '';
      } catch {
        // a broken percent-escape: not a token of ours
      }
      if (!match || token.includes('/')) return { ...base, kind: 'other' };
      const kind = match[1];
      const refused = (why: string) => ({
        ...base,
        kind,
        error: why === 'forged' ? ('forged' as const) : ('malformed' as const),
      });
      if (kind === 'rtb_click' || kind === 'rtb_nurl' || kind === 'rtb_burl') {
        const bid = await readBid(token);
        return typeof bid === 'string' ? refused(bid) : { ...base, kind, bid };
      }
      if (kind === 'click' || kind === 'markup_click') {
        const claim = deps.signer.readClick(token);
        if (typeof claim === 'string') return refused(claim);
        const shown = deps.signer.read(token.slice(0, token.lastIndexOf('.')));
        if (typeof shown === 'string') return refused('malformed');
        return { ...base, kind, token: await readToken(shown, kind, claim.position) };
      }
      if (kind === 'material_click') {
        // `<T>.<material id>`: the answer's token and one of the site's materials it showed
        const dot = token.lastIndexOf('.');
        const id = dot > 0 ? token.slice(dot + 1) : '';
        if (!/^\d{1,15}$/.test(id)) return refused('malformed');
        const shown = deps.signer.read(token.slice(0, dot));
        if (typeof shown === 'string') return refused(shown);
        if (!shown.materials?.includes(Number(id))) return refused('malformed');
        return { ...base, kind, token: await readToken(shown, kind, null, Number(id)) };
      }
      const shown = deps.signer.read(token);
      if (typeof shown === 'string') return refused(shown);
      return { ...base, kind, token: await readToken(shown, kind, null) };
    },
  };
}
export type DecodeUrlService = ReturnType<typeof createDecodeUrlService>;
