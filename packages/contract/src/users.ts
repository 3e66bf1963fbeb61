import { z } from 'zod';
import { id, locale } from './common.ts';
import { moneyTotal, percent } from './money.ts';
import { isCommonPassword, PASSWORD_MAX, PASSWORD_MIN } from './password-rules.ts';
import { role } from './roles.ts';
import { isTimeZone } from './stats.ts';

export const currencyCode = z.string().regex(/^[A-Z]{3}$/);

/** What `GET /api/users/<id>` and `/api/auth/me` answer. */
export const account = z.object({
  _id: id,
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role,
  balance: moneyTotal,
  currency: currencyCode,
  /** Admin notes about the user: their text only in answers to admins (admin, adminreadonly), else ''. */
  notes: z.string().optional(),
  /** A new e-mail address waiting for the link mailed to it; the account keeps `email` until then. */
  pending_email: z.string().nullable().optional(),
  affiliate_id: z.string(),
  affiliate_url: z.string(),
  earn_percent: z.number(),
  locale,
  /** The IANA timezone statistics and dates are shown in; null: the browser's. */
  timezone: z.string().nullable().optional(),
  created_at: z.string(),
  owns: z.object({
    pixels: z.number().int(),
    agencies: z.number().int(),
    sites: z.number().int().optional(),
    campaigns: z.number().int().optional(),
  }),
  /** The balance in the user's display currency (null while its rate is unknown). */
  display_balance: moneyTotal.nullable().optional(),
});
export type Account = z.infer<typeof account>;

export const userName = z.string().trim().min(1).max(100);
export const email = z.string().trim().toLowerCase().max(254).pipe(z.email());
export const phone = z
  .string()
  .trim()
  .max(32)
  .regex(/^$|^\+?[0-9 ()-]{5,32}$/, { message: 'phone' });
/** A chosen password: long enough and not on the common-password list (the server applies the same rule). */
export const password = z
  .string()
  .min(PASSWORD_MIN)
  .max(PASSWORD_MAX)
  .refine((value) => !isCommonPassword(value), { message: 'password_common' });

/** Admin list filters of /users: publishers own a site, advertisers own a campaign. */
export const userKind = z.enum(['publishers', 'advertisers', 'admins']);
export const usersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(20),
  search: z.string().trim().max(200).optional(),
  kind: userKind.optional(),
  sort: z.enum(['balance', 'created_at']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type UsersQuery = z.infer<typeof usersQuery>;

/** A user's timezone setting: an IANA name the runtime knows (isTimeZone), or null for the browser's. */
export const userTimeZone = z.string().refine(isTimeZone, { message: 'invalid' }).nullable();

/**
 * PUT /api/users/<id> `{user}`; `notes` and `earn_percent` are admin-only. `timezone` (userTimeZone) is
 * set like the other profile fields: by the user itself, an admin, or its agency. A user changing its own
 * e-mail gives `current_password`; the new address is confirmed from a link mailed to it.
 */
export const userUpdate = z.strictObject({
  name: userName.optional(),
  email: email.optional(),
  phone: phone.optional(),
  currency: currencyCode.optional(),
  locale: locale.optional(),
  timezone: userTimeZone.optional(),
  notes: z.string().max(5000).optional(),
  earn_percent: percent.optional(),
  current_password: z.string().max(128).optional(),
});
export type UserUpdate = z.infer<typeof userUpdate>;

export const changePasswordInput = z.strictObject({
  password,
  current_password: z.string().max(128).optional(),
});
export const changeRolesInput = z.strictObject({ role });
