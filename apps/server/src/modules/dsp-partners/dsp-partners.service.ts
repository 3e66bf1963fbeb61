import { type DspPartner, type dspPartnerInput, toMicros } from '@adp/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { unreachableUrl } from '../../lib/safe-fetch.ts';
import { uniqueAs422 } from '../../lib/unique.ts';
import { unknownIdErrors } from '../../lib/unknown-ids.ts';
import { recordEntityLog } from '../entity-logs/entity-logs.repository.ts';
import {
  type DspBlacklistRow,
  type DspPartnerRow,
  type DspPartnersRepository,
  toBlacklistItem,
  toDspPartner,
} from './dsp-partners.repository.ts';

type Input = z.output<typeof dspPartnerInput>;
const ENTITY = 'dsppartner';

const columns = (v: Partial<Input>) => ({
  ...(v.name !== undefined ? { name: v.name } : {}),
  ...(v.endpoint !== undefined ? { endpoint: v.endpoint } : {}),
  ...(v.openrtb_version !== undefined ? { openrtbVersion: v.openrtb_version } : {}),
  ...(v.daily_money_limit !== undefined
    ? { dailyMoneyLimit: v.daily_money_limit === null ? null : toMicros(v.daily_money_limit) }
    : {}),
  ...(v.daily_budget_limit !== undefined ? { dailyBudgetLimit: v.daily_budget_limit } : {}),
  ...(v.max_request_time !== undefined ? { maxRequestTime: v.max_request_time } : {}),
  ...(v.whitelist !== undefined ? { whitelist: [...new Set(v.whitelist)] } : {}),
  ...(v.blacklist !== undefined ? { blacklist: [...new Set(v.blacklist)] } : {}),
  ...(v.ad_position !== undefined ? { adPosition: v.ad_position } : {}),
  ...(v.status !== undefined ? { status: v.status } : {}),
});

/**
 * DSP partners: every create, change and delete is logged (entity_logs) in its own transaction; the
 * outbound auction sees a change through the delivery change notices (the tables' triggers).
 */
export function createDspPartnersService(deps: {
  db: Db;
  repo: DspPartnersRepository;
  /** The sites a source given as a site id ("12") must name. */
  sites: { existingIds(ids: number[]): Promise<Set<number>> };
  /** OUTBOUND_ALLOW_LOOPBACK: the demo's and the tests' DSPs listen on 127.0.0.1. */
  allowLoopback?: boolean;
}) {
  const { db, repo } = deps;

  /** An endpoint the outbound guard would refuse on every request (loopback, private, credentials…): 422. */
  function assertReachable(endpoint: string | undefined) {
    if (endpoint !== undefined && unreachableUrl(endpoint, deps.allowLoopback ?? false))
      throw new FieldsError([{ field: 'endpoint', code: 'endpoint_not_public' }]);
  }

  /**
   * Sources given as site ids name sites that exist (a domain names any site, ours or not): an unknown id
   * is a 422 on its list. `held` are ids already stored (a site deleted since does not block an edit).
   */
  async function assertSiteSources(
    lists: { field: string; sources: readonly string[] | undefined }[],
    held: readonly string[] = [],
  ) {
    const numeric = (sources: readonly string[] | undefined) =>
      (sources ?? []).filter((s) => /^\d+$/.test(s) && !held.includes(s));
    const errors = await unknownIdErrors(
      lists.map(({ field, sources }) => ({ field, ids: numeric(sources) })),
      deps.sites.existingIds,
    );
    if (errors.length) throw new FieldsError(errors);
  }

  /**
   * A create or change and its log entry in one transaction; a name another partner has (in any case) is
   * a 422 on `name`.
   */
  function loggedWrite(
    actor: string,
    action: 'create' | 'update',
    before: DspPartner | null,
    write: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<DspPartnerRow>,
  ): Promise<DspPartner> {
    return uniqueAs422('name', 'dsp_partner_name_taken', () =>
      db.transaction(async (tx) => {
        const row = await write(tx);
        const after = toDspPartner(row);
        await recordEntityLog(tx, {
          entityType: ENTITY,
          entityId: row.id,
          userId: actor,
          action,
          before,
          after,
        });
        return after;
      }),
    );
  }

  return {
    create: async (input: Input, actor: string): Promise<DspPartner> => {
      assertReachable(input.endpoint);
      await assertSiteSources([
        { field: 'whitelist', sources: input.whitelist },
        { field: 'blacklist', sources: input.blacklist },
      ]);
      return loggedWrite(actor, 'create', null, (tx) =>
        repo.insert(tx, columns(input) as Parameters<typeof repo.insert>[1]),
      );
    },

    update: async (old: DspPartnerRow, input: Partial<Input>, actor: string): Promise<DspPartner> => {
      const before = toDspPartner(old);
      if (input.endpoint !== old.endpoint) assertReachable(input.endpoint);
      await assertSiteSources(
        [
          { field: 'whitelist', sources: input.whitelist },
          { field: 'blacklist', sources: input.blacklist },
        ],
        [...before.whitelist, ...before.blacklist],
      );
      return loggedWrite(actor, 'update', before, (tx) => repo.update(tx, old.id, columns(input)));
    },

    /** A partner that has won impressions stays (its statistics are money records): set it inactive. */
    remove: async (old: DspPartnerRow, actor: string) => {
      if (await repo.billed(old.id)) throw new AppError(422, 'dsp_partner_in_use');
      return db.transaction(async (tx) => {
        await repo.remove(tx, old.id);
        await recordEntityLog(tx, {
          entityType: ENTITY,
          entityId: old.id,
          userId: actor,
          action: 'delete',
          before: toDspPartner(old),
          after: null,
        });
      });
    },

    async createBlacklist(partner: DspPartnerRow, input: { source: string; comment: string }) {
      await assertSiteSources([{ field: 'source', sources: [input.source] }]);
      if (await repo.blacklistTaken(partner.id, input.source))
        throw new FieldsError([{ field: 'source', code: 'dsp_source_listed' }]);
      return toBlacklistItem(await repo.insertBlacklist({ dspPartnerId: partner.id, ...input }));
    },
    async updateBlacklist(
      row: DspBlacklistRow,
      input: { source?: string | undefined; comment?: string | undefined },
    ) {
      if (input.source !== undefined)
        await assertSiteSources([{ field: 'source', sources: [input.source] }], [row.source]);
      if (input.source !== undefined && (await repo.blacklistTaken(row.dspPartnerId, input.source, row.id)))
        throw new FieldsError([{ field: 'source', code: 'dsp_source_listed' }]);
      const values = {
        ...(input.source !== undefined ? { source: input.source } : {}),
        ...(input.comment !== undefined ? { comment: input.comment } : {}),
      };
      return toBlacklistItem(Object.keys(values).length ? await repo.updateBlacklist(row.id, values) : row);
    },
    removeBlacklist: (row: DspBlacklistRow) => repo.removeBlacklist(row.id),
  };
}
export type DspPartnersService = ReturnType<typeof createDspPartnersService>;
