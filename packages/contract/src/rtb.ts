import { z } from 'zod';
import { id, paged, pageQuery, patchOf, status } from './common.ts';
import { money, moneyTotal } from './money.ts';

/**
 * An RTB partner (admins only): an exchange that sends us OpenRTB bid requests at
 * `POST /rtb/openrtb2/{key}`. `key` is random, made by the server, and shown to the admin to hand to the
 * partner; `max_request_ms` caps the request's `tmax`; `daily_limit` caps what its wins charge per UTC day
 * (null = no limit); `currency` is the currency the partner quotes in (bids are in the platform currency
 * and converted when its `cur` list asks for another).
 * @example { _id: '3', name: 'Example SSP', key: 'k1d…', status: 'active', max_request_ms: 200,
 *   daily_limit: 500, currency: 'USD', endpoint: 'https://ads.example/rtb/openrtb2/k1d…', created_at: '…' }
 */
export const rtbPartner = z.object({
  _id: id,
  name: z.string(),
  key: z.string(),
  status,
  max_request_ms: z.number().int(),
  daily_limit: moneyTotal.nullable(),
  currency: z.string(),
  /** The URL to give the partner. */
  endpoint: z.string(),
  created_at: z.string(),
});
export type RtbPartner = z.infer<typeof rtbPartner>;

/** The most a partner may wait for our answer, and the least. */
export const RTB_MAX_REQUEST_MS = 5000;
export const RTB_MIN_REQUEST_MS = 10;

export const rtbPartnerInput = z.strictObject({
  name: z.string().trim().min(1).max(255),
  status: status.default('active'),
  max_request_ms: z.int().min(RTB_MIN_REQUEST_MS).max(RTB_MAX_REQUEST_MS).default(200),
  daily_limit: money
    .refine((v) => v > 0, { message: 'positive' })
    .nullable()
    .default(null),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, { message: 'currency' })
    .default('USD'),
});
export type RtbPartnerInput = z.infer<typeof rtbPartnerInput>;
export const rtbPartnerUpdate = patchOf(rtbPartnerInput);
export type RtbPartnerUpdate = z.infer<typeof rtbPartnerUpdate>;

export const rtbPartnerQuery = pageQuery.extend({ q: z.string().trim().max(255).optional() });
export const rtbPartnersPage = paged(rtbPartner);
