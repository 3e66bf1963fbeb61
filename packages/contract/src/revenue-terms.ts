import { z } from 'zod';
import { id, paged, pageQuery } from './common.ts';

/**
 * Revenue terms: what decides who earns what from a click. Only admins set them (DESIGN.md "Security
 * rules"), and every change is logged.
 */
export const revenueTermsFields = {
  site: [
    'payment_method',
    'cpm_rate',
    'agency_rate',
    'billing_widget',
    'affiliate_user_id',
    'affiliate_earn_percent',
  ],
  widget: ['earn_processor', 'earn_value'],
  agency: ['agency_rate', 'phoenix_rate', 'campaign_rate'],
  user: ['earn_percent'],
} as const;
export const revenueTermsEntity = z.enum(['site', 'widget', 'agency', 'user']);
export type RevenueTermsEntity = z.infer<typeof revenueTermsEntity>;

/** A logged value as the API shows it (a rate, an amount, an id, a method) or null. */
export const revenueTermsValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type RevenueTermsValue = z.infer<typeof revenueTermsValue>;

/** One changed field: who changed it, when, on what, from what to what. */
export const revenueTermsChange = z.object({
  _id: id,
  entity_type: revenueTermsEntity,
  entity_id: id,
  field: z.string(),
  before: revenueTermsValue,
  after: revenueTermsValue,
  actor_id: id.nullable(),
  actor_name: z.string().nullable(),
  created_at: z.string(),
});
export type RevenueTermsChange = z.infer<typeof revenueTermsChange>;

export const revenueTermsLogQuery = pageQuery.extend({
  entity_type: revenueTermsEntity.optional(),
  entity_id: id.optional(),
});
export type RevenueTermsLogQuery = z.infer<typeof revenueTermsLogQuery>;
export const revenueTermsLog = paged(revenueTermsChange);
