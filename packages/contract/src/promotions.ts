import { z } from 'zod';
import { httpUrl, id, instant, patchOf, status } from './common.ts';

/** A publisher's own promotion on its site (e.g. a special, a subscription drive). */
export const promotionInput = z.strictObject({
  title: z.string().trim().min(1).max(255),
  site_id: id,
  description: z.string().trim().max(2000).default(''),
  url: httpUrl,
  status: status.default('active'),
  starts_at: instant.nullable().default(null),
  ends_at: instant.nullable().default(null),
});
export const promotionUpdate = patchOf(promotionInput.omit({ site_id: true }));
export const promotion = promotionInput.extend({
  _id: id,
  user_id: id,
  pages_count: z.number().int(),
  created_at: z.string(),
});
export type Promotion = z.infer<typeof promotion>;

/** A landing page of a promotion, shown by the promotionpagerandom processor. */
export const promotionPageInput = z.strictObject({
  title: z.string().trim().min(1).max(60),
  promotion_id: id,
  text: z.string().trim().max(60).default(''),
  url: httpUrl,
  status: status.default('active'),
});
export const promotionPageUpdate = patchOf(promotionPageInput.omit({ promotion_id: true }));
export const promotionPage = promotionPageInput.extend({
  _id: id,
  user_id: id,
  site_id: id,
  /** Public URL of the uploaded image, null until one is uploaded. */
  image: z.string().nullable(),
  created_at: z.string(),
});
export type PromotionPage = z.infer<typeof promotionPage>;
