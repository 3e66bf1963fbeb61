import { randomBytes } from 'node:crypto';
import type { AgencyInput, MemberAgency } from '@adp/contract';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { renderLogo } from '../../lib/images.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { Storage } from '../../lib/storage.ts';
import { uniqueViolation } from '../../lib/unique.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { AgenciesRepository, AgencyRecord, AgencyValues } from './agencies.repository.ts';

/** The largest logo accepted, in bytes. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** Where a stored logo's key sits in its public URL (`/uploads/<key>`). */
const uploadsPrefix = '/uploads/';

export function createAgenciesService(deps: {
  repo: AgenciesRepository;
  users: UsersRepository;
  storage: Storage;
}) {
  const { repo, users, storage } = deps;

  async function emailFree(email: string, field: string, exceptUserId?: number) {
    const existing = await users.findByEmail(email);
    if (existing && existing.id !== exceptUserId) throw new FieldsError([{ field, code: 'email_taken' }]);
  }

  async function reload(id: number): Promise<AgencyRecord> {
    const agency = await repo.findById(id);
    if (!agency) throw new AppError(404, 'not_found');
    return agency;
  }

  return {
    reload,
    /** What an agency member's dashboard shows of its agency group (MemberAgency); null outside one. */
    async memberView(userId: number): Promise<MemberAgency | null> {
      const a = await repo.ofMember(userId);
      return a ? { title: a.title, logo: a.showlogo ? a.logo : null, showamount: a.showamount } : null;
    },
    /** The owner must hold the agency role: agencies are what that role manages. */
    async create(ownerId: number, input: AgencyInput): Promise<AgencyRecord> {
      const owner = await users.findById(ownerId);
      if (owner?.role !== 'agency') throw new FieldsError([{ field: 'user_id', code: 'role_not_agency' }]);
      const row = await repo.create(ownerId, input);
      return reload(row.id);
    },

    async update(id: number, values: AgencyValues): Promise<AgencyRecord> {
      await repo.update(id, values);
      return reload(id);
    },

    async addMember(
      agencyId: number,
      input: { name: string; email: string; password: string; phone?: string | undefined },
      locale: string,
    ) {
      await emailFree(input.email, 'email');
      const passwordHash = await hashPassword(input.password);
      try {
        return await repo.addMember(agencyId, { ...input, passwordHash, locale });
      } catch (err) {
        // two requests racing for one e-mail: the unique index decides
        if (uniqueViolation(err)) throw new FieldsError([{ field: 'email', code: 'email_taken' }]);
        throw err;
      }
    },

    async removeMember(agencyId: number, userId: number): Promise<AgencyRecord> {
      if (!(await repo.removeMember(agencyId, userId)))
        throw new FieldsError([{ field: 'user_id', code: 'not_a_member' }]);
      return reload(agencyId);
    },

    /**
     * A member's name, e-mail and phone. Only an admin changes the e-mail (`byAdmin`): an agency that set
     * its member's address could take the account over through a password reset mailed there.
     */
    async updateMember(
      agency: AgencyRecord,
      memberId: number,
      input: { name?: string | undefined; email?: string | undefined; phone?: string | undefined },
      byAdmin: boolean,
    ) {
      if (!agency.memberIds.includes(memberId)) throw new AppError(404, 'not_found');
      if (input.email !== undefined && !byAdmin) {
        const current = await users.findById(memberId);
        if (current && current.email.toLowerCase() !== input.email.toLowerCase())
          throw new AppError(422, 'email_change_not_allowed', {}, 'email');
      }
      if (input.email !== undefined) await emailFree(input.email, 'email', memberId);
      try {
        const row = await repo.updateMember(memberId, input);
        if (!row) throw new AppError(404, 'not_found');
        return row;
      } catch (err) {
        if (uniqueViolation(err)) throw new FieldsError([{ field: 'email', code: 'email_taken' }]);
        throw err;
      }
    },

    /** Stores a new logo (png, jpeg, webp or gif by its first bytes) and drops the previous file. */
    async setLogo(agency: AgencyRecord, bytes: Buffer): Promise<AgencyRecord> {
      if (bytes.length > LOGO_MAX_BYTES) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
      const png = await renderLogo(bytes);
      const key = `agencies/${agency.id}-${randomBytes(8).toString('hex')}.png`;
      await storage.put(key, png, 'image/png');
      await repo.update(agency.id, { logo: `${uploadsPrefix}${key}` });
      if (agency.logo?.startsWith(uploadsPrefix))
        await storage.delete(agency.logo.slice(uploadsPrefix.length));
      return reload(agency.id);
    },
  };
}
export type AgenciesService = ReturnType<typeof createAgenciesService>;
