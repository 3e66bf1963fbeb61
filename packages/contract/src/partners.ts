import { z } from 'zod';
import { agency, agencyInput } from './agencies.ts';
import { id, pageQuery, patchOf, status } from './common.ts';

/**
 * Partners: SPEC.md's agency groups, the admin face of the agencies (the same records as
 * /api/agencies): an agency user's group of members with its logo, rates and display switches.
 * `name` is the group's title under the name the name caches use.
 */
export const partnerInput = agencyInput.extend({ user_id: id, status: status.default('active') });
export type PartnerInput = z.infer<typeof partnerInput>;
export const partnerUpdate = patchOf(agencyInput.omit({ user_id: true }).extend({ status }));
export type PartnerUpdate = z.infer<typeof partnerUpdate>;

export const partner = agency.extend({ name: z.string(), owner_name: z.string().nullable() });
export type Partner = z.infer<typeof partner>;

export const partnersQuery = pageQuery.extend({ q: z.string().trim().max(100).optional() });
export type PartnersQuery = z.infer<typeof partnersQuery>;

/**
 * POST /api/partners/<id>/preview (body `{partner: {…unsaved display settings}}`, optional): what the
 * group's members see in their dashboard: the logo when `showlogo`, their balances when `showamount`.
 */
export const partnerPreviewInput = z.strictObject({
  partner: patchOf(agencyInput.pick({ title: true, showlogo: true, showamount: true })).optional(),
});
export const partnerPreview = z.object({
  title: z.string(),
  /** The logo members see; null when there is none or `showlogo` is off. */
  logo: z.string().nullable(),
  showlogo: z.boolean(),
  showamount: z.boolean(),
  /** A member's view: name and balance (null when `showamount` is off), at most 5 members. */
  members: z.array(z.object({ _id: id, name: z.string(), balance: z.number().nullable() })),
});
export type PartnerPreview = z.infer<typeof partnerPreview>;

/** The breakdowns of GET /api/partners/<id>/stats/<breakdown>: the group's sites' statistics. */
export const partnerStatsBreakdowns = [
  'revenue',
  'site',
  'campaigns',
  'country',
  'city',
  'device',
  'os',
  /** By DSP partner: the exchange's source only (the sites' own traffic has none). */
  'partner',
] as const;
/**
 * What a group's statistics count (`source` of GET /api/partners/{id}/stats/{breakdown}): `sites`, the
 * group's sites' own traffic (default), or `dsp`, their slots sold to DSP partners on the exchange (SPEC's
 * phoenix and dsp branches; `partner_id` then names one DSP partner).
 */
export const partnerStatsSources = ['sites', 'dsp'] as const;
export type PartnerStatsSource = (typeof partnerStatsSources)[number];
export type PartnerStatsBreakdown = (typeof partnerStatsBreakdowns)[number];
