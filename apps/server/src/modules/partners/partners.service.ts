import { randomBytes } from 'node:crypto';
import type { Partner, PartnerInput, PartnerPreview, PartnerUpdate } from '@adp/contract';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { renderLogo } from '../../lib/images.ts';
import type { Storage } from '../../lib/storage.ts';
import type { AgenciesRepository, AgencyRecord } from '../agencies/agencies.repository.ts';
import { LOGO_MAX_BYTES } from '../agencies/agencies.service.ts';
import type { DspTrees } from '../dsp-partners/dsp-trees.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { type PartnersRepository, toPartner } from './partners.repository.ts';

export { PARTNER_LOG } from './partners.repository.ts';

const UPLOADS = '/uploads/';

/**
 * Partners (agency groups), admin only: every write and its audit log row share one transaction (in the
 * repository). The group is an agency record (same table as /api/agencies), owned by an agency user.
 */
export function createPartnersService(deps: {
  repo: PartnersRepository;
  agencies: { repo: AgenciesRepository };
  users: UsersRepository;
  storage: Storage;
  /** The exchange's statistics (dsp_rollups): a group's sites' slots sold to DSP partners. */
  dspTrees: DspTrees;
}) {
  const { repo, users, storage } = deps;
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
  const get = async (id: number) => view(await load(id));

  return {
    repo,
    dspTrees: deps.dspTrees,
    load,
    view,
    get,

    async create(actorId: number, input: PartnerInput): Promise<Partner> {
      const owner = await users.findById(Number(input.user_id));
      if (owner?.role !== 'agency') throw new FieldsError([{ field: 'user_id', code: 'role_not_agency' }]);
      return get(await repo.create(actorId, owner, input));
    },

    async update(actorId: number, group: AgencyRecord, values: PartnerUpdate): Promise<Partner> {
      await repo.update(actorId, group, values, await view(group));
      return get(group.id);
    },

    /** A change made through /api/agencies, in the group's log too (records before and after it). */
    async logAgencyChange(actorId: number, before: AgencyRecord, after: AgencyRecord) {
      await repo.logChange(actorId, before.id, await view(before), await view(after));
    },

    async delete(actorId: number, group: AgencyRecord): Promise<void> {
      await repo.delete(actorId, group.id, await view(group));
      // the logo file goes once the row is gone
      await dropFile(group.logo);
    },

    /**
     * A new logo: png, jpeg, webp or gif by its first bytes, at most LOGO_MAX_BYTES, stored like the
     * agencies' logos (`/uploads/agencies/…`); the row and its log change together, then the old file goes.
     */
    async setLogo(actorId: number, group: AgencyRecord, bytes: Buffer): Promise<Partner> {
      if (bytes.length > LOGO_MAX_BYTES) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
      const png = await renderLogo(bytes);
      const before = await view(group);
      const key = `agencies/${group.id}-${randomBytes(8).toString('hex')}.png`;
      await storage.put(key, png, 'image/png');
      await repo.setLogo(actorId, group.id, `${UPLOADS}${key}`, before);
      await dropFile(group.logo);
      return get(group.id);
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
