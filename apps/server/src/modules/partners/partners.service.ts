import { randomBytes } from 'node:crypto';
import type { Partner, PartnerInput, PartnerPreview, PartnerUpdate } from '@adp/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agencies } from '../../db/schema/index.ts';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { sniffImageType } from '../../lib/image-type.ts';
import type { Storage } from '../../lib/storage.ts';
import type { AgenciesRepository, AgencyRecord } from '../agencies/agencies.repository.ts';
import { type AgenciesService, LOGO_MAX_BYTES } from '../agencies/agencies.service.ts';
import { recordEntityLog } from '../entity-logs/entity-logs.repository.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { type PartnersRepository, toPartner } from './partners.repository.ts';

const UPLOADS = '/uploads/';

/** The entity type of partners in the audit log (GET /api/partners/<id>/logs). */
export const PARTNER_LOG = 'partner';
/** The fields the log follows (not `name`, the same as `title`, nor counters). */
const LOGGED = [
  'title',
  'user_id',
  'logo',
  'agency_rate',
  'phoenix_rate',
  'campaign_rate',
  'showlogo',
  'showamount',
];

type Values = PartnerUpdate;
function columns(v: Values): Partial<typeof agencies.$inferInsert> {
  const out: Partial<typeof agencies.$inferInsert> = {};
  if (v.title !== undefined) out.title = v.title;
  if (v.agency_rate !== undefined) out.agencyRate = v.agency_rate.toFixed(2);
  if (v.phoenix_rate !== undefined) out.phoenixRate = v.phoenix_rate.toFixed(2);
  if (v.campaign_rate !== undefined) out.campaignRate = v.campaign_rate.toFixed(2);
  if (v.showlogo !== undefined) out.showlogo = v.showlogo;
  if (v.showamount !== undefined) out.showamount = v.showamount;
  return out;
}

/**
 * Partners (agency groups), admin only: every write and its audit log row share one transaction.
 * The group is an agency record (same table as /api/agencies), owned by a user of the agency role.
 */
export function createPartnersService(deps: {
  db: Db;
  repo: PartnersRepository;
  agencies: { repo: AgenciesRepository; service: AgenciesService };
  users: UsersRepository;
  storage: Storage;
}) {
  const { db, repo, users, storage } = deps;
  const dropFile = async (logo: string | null) => {
    if (logo?.startsWith(UPLOADS)) await storage.delete(logo.slice(UPLOADS.length));
  };

  async function load(id: number): Promise<AgencyRecord> {
    const found = await deps.agencies.repo.findById(id);
    if (!found) throw new AppError(404, 'not_found');
    return found;
  }
  async function view(group: AgencyRecord): Promise<Partner> {
    return toPartner({ ...group, ownerName: await repo.ownerName(group.userId) });
  }

  return {
    repo,
    load,
    view,
    async get(id: number) {
      return view(await load(id));
    },

    async create(actorId: number, input: PartnerInput): Promise<Partner> {
      const owner = await users.findById(Number(input.user_id));
      if (owner?.role !== 'agency') throw new FieldsError([{ field: 'user_id', code: 'role_not_agency' }]);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(agencies)
          .values({ ...columns(input), title: input.title, userId: owner.id })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const after = toPartner({ ...row, membersCount: 0, ownerName: owner.name });
        await recordEntityLog(tx, {
          entityType: PARTNER_LOG,
          entityId: row.id,
          userId: actorId,
          action: 'create',
          before: null,
          after,
          fields: LOGGED,
        });
        return row.id;
      });
      return this.get(id);
    },

    async update(actorId: number, group: AgencyRecord, values: Values): Promise<Partner> {
      const before = await view(group);
      await db.transaction(async (tx) => {
        const set = columns(values);
        if (!Object.keys(set).length) return;
        const [row] = await tx.update(agencies).set(set).where(eq(agencies.id, group.id)).returning();
        if (!row) throw new AppError(404, 'not_found');
        const after = toPartner({ ...row, membersCount: group.membersCount, ownerName: before.owner_name });
        await recordEntityLog(tx, {
          entityType: PARTNER_LOG,
          entityId: group.id,
          userId: actorId,
          action: 'update',
          before,
          after,
          fields: LOGGED,
        });
      });
      return this.get(group.id);
    },

    async delete(actorId: number, group: AgencyRecord): Promise<void> {
      const before = await view(group);
      await db.transaction(async (tx) => {
        await tx.delete(agencies).where(eq(agencies.id, group.id));
        await recordEntityLog(tx, {
          entityType: PARTNER_LOG,
          entityId: group.id,
          userId: actorId,
          action: 'delete',
          before,
          after: null,
          fields: LOGGED,
        });
      });
      // the logo file goes once the row is gone (agencies.service.delete does the same for agencies)
      await dropFile(group.logo);
    },

    /**
     * A new logo: png, jpeg, webp or gif by its first bytes, at most LOGO_MAX_BYTES, stored like the
     * agencies' logos (`/uploads/agencies/…`); the row and its log change together, then the old file goes.
     */
    async setLogo(actorId: number, group: AgencyRecord, bytes: Buffer): Promise<Partner> {
      const type = sniffImageType(bytes);
      if (!type || bytes.length > LOGO_MAX_BYTES)
        throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
      const before = await view(group);
      const key = `agencies/${group.id}-${randomBytes(8).toString('hex')}.${type.ext}`;
      await storage.put(key, bytes, type.contentType);
      const logo = `${UPLOADS}${key}`;
      await db.transaction(async (tx) => {
        await tx.update(agencies).set({ logo }).where(eq(agencies.id, group.id));
        await recordEntityLog(tx, {
          entityType: PARTNER_LOG,
          entityId: group.id,
          userId: actorId,
          action: 'update',
          before,
          after: { ...before, logo },
          fields: ['logo'],
        });
      });
      await dropFile(group.logo);
      return this.get(group.id);
    },

    /** What the members see, with unsaved display settings applied over the stored ones. */
    async preview(
      group: AgencyRecord,
      draft: Partial<Pick<Partner, 'title' | 'showlogo' | 'showamount'>> = {},
    ): Promise<PartnerPreview> {
      const showlogo = draft.showlogo ?? group.showlogo;
      const showamount = draft.showamount ?? group.showamount;
      const members = await repo.previewMembers(group);
      return {
        title: draft.title ?? group.title,
        logo: showlogo ? group.logo : null,
        showlogo,
        showamount,
        members: members.map((m) => ({ ...m, balance: showamount ? m.balance : null })),
      };
    },
  };
}
export type PartnersService = ReturnType<typeof createPartnersService>;
