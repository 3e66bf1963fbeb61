import {
  type EntityLogsQuery,
  fromMicros,
  type Partner,
  type PartnersQuery,
  type PartnerUpdate,
} from '@adp/contract';
import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agencies, agencyMembers, sites, users } from '../../db/schema/index.ts';
import { containsPattern, pageOf } from '../../lib/paging.ts';
import {
  type AgencyRecord,
  type AgencyRow,
  deleteAgency,
  toAgency,
} from '../agencies/agencies.repository.ts';
import { listEntityLogs, recordEntityLog } from '../entity-logs/entity-logs.repository.ts';

const membersCount = sql<number>`(select count(*)::int from "agency_members" as "m" inner join "users" as "mu" on "mu"."id" = "m"."user_id" and "mu"."role" = 'agencymember' where "m"."agency_id" = "agencies"."id")`;

export function toPartner(row: AgencyRow & { membersCount: number; ownerName: string | null }): Partner {
  return { ...toAgency(row), name: row.title, owner_name: row.ownerName };
}

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
  'status',
];

function columns(v: PartnerUpdate): Partial<typeof agencies.$inferInsert> {
  const out: Partial<typeof agencies.$inferInsert> = {};
  if (v.title !== undefined) out.title = v.title;
  if (v.agency_rate !== undefined) out.agencyRate = v.agency_rate.toFixed(2);
  if (v.phoenix_rate !== undefined) out.phoenixRate = v.phoenix_rate.toFixed(2);
  if (v.campaign_rate !== undefined) out.campaignRate = v.campaign_rate.toFixed(2);
  if (v.showlogo !== undefined) out.showlogo = v.showlogo;
  if (v.showamount !== undefined) out.showamount = v.showamount;
  if (v.status !== undefined) out.status = v.status;
  return out;
}

/** What partners (agency groups) read besides the agencies repository: lists, their sites, members. */
export function createPartnersRepository(db: Db) {
  return {
    /** The audit log of one group. */
    logs: (entityId: number, q: EntityLogsQuery) => listEntityLogs(db, PARTNER_LOG, entityId, q),

    /** Creates the group of an agency user and logs it, in one transaction; its id. */
    create(actorId: number, owner: { id: number; name: string }, values: PartnerUpdate & { title: string }) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(agencies)
          .values({ ...columns(values), title: values.title, userId: owner.id })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const after = toPartner({ ...row, membersCount: 0, ownerName: owner.name });
        const entry = { entityType: PARTNER_LOG, entityId: row.id, userId: actorId, fields: LOGGED };
        await recordEntityLog(tx, { ...entry, action: 'create', before: null, after });
        return row.id;
      });
    },

    /** Changes a group and logs the changed fields, in one transaction (nothing to change: nothing done). */
    update(actorId: number, group: AgencyRecord, values: PartnerUpdate, before: Partner) {
      const set = columns(values);
      if (!Object.keys(set).length) return Promise.resolve();
      return db.transaction(async (tx) => {
        const [row] = await tx.update(agencies).set(set).where(eq(agencies.id, group.id)).returning();
        if (!row) return;
        const after = toPartner({ ...row, membersCount: group.membersCount, ownerName: before.owner_name });
        const entry = { entityType: PARTNER_LOG, entityId: group.id, userId: actorId, fields: LOGGED };
        await recordEntityLog(tx, { ...entry, action: 'update', before, after });
      });
    },

    /** Logs a change made to the group through /api/agencies (the same record): the group's log is whole. */
    async logChange(actorId: number, groupId: number, before: Partner, after: Partner) {
      const entry = { entityType: PARTNER_LOG, entityId: groupId, userId: actorId, fields: LOGGED };
      await recordEntityLog(db, { ...entry, action: 'update', before, after });
    },

    /** Sets the logo's URL and logs it, in one transaction. */
    setLogo(actorId: number, groupId: number, logo: string, before: Partner) {
      return db.transaction(async (tx) => {
        await tx.update(agencies).set({ logo }).where(eq(agencies.id, groupId));
        const entry = { entityType: PARTNER_LOG, entityId: groupId, userId: actorId, fields: ['logo'] };
        await recordEntityLog(tx, { ...entry, action: 'update', before, after: { ...before, logo } });
      });
    },

    /** Deletes a group (members keep their accounts) and logs it, in one transaction. */
    delete(actorId: number, groupId: number, before: Partner) {
      return db.transaction(async (tx) => {
        // its members, in no agency now, become default users (as when the agency itself is deleted)
        await deleteAgency(tx, groupId);
        const entry = { entityType: PARTNER_LOG, entityId: groupId, userId: actorId, fields: LOGGED };
        await recordEntityLog(tx, { ...entry, action: 'delete', before, after: null });
      });
    },

    list(q: PartnersQuery) {
      const where = q.q
        ? or(ilike(agencies.title, containsPattern(q.q)), ilike(users.name, containsPattern(q.q)))
        : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(agencies).leftJoin(users, eq(users.id, agencies.userId)).where(where),
        (w) =>
          db
            .select({ agency: agencies, membersCount, ownerName: users.name })
            .from(agencies)
            .leftJoin(users, eq(users.id, agencies.userId))
            .where(where)
            .orderBy(desc(agencies.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toPartner({ ...r.agency, membersCount: r.membersCount, ownerName: r.ownerName }),
      );
    },

    async ownerName(userId: number): Promise<string | null> {
      const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
      return row?.name ?? null;
    },

    /** The sites of the group: its owner's and its current members'. */
    async siteIds(group: AgencyRecord): Promise<number[]> {
      const owners = [group.userId, ...group.memberIds];
      const rows = await db.select({ id: sites.id }).from(sites).where(inArray(sites.userId, owners));
      return rows.map((r) => r.id);
    },

    /** The sites of every group (their owners' and members'), for the second stats tree's partners tree. */
    async allSiteIds(): Promise<number[]> {
      const rows = await db
        .select({ id: sites.id })
        .from(sites)
        .where(
          or(
            inArray(sites.userId, db.select({ id: agencies.userId }).from(agencies)),
            // members while their role says so, as a group's own list counts them
            inArray(
              sites.userId,
              db
                .select({ id: agencyMembers.userId })
                .from(agencyMembers)
                .innerJoin(users, and(eq(users.id, agencyMembers.userId), eq(users.role, 'agencymember'))),
            ),
          ),
        );
      return rows.map((r) => r.id);
    },

    /** A few members as the preview shows them, in the order they joined. */
    async previewMembers(group: AgencyRecord, limit = 5) {
      if (!group.memberIds.length) return [];
      const rows = await db
        .select({ id: users.id, name: users.name, balance: users.balance })
        .from(agencyMembers)
        .innerJoin(users, eq(users.id, agencyMembers.userId))
        .where(and(eq(agencyMembers.agencyId, group.id), inArray(users.id, group.memberIds)))
        .orderBy(agencyMembers.createdAt, users.id)
        .limit(limit);
      return rows.map((r) => ({ _id: String(r.id), name: r.name, balance: fromMicros(r.balance) }));
    },
  };
}
export type PartnersRepository = ReturnType<typeof createPartnersRepository>;
