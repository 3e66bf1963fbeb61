import { z } from 'zod';
import { id, locale } from './common.ts';
import { role } from './roles.ts';
import { account, email, password, phone, userName } from './users.ts';

const oauthString = z.string().max(1000);

/** `POST /api/auth/token`, form-encoded, OAuth 2 style grants. */
export const tokenRequest = z.discriminatedUnion('grant_type', [
  z.object({ grant_type: z.literal('password'), username: oauthString, password: oauthString }),
  z.object({ grant_type: z.literal('refresh_token'), refresh_token: oauthString }),
]);
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  user_id: id,
  role,
});
export type TokenResponse = z.infer<typeof tokenResponse>;

/** OAuth error answer: `invalid_grant` for wrong credentials or a spent refresh token. */
export const oauthError = z.object({ error: z.string(), error_description: z.string() });

export const revokeRequest = z.object({ token: oauthString });

export const registerInput = z.strictObject({
  name: userName,
  email,
  password,
  phone: phone.optional(),
  privacy_policy_agreed: z.literal(true, { message: 'accepted' }),
  affiliate_id: z.string().trim().max(64).optional(),
  locale: locale.optional(),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const registerResponse = tokenResponse.extend({ account });

export const forgotPasswordInput = z.strictObject({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

export const resetPasswordInput = z.strictObject({ token: z.string().min(10).max(200), password });
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

/** `POST /api/auth/confirm-email`: the token of the link mailed to the new address. */
export const confirmEmailInput = z.strictObject({ token: z.string().min(10).max(200) });
export type ConfirmEmailInput = z.infer<typeof confirmEmailInput>;
export const confirmEmailResponse = z.object({ status: z.literal('ok'), email: z.string() });

/** A CASL raw rule as the dashboard stores it. */
export const abilityRule = z.object({
  action: z.union([z.string(), z.array(z.string())]),
  subject: z.union([z.string(), z.array(z.string())]),
  conditions: z.record(z.string(), z.unknown()).optional(),
  inverted: z.boolean().optional(),
  fields: z.union([z.string(), z.array(z.string())]).optional(),
});
export type AbilityRule = z.infer<typeof abilityRule>;

/**
 * An agency member's agency group as the member's dashboard shows it (the partner preview, for real): its
 * title, its logo when the group shows it (`showlogo`), and whether the member's money is shown
 * (`showamount`; off, the agency keeps its members' balances out of their screens).
 */
export const memberAgency = z.object({
  title: z.string(),
  logo: z.string().nullable(),
  showamount: z.boolean(),
});
export type MemberAgency = z.infer<typeof memberAgency>;

export const meResponse = z.object({
  account,
  ability: z.array(abilityRule),
  /** The agency of an agency member (null for everyone else). */
  agency: memberAgency.nullable().default(null),
});
export type MeResponse = z.infer<typeof meResponse>;
