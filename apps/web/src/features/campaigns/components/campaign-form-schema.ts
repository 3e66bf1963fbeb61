import { type Campaign, campaignInput } from '@adp/contract';
import type { z } from 'zod';

/** Status is switched on the campaign page (activation has its own rules); the owner comes from the route. */
export const campaignFormSchema = campaignInput.omit({ user_id: true, status: true });
export type CampaignFormValues = z.input<typeof campaignFormSchema>;
export type CampaignFormOutput = z.output<typeof campaignFormSchema>;

export const campaignFormFields = [
  ...Object.keys(campaignFormSchema.shape),
  ...Object.keys(campaignInput.shape.openrtb.unwrap().shape).map((key) => `openrtb.${key}`),
];

export function campaignFormDefaults(campaign?: Campaign): CampaignFormValues {
  if (campaign) {
    const {
      _id,
      user_id,
      balance,
      moderation,
      moderation_reason,
      target_ctr_status,
      target_ctr_check_date,
      ip_ranges,
      banners_count,
      created_at,
      status,
      ...rest
    } = campaign;
    return rest;
  }
  const defaults = campaignFormSchema.parse({ title: 'x', clickprice: 1 });
  return { ...defaults, title: '', clickprice: undefined as unknown as number };
}
