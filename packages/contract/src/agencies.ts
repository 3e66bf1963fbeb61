import { z } from 'zod';
import { id, patchOf, status } from './common.ts';
import { percent } from './money.ts';
import { account, email, password, phone, userName } from './users.ts';

const rate = percent;

export const agencyInput = z.strictObject({
  title: z.string().trim().min(1).max(255),
  agency_rate: rate.default(0),
  phoenix_rate: rate.default(0),
  campaign_rate: rate.default(0),
  showlogo: z.boolean().default(true),
  showamount: z.boolean().default(true),
  /** Admins may create an agency for an agency user; others create their own. */
  user_id: id.optional(),
});
export type AgencyInput = z.infer<typeof agencyInput>;
export const agencyUpdate = patchOf(agencyInput.omit({ user_id: true }));
export const agencySettings = patchOf(
  agencyInput.pick({
    agency_rate: true,
    phoenix_rate: true,
    campaign_rate: true,
    showlogo: true,
    showamount: true,
  }),
);

export const agencyMember = account.pick({
  _id: true,
  name: true,
  email: true,
  phone: true,
  role: true,
  balance: true,
  created_at: true,
});
export type AgencyMember = z.infer<typeof agencyMember>;

export const agency = z.object({
  _id: id,
  user_id: id,
  title: z.string(),
  logo: z.string().nullable(),
  agency_rate: z.number(),
  phoenix_rate: z.number(),
  campaign_rate: z.number(),
  showlogo: z.boolean(),
  showamount: z.boolean(),
  /** Inactive (an admin's switch): the group's rates pay nobody; its members and rights stay. */
  status,
  members_count: z.number().int(),
  created_at: z.string(),
});
export type Agency = z.infer<typeof agency>;

/** POST /api/agencies/<id>/addmember: a new agencymember user, created with these credentials. */
export const addMemberInput = z.strictObject({ name: userName, email, password, phone: phone.optional() });
export const removeMemberInput = z.strictObject({ user_id: id });
export const memberUpdate = z.strictObject({
  name: userName.optional(),
  email: email.optional(),
  phone: phone.optional(),
});
