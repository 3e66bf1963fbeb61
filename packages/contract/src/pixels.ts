import { z } from 'zod';
import { id, patchOf } from './common.ts';

/** A remarketing pixel: the audience of visitors of the advertiser's pages. */
export const pixelInput = z.strictObject({
  title: z.string().trim().min(1).max(255),
  /** On every page of the site (true) or only where pasted (e.g. a checkout page). */
  all_pages: z.boolean().default(true),
  user_id: id.optional(),
});
export type PixelInput = z.infer<typeof pixelInput>;
export const pixelUpdate = patchOf(pixelInput.omit({ user_id: true }));
export const pixel = pixelInput.omit({ user_id: true }).extend({
  _id: id,
  user_id: id,
  /** The snippet to paste into the advertiser's pages. */
  code: z.string(),
  visitors: z.number().int(),
  created_at: z.string(),
});
export type Pixel = z.infer<typeof pixel>;
