import type { ContentBodies, ContentSlug, Locale } from '@adp/contract';
import { locales } from '@adp/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contentPages } from '../../db/schema/index.ts';

export type ContentPagesRepository = ReturnType<typeof createContentPagesRepository>;

/** The FAQ and contacts texts, one row per page and language. */
export function createContentPagesRepository(db: Db) {
  return {
    async one(slug: ContentSlug, locale: Locale) {
      const [row] = await db
        .select({ body: contentPages.body, updatedAt: contentPages.updatedAt })
        .from(contentPages)
        .where(and(eq(contentPages.slug, slug), eq(contentPages.locale, locale)));
      return row;
    },

    async all(slug: ContentSlug) {
      return db
        .select({ locale: contentPages.locale, body: contentPages.body, updatedAt: contentPages.updatedAt })
        .from(contentPages)
        .where(eq(contentPages.slug, slug));
    },

    /** Every language's text at once (one statement: the page never shows half an edit). */
    async save(slug: ContentSlug, bodies: ContentBodies, userId: number) {
      await db
        .insert(contentPages)
        .values(locales.map((locale) => ({ slug, locale, body: bodies[locale], updatedBy: userId })))
        .onConflictDoUpdate({
          target: [contentPages.slug, contentPages.locale],
          set: { body: sql`excluded.body`, updatedBy: sql`excluded.updated_by`, updatedAt: sql`now()` },
        });
    },
  };
}
