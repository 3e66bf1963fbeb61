import { z } from 'zod';
import { id, patchOf } from './common.ts';

/** Comma-separated category names, no spaces (SPEC.md section 5). */
export const categoryBlacklist = z
  .string()
  .max(2000)
  .regex(/^$|^[^,\s]+(,[^,\s]+)*$/, { message: 'category_blacklist' });

export const socialGroupInput = z.strictObject({
  title: z.string().trim().min(1).max(255),
  site_id: id,
  facebook_page_id: z
    .string()
    .trim()
    .regex(/^\d{5,30}$/, { message: 'invalid' }),
  /** A Page access token; write-only: answers only say whether one is set. */
  access_token: z.string().trim().max(1000).default(''),
  autopublish: z.boolean().default(false),
  /** Only articles younger than this many days are published. */
  valid_days: z.int().min(1).max(365).default(3),
  use_description: z.boolean().default(true),
  category_blacklist: categoryBlacklist.default(''),
  date_order: z.enum(['asc', 'desc']).default('desc'),
});
export const socialGroupUpdate = patchOf(socialGroupInput.omit({ site_id: true }));
export const socialGroup = socialGroupInput.omit({ access_token: true }).extend({
  _id: id,
  user_id: id,
  has_token: z.boolean(),
  rights_checked_at: z.string().nullable(),
  posts_count: z.number().int(),
  created_at: z.string(),
});
export type SocialGroup = z.infer<typeof socialGroup>;
