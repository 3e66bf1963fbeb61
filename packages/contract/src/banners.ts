import { z } from 'zod';
import { httpUrl, id, patchOf, status } from './common.ts';
import { targeting, targetingPatch } from './targeting.ts';
import { moderation } from './widgets.ts';

/** A creative: the ad a widget shows. Title and text are at most 60 characters (SPEC.md section 5). */
export const bannerInput = z.strictObject({
  campaign_id: id,
  title: z.string().trim().min(1).max(60),
  text: z.string().trim().max(60).default(''),
  url: httpUrl,
  status: status.default('active'),
  targeting: targeting.default(() => targeting.parse({})),
});
export type BannerInput = z.infer<typeof bannerInput>;
export const bannerUpdate = patchOf(bannerInput.omit({ campaign_id: true }), { targeting: targetingPatch });

/** The sizes an uploaded image is resized to (cover crop), for the widget layouts. */
export const bannerImageFormats = {
  square: [300, 300],
  landscape: [640, 360],
  wide: [1200, 628],
  thumb: [150, 100],
} as const;
export type BannerImageFormat = keyof typeof bannerImageFormats;

export const banner = bannerInput.extend({
  _id: id,
  user_id: id,
  moderation,
  moderation_reason: z.string().nullable(),
  /** Public URLs of the resized images, null until an image is uploaded. */
  images: z
    .record(
      z.enum(Object.keys(bannerImageFormats) as [BannerImageFormat, ...BannerImageFormat[]]),
      z.string(),
    )
    .nullable(),
  video: z.string().nullable(),
  created_at: z.string(),
});
export type Banner = z.infer<typeof banner>;
