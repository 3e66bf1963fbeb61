import { z } from 'zod';
import { id } from './common.ts';
import { moneyTotal } from './money.ts';

/** POST /api/decode-url (admins): any URL; ours (click, impression, view) are read back from their token. */
export const decodeUrlRequest = z.object({ url: z.string().trim().min(1).max(16_384) });
export type DecodeUrlRequest = z.infer<typeof decodeUrlRequest>;

/** What a URL is: one of our delivery URLs, or any other. */
export const decodedKinds = ['click', 'impression', 'view', 'other'] as const;
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
  /** Whether the answer's impression and viewable beacons were used (their single use, while remembered). */
  impression_counted: z.boolean(),
  view_counted: z.boolean(),
  click: decodedClick.nullable(),
});
export type DecodedToken = z.infer<typeof decodedToken>;

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
  /**
   * Why a delivery URL's token did not read: `forged` (well formed, not our signature: altered or made
   * up) or `malformed` (not a token at all); null when it read or the URL is not ours.
   */
  error: z.enum(['forged', 'malformed']).nullable(),
});
export type DecodedUrl = z.infer<typeof decodedUrl>;
