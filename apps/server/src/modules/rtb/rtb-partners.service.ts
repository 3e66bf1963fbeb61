import { randomBytes } from 'node:crypto';
import { type RtbPartnerInput, type RtbPartnerUpdate, toMicros } from '@adp/contract';
import { AppError } from '../../lib/errors.ts';
import { sqlStateOf, uniqueAs422 } from '../../lib/unique.ts';
import type { RtbPartnerRow, RtbPartnersRepository } from './rtb-partners.repository.ts';

/** PostgreSQL's restrict_violation or foreign_key_violation behind a driver error (PGlite and drizzle wrap it). */
function foreignKeyViolation(err: unknown): boolean {
  const code = sqlStateOf(err);
  return code === '23001' || code === '23503';
}

/** A partner's key: 24 random bytes, URL-safe; it names the partner in its endpoint URL. */
const newKey = () => randomBytes(24).toString('base64url');

/**
 * RTB partners: admins create, edit and delete them; the bidder keeps every partner in memory (by key) and
 * reloads after each change, so a bid request reads no database.
 */
export function createRtbPartnersService(deps: {
  repo: RtbPartnersRepository;
  /** Whether a currency code is one of ours (GET /api/currencies). */
  currencyExists(code: string): Promise<boolean>;
}) {
  const { repo } = deps;
  /** A partner quotes in one of our currencies: another code is a 422 on `currency`. */
  async function assertCurrency(code: string | undefined) {
    if (code !== undefined && !(await deps.currencyExists(code)))
      throw new AppError(422, 'invalid_currency', {}, 'currency');
  }
  let byKey = new Map<string, RtbPartnerRow>();
  const reload = async () => {
    byKey = new Map((await repo.all()).map((p) => [p.key, p]));
  };

  return {
    reload,
    /** The partner of a key, from memory (an inactive partner is found too: the bidder answers 403). */
    byKey: (key: string) => byKey.get(key),
    /** Every partner's id (the spend counters follow them). */
    ids: () => [...byKey.values()].map((p) => p.id),
    async create(input: RtbPartnerInput) {
      await assertCurrency(input.currency);
      const row = await uniqueAs422('name', 'rtb_partner_name_taken', () =>
        repo.insert({
          name: input.name,
          key: newKey(),
          status: input.status,
          maxRequestMs: input.max_request_ms,
          dailyLimit: input.daily_limit === null ? null : toMicros(input.daily_limit),
          currency: input.currency,
        }),
      );
      await reload();
      return row;
    },
    async update(id: number, input: RtbPartnerUpdate) {
      await assertCurrency(input.currency);
      const row = await uniqueAs422('name', 'rtb_partner_name_taken', () =>
        repo.update(id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.max_request_ms !== undefined ? { maxRequestMs: input.max_request_ms } : {}),
          ...(input.daily_limit !== undefined
            ? { dailyLimit: input.daily_limit === null ? null : toMicros(input.daily_limit) }
            : {}),
          ...(input.currency !== undefined ? { currency: input.currency } : {}),
        }),
      );
      if (!row) throw new AppError(404, 'not_found');
      await reload();
      return row;
    },
    /** A new key for a partner (the old URL stops working at once). */
    async regenerateKey(id: number) {
      const row = await repo.update(id, { key: newKey() });
      if (!row) throw new AppError(404, 'not_found');
      await reload();
      return row;
    },
    /** Deletes a partner without notices; one with a billing record answers 422 (set it inactive). */
    async remove(id: number) {
      let removed: boolean;
      try {
        removed = await repo.remove(id);
      } catch (err) {
        if (foreignKeyViolation(err)) throw new AppError(422, 'rtb_partner_in_use');
        throw err;
      }
      if (!removed) throw new AppError(404, 'not_found');
      await reload();
    },
  };
}
export type RtbPartnersService = ReturnType<typeof createRtbPartnersService>;
