import { randomBytes } from 'node:crypto';
import { type Account, fromMicros, type Role, type UsersQuery } from '@adp/contract';
import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  getTableColumns,
  ilike,
  inArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agencyMembers, campaigns, currencies, sites, type UserRow, users } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';
import { convertMicros, type RatesCache } from '../currencies/rates.ts';

export function newAffiliateId(): string {
  return randomBytes(6).toString('hex');
}

/** A user row with the counts its account shows (absent when the row came from elsewhere: then 0). */
export type AccountRow = UserRow & {
  agenciesOwned?: number;
  pixelsOwned?: number;
  sitesOwned?: number;
  campaignsOwned?: number;
  pendingEmail?: string | null;
};

/** The user's columns plus what `owns` counts; use it wherever a row will become an account. */
const accountColumns = {
  ...getTableColumns(users),
  // spelled out: drizzle leaves column names unqualified in a select list, where "id" would be the agency's
  agenciesOwned: sql<number>`(select count(*)::int from "agencies" as "owned" where "owned"."user_id" = "users"."id")`,
  pixelsOwned: sql<number>`(select count(*)::int from "pixels" as "owned_px" where "owned_px"."user_id" = "users"."id")`,
  sitesOwned: sql<number>`(select count(*)::int from "sites" as "owned_s" where "owned_s"."user_id" = "users"."id")`,
  campaignsOwned: sql<number>`(select count(*)::int from "campaigns" as "owned_c" where "owned_c"."user_id" = "users"."id")`,
  pendingEmail: sql<
    string | null
  >`(select "ec"."email" from "email_changes" as "ec" where "ec"."user_id" = "users"."id" and "ec"."used_at" is null and "ec"."expires_at" > now() order by "ec"."id" desc limit 1)`,
};

/** `rates` turns the balance into the user's display currency without a query per account. */
export function createUsersRepository(db: Db, publicUrl: string, rates?: RatesCache) {
  const displayBalance = (row: UserRow) => {
    const rate = rates?.get(row.currency.trim());
    return rate === undefined ? null : fromMicros(convertMicros(row.balance, rate));
  };
  /**
   * The account as the API answers it, with every field of DESIGN.md's account. Admin notes are for
   * admins (admin, adminreadonly) only: another caller gets `notes` empty (`seesNotes`, users.access.ts).
   */
  const toAccount = (row: AccountRow, seesNotes = false): Account => ({
    _id: String(row.id),
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role as Role,
    balance: fromMicros(row.balance),
    currency: row.currency,
    notes: seesNotes ? row.notes : '',
    pending_email: row.pendingEmail ?? null,
    affiliate_id: row.affiliateId,
    affiliate_url: `${publicUrl}/register?ref=${row.affiliateId}`,
    earn_percent: Number(row.earnPercent),
    locale: (row.locale as Account['locale']) ?? 'en',
    timezone: row.timezone ?? null,
    created_at: row.createdAt.toISOString(),
    owns: {
      pixels: Number(row.pixelsOwned ?? 0),
      agencies: Number(row.agenciesOwned ?? 0),
      sites: Number(row.sitesOwned ?? 0),
      campaigns: Number(row.campaignsOwned ?? 0),
    },
    ...(rates ? { display_balance: displayBalance(row) } : {}),
  });

  return {
    toAccount,
    async findById(id: number): Promise<AccountRow | undefined> {
      const [row] = await db.select(accountColumns).from(users).where(eq(users.id, id));
      return row;
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
      return row;
    },
    async findByAffiliateId(affiliateId: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.affiliateId, affiliateId));
      return row;
    },
    async anyAdmin(): Promise<boolean> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
      return Boolean(row);
    },
    async create(values: {
      name: string;
      email: string;
      passwordHash: string;
      role: Role;
      phone?: string | undefined;
      locale?: string | undefined;
      referrerId?: number | undefined;
      /** When its statistics start to show (self-registration: the 24-hour rule); default none. */
      statsAvailableAt?: Date | undefined;
    }): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({
          ...values,
          phone: values.phone ?? '',
          locale: values.locale ?? 'en',
          affiliateId: newAffiliateId(),
        })
        .returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    },
    async update(id: number, values: Partial<Pick<UserRow, 'passwordHash' | 'role' | 'name' | 'locale'>>) {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning(accountColumns);
      return row;
    },
    /**
     * Sets a user's role. An agency's rights over a member hold only while the member is an
     * agencymember, so any other role ends its agency memberships in the same transaction.
     */
    async changeRole(id: number, role: Role) {
      return db.transaction(async (tx) => {
        // a member belongs to an agency: the role alone, without a membership, is no agency's member
        if (role === 'agencymember') {
          const [member] = await tx
            .select({ id: agencyMembers.userId })
            .from(agencyMembers)
            .where(eq(agencyMembers.userId, id))
            .limit(1);
          if (!member) return 'not_a_member' as const;
        }
        const [row] = await tx
          .update(users)
          .set({ role, updatedAt: new Date() })
          .where(eq(users.id, id))
          .returning(accountColumns);
        if (row && role !== 'agencymember')
          await tx.delete(agencyMembers).where(eq(agencyMembers.userId, id));
        return row;
      });
    },
    /**
     * A page of users; `ids` limits it (a non-admin sees itself and its members). Publishers own a site,
     * advertisers own a campaign; search matches name, e-mail or the exact id.
     */
    async list(opts: UsersQuery & { ids?: number[] | undefined; seesNotes?: boolean }) {
      const conds: SQL[] = [];
      if (opts.ids) conds.push(inArray(users.id, opts.ids));
      if (opts.search) {
        const like = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const byText = or(ilike(users.name, like), ilike(users.email, like));
        conds.push(/^\d{1,15}$/.test(opts.search) ? or(byText, eq(users.id, Number(opts.search)))! : byText!);
      }
      if (opts.kind === 'admins') conds.push(inArray(users.role, ['admin', 'adminreadonly']));
      if (opts.kind === 'publishers')
        conds.push(exists(db.select({ one: sql`1` }).from(sites).where(eq(sites.userId, users.id))));
      if (opts.kind === 'advertisers') {
        conds.push(exists(db.select({ one: sql`1` }).from(campaigns).where(eq(campaigns.userId, users.id))));
      }
      const where = conds.length ? and(...conds) : undefined;
      const column = opts.sort === 'balance' ? users.balance : users.createdAt;
      const direction = opts.order === 'asc' ? asc : desc;
      return pageOf(
        opts,
        db.select({ n: count() }).from(users).where(where),
        (w) =>
          db
            .select(accountColumns)
            .from(users)
            .where(where)
            .orderBy(direction(column), direction(users.id))
            .limit(w.limit)
            .offset(w.offset),
        (row) => toAccount(row, opts.seesNotes),
      );
    },
    async currencyExists(code: string): Promise<boolean> {
      const [row] = await db.select({ id: currencies.id }).from(currencies).where(eq(currencies.code, code));
      return Boolean(row);
    },
    async updateProfile(
      id: number,
      values: Partial<
        Pick<
          UserRow,
          'name' | 'email' | 'phone' | 'currency' | 'locale' | 'timezone' | 'notes' | 'earnPercent'
        >
      >,
    ) {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning(accountColumns);
      return row;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
