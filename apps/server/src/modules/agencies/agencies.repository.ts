import { type Agency, type AgencyMember, fromMicros, type Role } from '@adp/contract';
import { and, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agencies, agencyMembers, type UserRow, users } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tx.ts';
import { pageOf } from '../../lib/paging.ts';
import { newAffiliateId } from '../users/users.repository.ts';

export type AgencyRow = typeof agencies.$inferSelect;
/** An agency with what permission checks and answers need besides its own columns. */
export type AgencyRecord = AgencyRow & { memberIds: number[]; membersCount: number };

// spelled out: drizzle leaves column names unqualified in a select list
const membersCount = sql<number>`(select count(*)::int from "agency_members" as "m" where "m"."agency_id" = "agencies"."id")`;

export function toAgency(row: AgencyRow & { membersCount: number }): Agency {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    title: row.title,
    logo: row.logo,
    agency_rate: Number(row.agencyRate),
    phoenix_rate: Number(row.phoenixRate),
    campaign_rate: Number(row.campaignRate),
    showlogo: row.showlogo,
    showamount: row.showamount,
    status: row.status === 'inactive' ? 'inactive' : 'active',
    members_count: Number(row.membersCount),
    created_at: row.createdAt.toISOString(),
  };
}

export function toAgencyMember(row: UserRow): AgencyMember {
  return {
    _id: String(row.id),
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role as Role,
    balance: fromMicros(row.balance),
    created_at: row.createdAt.toISOString(),
  };
}

/** Columns an agency's settings and title map to; rates are numeric(5,2) and travel as strings. */
export interface AgencyValues {
  title?: string | undefined;
  agency_rate?: number | undefined;
  phoenix_rate?: number | undefined;
  campaign_rate?: number | undefined;
  showlogo?: boolean | undefined;
  showamount?: boolean | undefined;
}

function columns(v: AgencyValues): Partial<typeof agencies.$inferInsert> {
  const out: Partial<typeof agencies.$inferInsert> = {};
  if (v.title !== undefined) out.title = v.title;
  if (v.agency_rate !== undefined) out.agencyRate = String(v.agency_rate);
  if (v.phoenix_rate !== undefined) out.phoenixRate = String(v.phoenix_rate);
  if (v.campaign_rate !== undefined) out.campaignRate = String(v.campaign_rate);
  if (v.showlogo !== undefined) out.showlogo = v.showlogo;
  if (v.showamount !== undefined) out.showamount = v.showamount;
  return out;
}

/**
 * An agency's rights over a member hold only while the member's role is agencymember: a changed role
 * deletes the membership (users.changeRole), and every query that grants rights checks it again.
 */
const isMember = eq(users.role, 'agencymember');

/**
 * Members who are in no agency any more (removed, or their agency deleted) become default users: the
 * role said whose agency they were in, and an account may join another agency only as a new member.
 */
async function release(tx: Tx, userIds: number[]) {
  if (!userIds.length) return;
  await tx
    .update(users)
    .set({ role: 'default', updatedAt: new Date() })
    .where(
      and(
        inArray(users.id, userIds),
        eq(users.role, 'agencymember'),
        sql`not exists (select 1 from agency_members m where m.user_id = ${users.id})`,
      ),
    );
}

/**
 * Deletes an agency in the caller's transaction; its members keep their accounts (the membership rows
 * cascade away) and, in no agency now, become default users (see `release`).
 */
export async function deleteAgency(tx: Tx, id: number) {
  const members = await tx
    .select({ userId: agencyMembers.userId })
    .from(agencyMembers)
    .where(eq(agencyMembers.agencyId, id));
  await tx.delete(agencies).where(eq(agencies.id, id));
  await release(
    tx,
    members.map((m) => m.userId),
  );
}

export function createAgenciesRepository(db: Db) {
  return {
    /**
     * A page of agencies. `scope` limits it to agencies owned by `ownerIds` or having one of
     * `memberIds` as a member; undefined means every agency (admins).
     */
    async list(opts: {
      page: number;
      limit: number;
      account?: number | undefined;
      scope?: { ownerIds: number[]; memberIds: number[] } | undefined;
    }) {
      const conds: SQL[] = [];
      if (opts.account !== undefined) conds.push(eq(agencies.userId, opts.account));
      if (opts.scope) {
        const { ownerIds, memberIds } = opts.scope;
        const visible = or(
          ownerIds.length ? inArray(agencies.userId, ownerIds) : undefined,
          memberIds.length
            ? inArray(
                agencies.id,
                db
                  .select({ id: agencyMembers.agencyId })
                  .from(agencyMembers)
                  .where(inArray(agencyMembers.userId, memberIds)),
              )
            : undefined,
        );
        conds.push(visible ?? sql`false`);
      }
      const where = and(...conds);
      return pageOf(
        opts,
        db.select({ n: count() }).from(agencies).where(where),
        (w) =>
          db
            .select({ agency: agencies, membersCount })
            .from(agencies)
            .where(where)
            .orderBy(desc(agencies.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toAgency({ ...r.agency, membersCount: r.membersCount }),
      );
    },

    /** The agency of a member while the membership grants rights (the member's role, the owner's). */
    async ofMember(userId: number) {
      const [row] = await db
        .select({
          title: agencies.title,
          logo: agencies.logo,
          showlogo: agencies.showlogo,
          showamount: agencies.showamount,
        })
        .from(agencyMembers)
        .innerJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
        .innerJoin(users, eq(users.id, agencyMembers.userId))
        .where(
          and(
            eq(agencyMembers.userId, userId),
            isMember,
            sql`exists (select 1 from users o where o.id = ${agencies.userId} and o.role = 'agency')`,
          ),
        )
        .limit(1);
      return row;
    },

    async findById(id: number): Promise<AgencyRecord | undefined> {
      const [row] = await db.select().from(agencies).where(eq(agencies.id, id));
      if (!row) return undefined;
      const members = await db
        .select({ userId: agencyMembers.userId })
        .from(agencyMembers)
        .innerJoin(users, eq(users.id, agencyMembers.userId))
        .where(and(eq(agencyMembers.agencyId, id), isMember));
      const memberIds = members.map((m) => m.userId);
      return { ...row, memberIds, membersCount: memberIds.length };
    },

    async create(userId: number, values: AgencyValues & { title: string }): Promise<AgencyRow> {
      const [row] = await db
        .insert(agencies)
        .values({ ...columns(values), title: values.title, userId })
        .returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    },

    async update(id: number, values: AgencyValues & { logo?: string | null }): Promise<void> {
      const set = { ...columns(values), ...(values.logo !== undefined ? { logo: values.logo } : {}) };
      if (Object.keys(set).length === 0) return;
      await db.update(agencies).set(set).where(eq(agencies.id, id));
    },

    /** Ids of the members of every agency `ownerId` owns: the `memberIds` of an agency user's ability. */
    async memberIdsOfOwner(ownerId: number): Promise<string[]> {
      const rows = await db
        .select({ userId: agencyMembers.userId })
        .from(agencyMembers)
        .innerJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
        .innerJoin(users, eq(users.id, agencyMembers.userId))
        .where(and(eq(agencies.userId, ownerId), isMember));
      return rows.map((r) => String(r.userId));
    },

    /** Creates an agencymember user and its membership in one transaction. */
    async addMember(
      agencyId: number,
      values: {
        name: string;
        email: string;
        passwordHash: string;
        phone?: string | undefined;
        locale: string;
      },
    ): Promise<UserRow> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            name: values.name,
            email: values.email,
            passwordHash: values.passwordHash,
            phone: values.phone ?? '',
            locale: values.locale,
            role: 'agencymember',
            affiliateId: newAffiliateId(),
          })
          .returning();
        if (!user) throw new Error('insert returned no row');
        await tx.insert(agencyMembers).values({ agencyId, userId: user.id });
        return user;
      });
    },

    /**
     * Detaches a member (the user stays, in no agency now a default user: see `release`); false when it was
     * not a member of this agency.
     */
    async removeMember(agencyId: number, userId: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const removed = await tx
          .delete(agencyMembers)
          .where(and(eq(agencyMembers.agencyId, agencyId), eq(agencyMembers.userId, userId)))
          .returning({ userId: agencyMembers.userId });
        await release(tx, [userId]);
        return removed.length > 0;
      });
    },

    async listMembers(agencyId: number, opts: { page: number; limit: number }) {
      const where = eq(agencyMembers.agencyId, agencyId);
      return pageOf(
        opts,
        db.select({ n: count() }).from(agencyMembers).where(where),
        (w) =>
          db
            .select({ user: users })
            .from(agencyMembers)
            .innerJoin(users, eq(users.id, agencyMembers.userId))
            .where(where)
            .orderBy(desc(users.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toAgencyMember(r.user),
      );
    },

    async updateMember(
      userId: number,
      values: { name?: string | undefined; email?: string | undefined; phone?: string | undefined },
    ): Promise<UserRow | undefined> {
      const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
      if (values.name !== undefined) set.name = values.name;
      if (values.email !== undefined) set.email = values.email;
      if (values.phone !== undefined) set.phone = values.phone;
      const [row] = await db
        .update(users)
        .set(set)
        .where(and(eq(users.id, userId), isMember))
        .returning();
      return row;
    },
  };
}
export type AgenciesRepository = ReturnType<typeof createAgenciesRepository>;
