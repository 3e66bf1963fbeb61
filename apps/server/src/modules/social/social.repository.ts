import type { SocialGroup } from '@adp/contract';
import { and, asc, count, desc, eq, gt, inArray, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { materials, socialGroups, socialPosts } from '../../db/schema/index.ts';
import { pageOf } from '../../lib/paging.ts';

type GroupTable = typeof socialGroups.$inferSelect;
/** A group with the number of its published posts. */
export type GroupRow = GroupTable & { postsCount: number };
export type GroupValues = Partial<typeof socialGroups.$inferInsert>;

// raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
const postsCount = sql<number>`(select count(*)::int from social_posts sp where sp.group_id = social_groups.id and sp.external_id is not null)`;

export function createSocialRepository(db: Db) {
  const toGroup = (row: GroupRow): SocialGroup => ({
    _id: String(row.id),
    user_id: String(row.userId),
    site_id: String(row.siteId),
    title: row.title,
    facebook_page_id: row.facebookPageId,
    has_token: row.accessToken !== '',
    autopublish: row.autopublish,
    valid_days: row.validDays,
    use_description: row.useDescription,
    category_blacklist: row.categoryBlacklist,
    date_order: row.dateOrder as SocialGroup['date_order'],
    rights_checked_at: row.rightsCheckedAt?.toISOString() ?? null,
    posts_count: row.postsCount,
    created_at: row.createdAt.toISOString(),
  });
  const groupRow = (r: { g: GroupTable; n: number }): GroupRow => ({ ...r.g, postsCount: r.n });

  return {
    toGroup,
    async row(id: number) {
      const [row] = await db
        .select({ g: socialGroups, n: postsCount })
        .from(socialGroups)
        .where(eq(socialGroups.id, id));
      return row && groupRow(row);
    },
    async list(q: {
      page: number;
      limit: number;
      userIds?: number[] | undefined;
      siteId?: number | undefined;
    }) {
      const conds: SQL[] = [];
      if (q.userIds) conds.push(inArray(socialGroups.userId, q.userIds));
      if (q.siteId !== undefined) conds.push(eq(socialGroups.siteId, q.siteId));
      const where = conds.length ? and(...conds) : undefined;
      return pageOf(
        q,
        db.select({ n: count() }).from(socialGroups).where(where),
        (w) =>
          db
            .select({ g: socialGroups, n: postsCount })
            .from(socialGroups)
            .where(where)
            .orderBy(desc(socialGroups.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toGroup(groupRow(r)),
      );
    },
    async insert(values: typeof socialGroups.$inferInsert) {
      const [row] = await db.insert(socialGroups).values(values).returning();
      return { ...row!, postsCount: 0 };
    },
    async update(row: GroupRow, values: GroupValues) {
      const [updated] = await db
        .update(socialGroups)
        .set(values)
        .where(eq(socialGroups.id, row.id))
        .returning();
      return { ...updated!, postsCount: row.postsCount };
    },
    async remove(id: number) {
      await db.delete(socialGroups).where(eq(socialGroups.id, id));
    },
    autopublishing: () => db.select().from(socialGroups).where(eq(socialGroups.autopublish, true)),

    /**
     * Materials of the group's site younger than `since`, not expired, not yet posted to this group, not
     * of a `blacklist` category (lower case).
     */
    async candidates(group: GroupTable, since: Date, limit: number, blacklist: string[] = []) {
      const published = sql`coalesce(${materials.publishedAt}, ${materials.createdAt})`;
      const rows = await db
        .select({ m: materials })
        .from(materials)
        .leftJoin(
          socialPosts,
          and(eq(socialPosts.materialId, materials.id), eq(socialPosts.groupId, group.id)),
        )
        .where(
          and(
            eq(materials.siteId, group.siteId),
            isNull(socialPosts.id),
            gt(published, since),
            gt(materials.expiresAt, new Date()),
            blacklist.length ? notInArray(sql`lower(${materials.category})`, blacklist) : undefined,
          ),
        )
        .orderBy(group.dateOrder === 'asc' ? asc(published) : desc(published), asc(materials.id))
        .limit(limit);
      return rows.map((r) => r.m);
    },
    /** Claims an article for a group; undefined when another run claimed it first. */
    async claimPost(groupId: number, materialId: number) {
      const [claim] = await db
        .insert(socialPosts)
        .values({ groupId, materialId })
        .onConflictDoNothing()
        .returning({ id: socialPosts.id });
      return claim?.id;
    },
    async postDone(postId: number, externalId: string) {
      await db.update(socialPosts).set({ externalId }).where(eq(socialPosts.id, postId));
    },
    async releasePost(postId: number) {
      await db.delete(socialPosts).where(eq(socialPosts.id, postId));
    },
  };
}
export type SocialRepository = ReturnType<typeof createSocialRepository>;
