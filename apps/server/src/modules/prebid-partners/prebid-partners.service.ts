import type { PrebidPartner, PrebidPartnerInput } from '@adp/contract';
import { AppError } from '../../lib/errors.ts';
import { uniqueAs422 } from '../../lib/unique.ts';
import {
  type PrebidPartnerRow,
  type PrebidPartnersRepository,
  type PrebidPartnerValues,
  toPrebidPartner,
} from './prebid-partners.repository.ts';

export { PREBID_PARTNER_LOG } from './prebid-partners.repository.ts';

/** Prebid partners, admin only: every write and its audit log row share one transaction (repository). */
export function createPrebidPartnersService(deps: {
  repo: PrebidPartnersRepository;
  publicUrl: string;
  /** After each change: the bidder endpoint keeps the partners in memory by key. */
  changed?: () => Promise<void>;
}) {
  const { repo, publicUrl } = deps;
  const changed = deps.changed ?? (async () => {});
  const view = (row: PrebidPartnerRow, reveal = true) => toPrebidPartner(row, publicUrl, reveal);
  /** What the audit log keeps of a partner: not its key (a credential), nor the endpoint that holds it. */
  const logged = (row: PrebidPartnerRow) => {
    const { key: _key, endpoint: _endpoint, ...rest } = view(row);
    return rest;
  };

  async function load(id: number): Promise<PrebidPartnerRow> {
    const row = await repo.findById(id);
    if (!row) throw new AppError(404, 'not_found');
    return row;
  }

  return {
    repo,
    load,
    view,
    async create(actorId: number, input: PrebidPartnerInput): Promise<PrebidPartner> {
      const row = await uniqueAs422('name', 'prebid_partner_name_taken', () =>
        repo.create(actorId, input as PrebidPartnerValues & { name: string }, logged),
      );
      await changed();
      return view(row);
    },

    async update(
      actorId: number,
      found: PrebidPartnerRow,
      values: PrebidPartnerValues,
    ): Promise<PrebidPartner> {
      if (Object.values(values).every((v) => v === undefined)) return view(found);
      const row = await uniqueAs422('name', 'prebid_partner_name_taken', () =>
        repo.update(actorId, found, values, logged),
      );
      if (!row) throw new AppError(404, 'not_found');
      await changed();
      return view(row);
    },

    /** A partner with wins or billed impressions stays (its statistics are money records): set it inactive. */
    async delete(actorId: number, found: PrebidPartnerRow): Promise<void> {
      if (await repo.billed(found.id)) throw new AppError(422, 'prebid_partner_in_use');
      await repo.delete(actorId, found, logged);
      await changed();
    },
  };
}
export type PrebidPartnersService = ReturnType<typeof createPrebidPartnersService>;
