import { randomBytes } from 'node:crypto';
import { type Account, fromMicros, type Role } from '@adp/contract';
import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type UserRow, users } from '../../db/schema/index.ts';

export function newAffiliateId(): string {
  return randomBytes(6).toString('hex');
}

export function createUsersRepository(db: Db, publicUrl: string) {
  const toAccount = (row: UserRow): Account => ({
    _id: String(row.id),
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role as Role,
    balance: fromMicros(row.balance),
    currency: row.currency,
    notes: row.notes,
    affiliate_id: row.affiliateId,
    affiliate_url: `${publicUrl}/register?ref=${row.affiliateId}`,
    earn_percent: Number(row.earnPercent),
    locale: (row.locale as Account['locale']) ?? 'en',
    created_at: row.createdAt.toISOString(),
    // pixels and agencies arrive with their issues; until then nobody owns any
    owns: { pixels: 0, agencies: 0 },
  });

  return {
    toAccount,
    async findById(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
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
        .returning();
      return row;
    },
    /** A page of users; `ids` limits it to those ids (a non-admin sees itself and its members). */
    async list(opts: { page: number; limit: number; ids?: number[] | undefined }) {
      const where = opts.ids ? inArray(users.id, opts.ids) : undefined;
      const [total] = await db.select({ n: count() }).from(users).where(where);
      const rows = await db
        .select()
        .from(users)
        .where(where)
        .orderBy(desc(users.id))
        .limit(opts.limit)
        .offset((opts.page - 1) * opts.limit);
      return { items: rows.map(toAccount), total: total?.n ?? 0, page: opts.page, limit: opts.limit };
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
