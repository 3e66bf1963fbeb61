import { type DecodedKind, type DecodedUrl, fromMicros } from '@adp/contract';
import type { Shown, TokenSigner } from '../../delivery/tokens.ts';
import { FieldsError } from '../../lib/errors.ts';
import type { SharedStore } from '../../lib/shared-store.ts';
import type { DecodeUrlRepository } from './decode-url.repository.ts';

/** Query parameters that track a visit: UTM, the ad networks' click ids, and our own redirect macros. */
const trackingNames = new Set([
  'gclid',
  'gbraid',
  'wbraid',
  'dclid',
  'fbclid',
  'msclkid',
  'ttclid',
  'twclid',
  'yclid',
  'li_fat_id',
  'mc_cid',
  'mc_eid',
  'click_id',
  'clickid',
  'campaign_id',
  'banner_id',
  'site_id',
  'widget_id',
]);
export const isTrackingParam = (name: string) => {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || trackingNames.has(n);
};

/** Our delivery paths and the kind each names; the token is the path's last segment. */
const deliveryPaths: [prefix: string, kind: Exclude<DecodedKind, 'other'>][] = [
  ['/click/', 'click'],
  ['/serve/i/', 'impression'],
  ['/serve/v/', 'view'],
];

export interface DecodeUrlDeps {
  repo: DecodeUrlRepository;
  signer: TokenSigner;
  store: SharedStore;
  /** Seconds a token lives (CLICK_TTL). */
  clickTtl: number;
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

  async function readToken(shown: Shown, kind: DecodedKind, position: number | null) {
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
      kind === 'click' && position !== null
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
      const base = { origin: url.origin, path: url.pathname, params };
      // our URL by its path (copied from a widget on any host: a proxy, a CDN, a custom domain)
      const match = deliveryPaths.find(([prefix]) => url.pathname.startsWith(prefix));
      const token = match ? decodeURIComponent(url.pathname.slice(match[0].length)) : '';
      if (!match || token.includes('/')) return { kind: 'other', ...base, token: null, error: null };
      const kind = match[1];
      if (kind === 'click') {
        const claim = deps.signer.readClick(token);
        if (typeof claim === 'string')
          return { kind, ...base, token: null, error: claim === 'forged' ? 'forged' : 'malformed' };
        const shown = deps.signer.read(token.slice(0, token.lastIndexOf('.')));
        if (typeof shown === 'string') return { kind, ...base, token: null, error: 'malformed' };
        return { kind, ...base, token: await readToken(shown, kind, claim.position), error: null };
      }
      const shown = deps.signer.read(token);
      if (typeof shown === 'string')
        return { kind, ...base, token: null, error: shown === 'forged' ? 'forged' : 'malformed' };
      return { kind, ...base, token: await readToken(shown, kind, null), error: null };
    },
  };
}
export type DecodeUrlService = ReturnType<typeof createDecodeUrlService>;
