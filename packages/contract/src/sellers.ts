import { z } from 'zod';

/** IAB sellers.json 1.0 (GET /sellers.json): the platform's publishers as sellers. */
export const sellerType = z.enum(['PUBLISHER', 'INTERMEDIARY', 'BOTH']);
export const seller = z.object({
  seller_id: z.string(),
  name: z.string().optional(),
  domain: z.string().optional(),
  seller_type: sellerType,
  is_confidential: z.union([z.literal(0), z.literal(1)]),
});
export const sellersJson = z.object({
  contact_email: z.string(),
  version: z.literal('1.0'),
  sellers: z.array(seller),
});
export type SellersJson = z.infer<typeof sellersJson>;

/**
 * GET /api/sites/<id>/adstxt: the line the site's owner puts in its ads.txt
 * (`<our domain>, <seller_id>, DIRECT[, <certification authority id>]`) and where it is checked.
 */
export const adsTxtLine = z.object({ line: z.string(), seller_id: z.string(), url: z.string() });
export type AdsTxtLine = z.infer<typeof adsTxtLine>;

/**
 * POST /api/sites/<id>/adstxt/check: fetches the site's ads.txt (outbound guard: timeout, size limit)
 * and says whether the line is there. `error` says why the file could not be read.
 */
export const adsTxtCheck = z.object({
  found: z.boolean(),
  url: z.string(),
  status: z.number().int().nullable(),
  error: z.enum(['unreachable', 'timeout', 'too_large', 'http_status', 'blocked_address']).nullable(),
  checked_at: z.string(),
});
export type AdsTxtCheck = z.infer<typeof adsTxtCheck>;
