import { inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { containsPattern } from './paging.ts';

/**
 * A page of owned records with each owner's name (`user_name`), read in one query for the whole page
 * so a table needs no lookup per row.
 * @example return withOwnerNames(db, await repo.list(q)) // items: [{..., user_id: '7', user_name: 'Anna'}]
 */
export async function withOwnerNames<T extends { user_id: string }, P extends { items: T[] }>(
  db: Db,
  page: P,
): Promise<Omit<P, 'items'> & { items: (T & { user_name: string })[] }> {
  const ids = [...new Set(page.items.map((i) => Number(i.user_id)))];
  const rows = ids.length
    ? await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids))
    : [];
  const names = new Map(rows.map((r) => [String(r.id), r.name]));
  return { ...page, items: page.items.map((i) => ({ ...i, user_name: names.get(i.user_id) ?? '' })) };
}

/** `text` for ILIKE with its wildcards taken literally. */
export const likePattern = containsPattern;

/**
 * Ids of the users whose name or e-mail contains `text` (case-insensitive): the admin lists' owner
 * filter, narrowed by the caller's read scope like the `account` filter.
 */
export async function ownersMatching(db: Db, text: string): Promise<number[]> {
  const pattern = likePattern(text);
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      or(sql`${users.name} ilike ${pattern} escape '\\'`, sql`${users.email} ilike ${pattern} escape '\\'`),
    );
  return rows.map((r) => r.id);
}

/** The user ids a list may show: the read scope, narrowed by `account` (an id) and `owner` (text). */
export async function ownerScope(
  db: Db,
  scope: 'all' | string[],
  filters: { account?: string | undefined; owner?: string | undefined },
): Promise<number[] | undefined> {
  let userIds = scope === 'all' ? undefined : scope.map(Number);
  const narrow = (allowed: number[]) => {
    userIds = userIds ? userIds.filter((u) => allowed.includes(u)) : allowed;
  };
  if (filters.account) narrow([Number(filters.account)]);
  if (filters.owner) narrow(await ownersMatching(db, filters.owner));
  return userIds;
}

/** The owner-name helpers bound to one database: built once with the services, used by list routes. */
export function createOwnerNames(db: Db) {
  return {
    withOwnerNames: <T extends { user_id: string }, R>(page: R & { items: T[] }) =>
      withOwnerNames<T, R & { items: T[] }>(db, page),
    ownerScope: (
      scope: 'all' | string[],
      filters: { account?: string | undefined; owner?: string | undefined },
    ) => ownerScope(db, scope, filters),
  };
}
export type OwnerNames = ReturnType<typeof createOwnerNames>;
