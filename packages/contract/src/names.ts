import { z } from 'zod';
import { id } from './common.ts';
import { currencyCode } from './users.ts';

/** At most this many ids per lookup: a page of a table, a chart's legend. */
export const NAME_LOOKUP_MAX = 500;

/**
 * A name lookup (SPEC.md section 7): the ids whose names the dashboard's name cache misses. Every id
 * must exist and be readable by the caller, or the answer is `422 {errors: [{field: 'ids', detail}]}`
 * with one entry per bad id.
 */
export const nameLookup = z.strictObject({ ids: z.array(id).min(1).max(NAME_LOOKUP_MAX) });
export type NameLookup = z.infer<typeof nameLookup>;

/** Sites and partners (agency groups): id and name. */
export const namedEntity = z.object({ _id: id, name: z.string() });
export type NamedEntity = z.infer<typeof namedEntity>;
export const namesAnswer = z.object({ items: z.array(namedEntity) });

/** Campaigns also carry their owner and the owner's currency, so a row can show money without a user fetch. */
export const campaignName = namedEntity.extend({ user_id: id, currency: currencyCode });
export type CampaignName = z.infer<typeof campaignName>;
export const campaignNamesAnswer = z.object({ items: z.array(campaignName) });

/** The domains a DSP partner saw traffic from, per site: `{dsp_id, site_ids}` → each site's domain. */
export const dspDomainsLookup = z.strictObject({
  dsp_id: id,
  site_ids: z.array(id).min(1).max(NAME_LOOKUP_MAX),
});
export type DspDomainsLookup = z.infer<typeof dspDomainsLookup>;

/**
 * An owned list row: the owner's name comes with it, so a table needs no lookup per row. The lists
 * always send it; optional so a record read elsewhere (a detail page, a fixture) still parses.
 */
export const ownerName = z.object({ user_name: z.string().optional() });
/**
 * A list item with its owner's name.
 * @example paged(withOwnerName(campaign)) // items: [{...campaign, user_name: 'Anna'}]
 */
export const withOwnerName = <Shape extends z.ZodRawShape>(item: z.ZodObject<Shape>) =>
  item.extend(ownerName.shape);

/** The admin's owner filter: text matched against the owner's name or e-mail (case-insensitive). */
export const ownerFilter = z.string().trim().max(200).optional();
