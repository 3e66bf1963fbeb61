import {
  type ContentBodies,
  type ContentPage,
  type ContentPageEdit,
  type ContentSlug,
  defaultLocale,
  type Locale,
  locales,
} from '@adp/contract';
import type { ContentPagesRepository } from './content-pages.repository.ts';

export type ContentPagesService = ReturnType<typeof createContentPagesService>;

export function createContentPagesService({ repo }: { repo: ContentPagesRepository }) {
  return {
    /** The page in the asked language; the English text when that language has none yet. */
    async read(slug: ContentSlug, locale: Locale): Promise<ContentPage> {
      const own = await repo.one(slug, locale);
      if (own?.body) return { slug, locale, body: own.body, updated_at: own.updatedAt.toISOString() };
      const fallback = locale === defaultLocale ? undefined : await repo.one(slug, defaultLocale);
      if (fallback?.body) {
        return {
          slug,
          locale: defaultLocale,
          body: fallback.body,
          updated_at: fallback.updatedAt.toISOString(),
        };
      }
      return { slug, locale, body: '', updated_at: null };
    },

    /** Every language's text, for the admin's form. */
    async edit(slug: ContentSlug): Promise<ContentPageEdit> {
      const rows = await repo.all(slug);
      const bodies = Object.fromEntries(locales.map((l) => [l, ''])) as ContentBodies;
      let updated: Date | null = null;
      for (const row of rows) {
        if ((locales as readonly string[]).includes(row.locale)) bodies[row.locale as Locale] = row.body;
        if (!updated || row.updatedAt > updated) updated = row.updatedAt;
      }
      return { slug, bodies, updated_at: updated?.toISOString() ?? null };
    },

    async save(slug: ContentSlug, bodies: ContentBodies, userId: number): Promise<ContentPageEdit> {
      await repo.save(slug, bodies, userId);
      return this.edit(slug);
    },
  };
}
