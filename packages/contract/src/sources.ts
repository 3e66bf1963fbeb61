import { z } from 'zod';
import { id } from './common.ts';

/**
 * A block of a traffic source (SPEC.md section 4): a site or a widget (exactly one of `site_id`,
 * `widget_id`; an approved one, it is someone else's inventory; admins block any existing one) where a
 * campaign does not serve while the block holds. `until` null = permanent, else the block ends at that
 * moment (ISO date-time, or a date = the end of that day, UTC; a new block not one already past: 422 `in_past`; an edit may end it early).
 * `campaign_id` null (admins only) blocks the source for every campaign. Blocking a source the campaign
 * already blocks answers 200 with that block, its reason and end replaced (a new block answers 201).
 * Removing a block is the amnesty.
 */
const until = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  // the years 1970 to 9999, as every instant (common.ts `instant`)
  .refine(
    (v) => {
      const year = new Date(v.length === 10 ? `${v}T00:00:00Z` : v).getUTCFullYear();
      return year >= 1970 && year <= 9999;
    },
    { message: 'date' },
  )
  .nullable()
  .transform((v) => (v === null ? null : v.length === 10 ? `${v}T23:59:59.999Z` : new Date(v).toISOString()));

export const blockedSourceInput = z
  .strictObject({
    site_id: id.optional(),
    widget_id: id.optional(),
    reason: z.string().trim().max(1000).default(''),
    until: until.default(null),
  })
  .refine((b) => (b.site_id === undefined) !== (b.widget_id === undefined), {
    message: 'one_of_site_or_widget',
    path: ['site_id'],
  });
export type BlockedSourceInput = z.input<typeof blockedSourceInput>;

/** An admin-wide block: `campaign_id` null (or absent) = every campaign. */
export const adminBlockedSourceInput = z
  .strictObject({
    campaign_id: id.nullable().default(null),
    site_id: id.optional(),
    widget_id: id.optional(),
    reason: z.string().trim().max(1000).default(''),
    until: until.default(null),
  })
  .refine((b) => (b.site_id === undefined) !== (b.widget_id === undefined), {
    message: 'one_of_site_or_widget',
    path: ['site_id'],
  });
export type AdminBlockedSourceInput = z.input<typeof adminBlockedSourceInput>;

/** Editing a block: its reason and how long it holds (the source and campaign stay). */
export const blockedSourceUpdate = z.strictObject({
  reason: z.string().trim().max(1000).optional(),
  until: until.optional(),
});
export type BlockedSourceUpdate = z.input<typeof blockedSourceUpdate>;

export const blockedSource = z.object({
  _id: id,
  campaign_id: id.nullable(),
  site_id: id.nullable(),
  widget_id: id.nullable(),
  /** The source's public name: the site's domain (a widget's: its site's), and the widget's title. */
  site_domain: z.string(),
  widget_title: z.string().nullable(),
  reason: z.string(),
  until: z.string().nullable(),
  /** Whether the block holds now (permanent, or `until` still ahead). */
  active: z.boolean(),
  created_by: id.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BlockedSource = z.infer<typeof blockedSource>;
