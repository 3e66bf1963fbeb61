import { z } from 'zod';
import { trackingMacroNames } from './campaigns.ts';
import { id } from './common.ts';
import { moneyTotal } from './money.ts';

/** The click ids ad networks add to a landing URL (Google, Meta, Microsoft, TikTok, X, Yandex, …). */
export const adNetworkClickIds = [
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
  'clickid',
] as const;

const trackingNames = new Set<string>([...adNetworkClickIds, ...trackingMacroNames]);

/**
 * Whether a query parameter tracks a visit: `utm_*`, an ad network's click id, or one our click redirect
 * fills from the campaign's UTM and tracking templates (`trackingMacros`: one list for both).
 */
export const isTrackingParam = (name: string): boolean => {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || trackingNames.has(n);
};

/** POST /api/decode-url (admins): any URL; ours (click, impression, view) are read back from their token. */
export const decodeUrlRequest = z.object({ url: z.string().trim().min(1).max(16_384) });
export type DecodeUrlRequest = z.infer<typeof decodeUrlRequest>;

/**
 * What a URL is: one of our delivery URLs, or any other. `click` is `/click/<T>.<position>`,
 * `markup_click` the same click reported from inside advertiser markup (`/serve/c/<T>.<position>`),
 * `material_click` a click on one of the site's own materials (`/serve/m/<T>.<material id>`), and the
 * exchange's `rtb_click`, `rtb_nurl` (win) and `rtb_burl` (billing) carry a signed bid.
 */
export const decodedKinds = [
  'click',
  'markup_click',
  'material_click',
  'impression',
  'view',
  'rtb_click',
  'rtb_nurl',
  'rtb_burl',
  'other',
] as const;
export type DecodedKind = (typeof decodedKinds)[number];

/**
 * Our token's state: `valid` (signed by us, not expired) or `expired` (past CLICK_TTL: a click still
 * redirects but is not charged). A token that does not read is the answer's `error`.
 */
export const tokenStatuses = ['valid', 'expired'] as const;
export type TokenStatus = (typeof tokenStatuses)[number];

/** One sponsored item the answer showed: what a click on it charges and where it goes. */
export const decodedItem = z.object({
  position: z.number().int(),
  campaign_id: id,
  /** null when the campaign no longer exists. */
  campaign_title: z.string().nullable(),
  banner_id: id,
  banner_title: z.string().nullable(),
  /** What a click costs, fixed when shown (currency units). */
  price: moneyTotal,
  /** An external feed's destination, when the item is not one of our creatives. */
  url: z.string().nullable(),
});

/** The click written for this token (a click URL's own position), if any. */
export const decodedClick = z.object({
  click_id: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
  price: moneyTotal,
  created_at: z.string(),
});

export const decodedToken = z.object({
  status: z.enum(tokenStatuses),
  impression_id: z.string(),
  issued_at: z.string(),
  expires_at: z.string(),
  site_id: id,
  site_title: z.string().nullable(),
  widget_id: id,
  widget_title: z.string().nullable(),
  visitor_id: z.string(),
  country: z.string(),
  city: z.string(),
  device: z.string(),
  os: z.string(),
  browser: z.string(),
  items: z.array(decodedItem),
  /** The item a click URL names; null for beacons. */
  position: z.number().int().nullable(),
  /** The site material a material click names; null otherwise. */
  material_id: id.nullable().default(null),
  /** Whether the answer's impression and viewable beacons were used (their single use, while remembered). */
  impression_counted: z.boolean(),
  view_counted: z.boolean(),
  click: decodedClick.nullable(),
});
export type DecodedToken = z.infer<typeof decodedToken>;

/** A win or billing notice received for a bid (rtb_notices). */
export const decodedNotice = z.object({
  price: moneyTotal,
  /** What the campaign paid for it (billing notices; 0 when its balance did not cover it). */
  charged: moneyTotal,
  created_at: z.string(),
});

/** What an exchange URL's signed bid says: partner, campaign, creative, our bid, and the notices it got. */
export const decodedBid = z.object({
  status: z.enum(tokenStatuses),
  bid_id: z.string(),
  /** `rtb`: an RTB partner's request; `prebid`: a Prebid Server's. */
  channel: z.enum(['rtb', 'prebid']),
  partner_id: id,
  partner_name: z.string().nullable(),
  campaign_id: id,
  campaign_title: z.string().nullable(),
  banner_id: id,
  banner_title: z.string().nullable(),
  /** The site domain or app bundle the request named ('' when none). */
  source: z.string(),
  /** Our bid per 1000 impressions, in platform currency units. */
  bid: moneyTotal,
  /** The bid's currency and its units per 1 platform unit. */
  currency: z.string(),
  rate: z.number(),
  issued_at: z.string(),
  expires_at: z.string(),
  nurl: decodedNotice.nullable(),
  burl: decodedNotice.nullable(),
});
export type DecodedBid = z.infer<typeof decodedBid>;

export const decodedParam = z.object({
  name: z.string(),
  value: z.string(),
  /** A tracking parameter: utm_*, click ids of ad networks (gclid, fbclid, …) or our macros' values. */
  tracking: z.boolean(),
});

export const decodedUrl = z.object({
  kind: z.enum(decodedKinds),
  origin: z.string(),
  path: z.string(),
  params: z.array(decodedParam),
  /** Our token, read; null for other URLs. */
  token: decodedToken.nullable(),
  /** An exchange URL's bid, read; null for other URLs. */
  bid: decodedBid.nullable().default(null),
  /**
   * Why a delivery URL's token did not read: `forged` (well formed, not our signature: altered or made
   * up) or `malformed` (not a token at all); null when it read or the URL is not ours.
   */
  error: z.enum(['forged', 'malformed']).nullable(),
});
export type DecodedUrl = z.infer<typeof decodedUrl>;
