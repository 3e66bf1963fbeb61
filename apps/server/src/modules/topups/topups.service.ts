import { toMicros } from '@adp/contract';
import type Stripe from 'stripe';
import { AppError } from '../../lib/errors.ts';
import { newOpaqueToken } from '../../lib/tokens.ts';
import type { Ledger } from '../ledger/ledger.service.ts';
import type { PaymentProvider } from './providers.ts';
import { type TopupMatch, type TopupsRepository, toTopup } from './topups.repository.ts';

export { toTopup } from './topups.repository.ts';

export function createTopups(deps: {
  repo: TopupsRepository;
  ledger: Ledger;
  providers: PaymentProvider[];
  stripe?: Stripe | undefined;
  stripeWebhookSecret?: string | undefined;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { repo, ledger, providers } = deps;

  /** pending → paid and the credit, in one transaction; a second call finds nothing pending and credits nothing. */
  async function settle(match: TopupMatch, eventId?: { id: string; type: string; provider: string }) {
    return repo.transaction(async (tx) => {
      if (eventId && !(await repo.recordEvent(tx, eventId))) return undefined;
      const row = await repo.markPaid(tx, match);
      if (!row) return undefined;
      await ledger.move(tx, {
        userId: row.userId,
        type: 'topup',
        sum: row.sum,
        source: row.provider,
        actorId: row.userId,
        ref: `topup:${row.id}`,
      });
      return row;
    });
  }

  return {
    providerNames: providers.map((p) => p.name),

    async start(user: { id: number; email: string }, sum: number, providerName?: string) {
      // no provider at all is the platform's setup, not the caller's choice: the admin has to configure one
      if (providers.length === 0) throw new AppError(409, 'payments_not_configured');
      const provider = providerName ? providers.find((p) => p.name === providerName) : providers[0];
      if (!provider) throw new AppError(422, 'provider_unavailable', {}, 'provider');
      const micros = toMicros(sum);
      provider.check?.(micros);
      const token = newOpaqueToken(24).token;
      const row = await repo.insert({ userId: user.id, provider: provider.name, sum: micros, token });
      if (!row) throw new Error('topup insert returned no row');
      let started: Awaited<ReturnType<PaymentProvider['start']>>;
      try {
        started = await provider.start({ id: row.id, sum: micros, token, email: user.email });
      } catch (err) {
        // the provider did not take it (down, refused): the top-up fails instead of waiting forever, and
        // the caller hears that the provider is unavailable, not a 500
        await repo.markFailed({ id: row.id });
        if (err instanceof AppError) throw err;
        deps.log?.warn({ err, provider: provider.name }, 'payment provider failed to start a top-up');
        throw new AppError(502, 'provider_unavailable');
      }
      if (started.externalId) {
        await repo.setExternalId(row.id, started.externalId);
      }
      return { ...toTopup(row), redirect_url: started.redirectUrl };
    },

    find: repo.find,

    list: repo.list,

    /** The sandbox page's answer: only with the link's token, only while pending. */
    async sandboxDecide(id: number, token: string, paid: boolean): Promise<'paid' | 'failed' | 'unknown'> {
      const row = await this.find(id);
      if (row?.provider !== 'sandbox' || row.token !== token) return 'unknown';
      if (paid) {
        await settle({ id, token });
      } else {
        await repo.markFailed({ id });
      }
      const after = await this.find(id);
      return after?.status === 'paid' ? 'paid' : 'failed';
    },

    /**
     * A Stripe webhook delivery. The signature is checked on the raw bytes; each event id is handled once,
     * and the credit is the amount we asked for, found through our own top-up row.
     */
    async stripeWebhook(raw: Buffer, signature: string | undefined): Promise<'credited' | 'ignored'> {
      if (!deps.stripe || !deps.stripeWebhookSecret) throw new AppError(404, 'not_found');
      let event: Stripe.Event;
      try {
        event = deps.stripe.webhooks.constructEvent(raw, signature ?? '', deps.stripeWebhookSecret);
      } catch {
        throw new AppError(400, 'invalid_signature');
      }
      const session = event.data.object as Stripe.Checkout.Session;
      const paidEvent =
        (event.type === 'checkout.session.completed' && session.payment_status === 'paid') ||
        event.type === 'checkout.session.async_payment_succeeded';
      const failedEvent =
        event.type === 'checkout.session.expired' || event.type === 'checkout.session.async_payment_failed';
      if (paidEvent) {
        const credited = await settle(
          { provider: 'stripe', externalId: session.id },
          { id: event.id, type: event.type, provider: 'stripe' },
        );
        return credited ? 'credited' : 'ignored';
      }
      if (failedEvent) {
        await repo.markFailed({ provider: 'stripe', externalId: session.id });
      }
      return 'ignored';
    },
  };
}
export type Topups = ReturnType<typeof createTopups>;
