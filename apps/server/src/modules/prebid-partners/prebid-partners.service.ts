import type { PrebidPartner, PrebidPartnerInput } from '@adp/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prebidPartners } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { recordEntityLog } from '../entity-logs/entity-logs.repository.ts';
import {
  newPrebidKey,
  type PrebidPartnerRow,
  type PrebidPartnersRepository,
  toPrebidPartner,
} from './prebid-partners.repository.ts';

/** The entity type of Prebid partners in the audit log. */
export const PREBID_PARTNER_LOG = 'prebidpartner';

type Values = Partial<{ name: string; bidder_code: string; status: 'active' | 'inactive' }>;
function columns(v: Values): Partial<typeof prebidPartners.$inferInsert> {
  const out: Partial<typeof prebidPartners.$inferInsert> = {};
  if (v.name !== undefined) out.name = v.name;
  if (v.bidder_code !== undefined) out.bidderCode = v.bidder_code;
  if (v.status !== undefined) out.status = v.status;
  return out;
}

/** Prebid partners, admin only: every write and its audit log row share one transaction. */
export function createPrebidPartnersService(deps: {
  db: Db;
  repo: PrebidPartnersRepository;
  publicUrl: string;
}) {
  const { db, repo, publicUrl } = deps;
  const view = (row: PrebidPartnerRow) => toPrebidPartner(row, publicUrl);

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
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(prebidPartners)
          .values({ ...columns(input as Values), name: input.name, key: newPrebidKey() })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const after = view(row);
        await recordEntityLog(tx, {
          entityType: PREBID_PARTNER_LOG,
          entityId: row.id,
          userId: actorId,
          action: 'create',
          before: null,
          after,
        });
        return after;
      });
    },

    async update(actorId: number, found: PrebidPartnerRow, values: Values): Promise<PrebidPartner> {
      const set = columns(values);
      if (!Object.keys(set).length) return view(found);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(prebidPartners)
          .set({ ...set, updatedAt: new Date() })
          .where(eq(prebidPartners.id, found.id))
          .returning();
        if (!row) throw new AppError(404, 'not_found');
        const after = view(row);
        await recordEntityLog(tx, {
          entityType: PREBID_PARTNER_LOG,
          entityId: row.id,
          userId: actorId,
          action: 'update',
          before: view(found),
          after,
        });
        return after;
      });
    },

    async delete(actorId: number, found: PrebidPartnerRow): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(prebidPartners).where(eq(prebidPartners.id, found.id));
        await recordEntityLog(tx, {
          entityType: PREBID_PARTNER_LOG,
          entityId: found.id,
          userId: actorId,
          action: 'delete',
          before: view(found),
          after: null,
        });
      });
    },
  };
}
export type PrebidPartnersService = ReturnType<typeof createPrebidPartnersService>;
