import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { materials, socialGroups, socialPosts } from '../../db/schema/index.ts';
import type { FacebookClient } from './facebook.ts';

const PER_RUN = 5;

/**
 * Autopublishing: each group with autopublish posts its site's materials younger than `valid_days`,
 * skipping blacklisted categories and what was already posted, in the group's date order.
 */
export function createSocialPublisher(db: Db, facebook: FacebookClient, log: FastifyBaseLogger) {
  async function publishGroup(group: typeof socialGroups.$inferSelect): Promise<number> {
    const blacklist = group.categoryBlacklist
      ? group.categoryBlacklist.split(',').map((c) => c.toLowerCase())
      : [];
    const since = new Date(Date.now() - group.validDays * 86_400_000);
    const published = sql`coalesce(${materials.publishedAt}, ${materials.createdAt})`;
    const candidates = await db
      .select({ m: materials })
      .from(materials)
      .leftJoin(socialPosts, and(eq(socialPosts.materialId, materials.id), eq(socialPosts.groupId, group.id)))
      .where(
        and(
          eq(materials.siteId, group.siteId),
          isNull(socialPosts.id),
          gt(published, since),
          gt(materials.expiresAt, new Date()),
        ),
      )
      .orderBy(group.dateOrder === 'asc' ? asc(published) : desc(published), asc(materials.id))
      .limit(PER_RUN * 4);
    let posted = 0;
    for (const { m } of candidates) {
      if (posted >= PER_RUN) break;
      if (blacklist.includes(m.category.toLowerCase())) continue;
      const message = group.useDescription && m.description ? `${m.title}\n\n${m.description}` : m.title;
      // claim first, so two instances never post the same article
      const [claim] = await db
        .insert(socialPosts)
        .values({ groupId: group.id, materialId: m.id })
        .onConflictDoNothing()
        .returning({ id: socialPosts.id });
      if (!claim) continue;
      try {
        const externalId = await facebook.post(group.facebookPageId, group.accessToken, message, m.url);
        await db.update(socialPosts).set({ externalId }).where(eq(socialPosts.id, claim.id));
        posted += 1;
      } catch (err) {
        await db.delete(socialPosts).where(eq(socialPosts.id, claim.id));
        log.warn({ err, groupId: group.id }, 'facebook post failed');
        break;
      }
    }
    return posted;
  }

  return {
    publishGroup,
    async publishAll(): Promise<string> {
      const groups = await db.select().from(socialGroups).where(eq(socialGroups.autopublish, true));
      let total = 0;
      for (const g of groups) total += await publishGroup(g);
      return `posted ${total}`;
    },
  };
}
export type SocialPublisher = ReturnType<typeof createSocialPublisher>;
