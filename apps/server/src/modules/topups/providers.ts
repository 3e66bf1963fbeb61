import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';

export interface TopupIntent {
  id: number;
  sum: bigint;
  token: string;
  email: string;
}

/** A way to take the user's money. `start` answers where to send the browser. */
export interface PaymentProvider {
  name: 'sandbox' | 'stripe';
  /** Refuses an amount the provider cannot take (422 on `sum`), before any top-up is recorded. */
  check?(sum: bigint): void;
  start(intent: TopupIntent): Promise<{ redirectUrl: string; externalId: string | null }>;
}

/**
 * The built-in sandbox: a page of our own where the user confirms or fails the payment. No money moves
 * outside the platform and balances grow for free, so it is on only with PAYMENT_SANDBOX=on (tests, demos).
 */
export function sandboxProvider(publicUrl: string): PaymentProvider {
  return {
    name: 'sandbox',
    async start(intent) {
      return {
        redirectUrl: `${publicUrl}/payments/sandbox/${intent.id}?token=${intent.token}`,
        externalId: null,
      };
    },
  };
}

/** Stripe Checkout; the balance is credited only by the signed webhook, never by the return URL. */
export function stripeProvider(stripe: Stripe, publicUrl: string): PaymentProvider {
  return {
    name: 'stripe',
    check(sum) {
      // Stripe charges whole cents
      if (sum % 10_000n !== 0n) throw new AppError(422, 'whole_cents', {}, 'sum');
    },
    async start(intent) {
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        customer_email: intent.email,
        client_reference_id: String(intent.id),
        metadata: { topup_id: String(intent.id) },
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: Number(intent.sum / 10_000n),
              product_data: { name: 'Balance top-up' },
            },
          },
        ],
        success_url: `${publicUrl}/payment-success?topup=${intent.id}`,
        cancel_url: `${publicUrl}/payment-failed?topup=${intent.id}`,
      });
      if (!session.url) throw new AppError(502, 'provider_unavailable');
      return { redirectUrl: session.url, externalId: session.id };
    },
  };
}

export function createStripeClient(config: Config): Stripe | undefined {
  if (!config.stripeSecretKey) return undefined;
  const api = config.stripeApiBase ? new URL(config.stripeApiBase) : undefined;
  return new Stripe(config.stripeSecretKey, {
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
    maxNetworkRetries: 1,
    timeout: 15_000,
  });
}
