import { z } from 'zod';
import { id, locale } from './common.ts';
import { money } from './money.ts';
import { role } from './roles.ts';

export const currencyCode = z.string().regex(/^[A-Z]{3}$/);

/** What `GET /api/users/<id>` and `/api/auth/me` answer. */
export const account = z.object({
  _id: id,
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role,
  balance: money,
  currency: currencyCode,
  notes: z.string(),
  affiliate_id: z.string(),
  affiliate_url: z.string(),
  earn_percent: z.number(),
  locale,
  created_at: z.string(),
  owns: z.object({ pixels: z.number().int(), agencies: z.number().int() }),
});
export type Account = z.infer<typeof account>;

export const userName = z.string().trim().min(1).max(100);
export const email = z.string().trim().toLowerCase().max(254).pipe(z.email());
export const phone = z
  .string()
  .trim()
  .max(32)
  .regex(/^$|^\+?[0-9 ()-]{5,32}$/, { message: 'phone' });
export const password = z.string().min(8).max(128);
