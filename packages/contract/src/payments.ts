import { z } from 'zod';
import { id } from './common.ts';
import { money, moneyTotal } from './money.ts';

/** Every kind of balance movement the ledger knows. */
export const ledgerTypes = [
  'topup',
  'withdrawal',
  'admin_payment',
  'campaign_charge',
  'campaign_funding',
  'publisher_earning',
  'agency_earning',
  'referral_earning',
  'refund',
  'adjustment',
] as const;
export const ledgerType = z.enum(ledgerTypes);
export type LedgerType = z.infer<typeof ledgerType>;

/** Movements that bring money into or out of the platform: the user's "payments". */
export const paymentTypes = ['topup', 'withdrawal', 'admin_payment', 'refund', 'adjustment'] as const;

/** A ledger row as the API shows it (`/transactions`, `/payments`). */
export const ledgerEntry = z.object({
  _id: id,
  user_id: id,
  type: ledgerType,
  sum: moneyTotal,
  balance_after: moneyTotal,
  source: z.string(),
  actor_id: id.nullable(),
  ref: z.string().nullable(),
  date: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

/**
 * POST /api/users/<id>/payments `{payment}` (admin): pay a user or adjust a balance.
 * Only an adjustment may be negative; no movement may take a balance below zero.
 */
export const paymentInput = z
  .strictObject({
    sum: money.refine((v) => v !== 0, { message: 'invalid' }),
    type: z.enum(['admin_payment', 'adjustment', 'refund']).default('admin_payment'),
    source: z.string().trim().max(255).default(''),
  })
  // 0 is already refused on its own (one error on a field, not two)
  .refine((p) => p.sum >= 0 || p.type === 'adjustment', { path: ['sum'], message: 'positive' });
export type PaymentInput = z.infer<typeof paymentInput>;

export const topupStatus = z.enum(['pending', 'paid', 'failed']);
export const paymentProvider = z.enum(['sandbox', 'stripe']);

/** POST /api/users/<id>/topups `{topup}`: starts a payment and answers where to send the browser. */
export const topupInput = z.strictObject({
  /** The bounds are said in the message ("at least 1", "at most 100000"). */
  sum: money.min(1).max(100_000),
  provider: paymentProvider.optional(),
});
export const topup = z.object({
  _id: id,
  user_id: id,
  provider: paymentProvider,
  sum: money,
  status: topupStatus,
  date: z.string(),
  completed_at: z.string().nullable(),
});
export type Topup = z.infer<typeof topup>;
export const topupStart = topup.extend({ redirect_url: z.string() });
/** GET /api/payments/providers: the top-up providers this platform has set up (none: top-ups answer 409). */
export const paymentProviders = z.object({ providers: z.array(paymentProvider) });

export const withdrawalStatus = z.enum(['pending', 'paid', 'rejected']);
export const withdrawalMethods = ['bank_transfer', 'paypal', 'card', 'crypto', 'other'] as const;
export const withdrawalInput = z.strictObject({
  sum: money.refine((v) => v > 0, { message: 'positive' }),
  method: z.enum(withdrawalMethods),
  details: z.string().trim().min(1).max(1000),
});
export type WithdrawalInput = z.infer<typeof withdrawalInput>;
export const withdrawal = z.object({
  _id: id,
  user_id: id,
  user_name: z.string(),
  sum: money,
  method: z.enum(withdrawalMethods),
  details: z.string(),
  status: withdrawalStatus,
  reference: z.string().nullable(),
  reason: z.string().nullable(),
  date: z.string(),
  decided_at: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawal>;
export const withdrawalApprove = z.strictObject({ reference: z.string().trim().min(1).max(255) });
export const withdrawalReject = z.strictObject({ reason: z.string().trim().min(1).max(1000) });

const notNegative = money.refine((v) => v >= 0, { message: 'positive' });

/**
 * Platform settings an admin edits (GET /api/settings; PUT /api/settings with any of them). The low-balance
 * thresholds, currency units: a charged campaign whose balance falls below `low_campaign_balance`, and an
 * advertiser's account below `low_account_balance`, tell their owner once per fall; 0 turns that off.
 */
export const platformSettings = z.strictObject({
  min_payout: notNegative,
  low_campaign_balance: notNegative,
  low_account_balance: notNegative,
});
export type PlatformSettings = z.infer<typeof platformSettings>;
/** PUT /api/settings: the settings it names change, the others stay. */
export const platformSettingsUpdate = platformSettings.partial();
export type PlatformSettingsUpdate = z.infer<typeof platformSettingsUpdate>;

/** GET /api/users/<id>/referrals */
export const referralSummary = z.object({
  affiliate_id: z.string(),
  affiliate_url: z.string(),
  earn_percent: z.number(),
  referred: z.array(z.object({ _id: id, name: z.string(), date: z.string() })),
  earnings: z.array(z.object({ month: z.string(), sum: moneyTotal })),
  total: moneyTotal,
});
export type ReferralSummary = z.infer<typeof referralSummary>;
