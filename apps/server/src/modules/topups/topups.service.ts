import { fromMicros, type Topup, toMicros } from '@adp/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../db/client.ts';
import { paymentEvents, topups } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { pageOf } from '../../lib/paging.ts';
import { newOpaqueToken } from '../../lib/tokens.ts';
import type { Ledger } from '../ledger/ledger.service.ts';
import type { PaymentProvider } from './providers.ts';

type TopupRow = typeof topups.$inferSelect;

export function toTopup(row: TopupRow): Topup {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    provider: row.provider as Topup['provider'],
    sum: fromMicros(row.sum),
    status: row.status as Topup['status'],
    date: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}

export function createTopups(deps: {
  db: Db;
  ledger: Ledger;
  providers: PaymentProvider[];
  stripe?: Stripe | undefined;
  stripeWebhookSecret?: string | undefined;
}) {
  const { db, ledger, providers } = deps;

  /** pending → paid and the credit, in one transaction; a second call finds nothing pending and credits nothing. */
  async function settle(
    where: ReturnType<typeof eq>,
    eventId?: { id: string; type: string; provider: string },
  ) {
    return db.transaction(async (tx) => {
      if (eventId) {
        const [fresh] = await tx.insert(paymentEvents).values(eventId).onConflictDoNothing().returning();
        if (!fresh) return undefined;
      }
      const [row] = await tx
        .update(topups)
        .set({ status: 'paid', completedAt: new Date() })
        .where(and(where, eq(topups.status, 'pending')))
        .returning();
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
      const token = newOpaqueToken(24).token;
      const [row] = await db
        .insert(topups)
        .values({ userId: user.id, provider: provider.name, sum: micros, token })
        .returning();
      if (!row) throw new Error('topup insert returned no row');
      const started = await provider.start({ id: row.id, sum: micros, token, email: user.email });
      if (started.externalId) {
        await db.update(topups).set({ externalId: started.externalId }).where(eq(topups.id, row.id));
      }
      return { ...toTopup(row), redirect_url: started.redirectUrl };
    },

    async find(id: number) {
      const [row] = await db.select().from(topups).where(eq(topups.id, id));
      return row;
    },

    async list(userId: number, page: number, limit: number) {
      const where = eq(topups.userId, userId);
      return pageOf(
        { page, limit },
        db.select({ n: count() }).from(topups).where(where),
        (w) => db.select().from(topups).where(where).orderBy(desc(topups.id)).limit(w.limit).offset(w.offset),
        toTopup,
      );
    },

    /** The sandbox page's answer: only with the link's token, only while pending. */
    async sandboxDecide(id: number, token: string, paid: boolean): Promise<'paid' | 'failed' | 'unknown'> {
      const row = await this.find(id);
      if (row?.provider !== 'sandbox' || row.token !== token) return 'unknown';
      if (paid) {
        await settle(and(eq(topups.id, id), eq(topups.token, token)) as ReturnType<typeof eq>);
      } else {
        await db
          .update(topups)
          .set({ status: 'failed', completedAt: new Date() })
          .where(and(eq(topups.id, id), eq(topups.status, 'pending')));
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
          and(eq(topups.provider, 'stripe'), eq(topups.externalId, session.id)) as ReturnType<typeof eq>,
          { id: event.id, type: event.type, provider: 'stripe' },
        );
        return credited ? 'credited' : 'ignored';
      }
      if (failedEvent) {
        await db
          .update(topups)
          .set({ status: 'failed', completedAt: new Date() })
          .where(
            and(
              eq(topups.provider, 'stripe'),
              eq(topups.externalId, session.id),
              eq(topups.status, 'pending'),
            ),
          );
      }
      return 'ignored';
    },
  };
}
export type Topups = ReturnType<typeof createTopups>;
