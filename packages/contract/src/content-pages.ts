import { z } from 'zod';
import { locale } from './common.ts';

/** The admin-written pages of SPEC.md section 2 ("FAQ; contacts"). */
export const contentSlugs = ['faq', 'contacts'] as const;
export const contentSlug = z.enum(contentSlugs);
export type ContentSlug = z.infer<typeof contentSlug>;

/** At most this many characters per language. */
export const CONTENT_MAX = 20_000;

/**
 * The text of one language: plain text, where a line starting with `## ` is a heading, `- ` a list item,
 * and http(s) addresses and e-mail addresses become links. Rendered as text, never as HTML.
 */
const body = z
  .string()
  .max(CONTENT_MAX)
  .transform((s) => s.replace(/\r\n?/g, '\n').trim());

export const contentBodies = z.strictObject({
  en: body,
  ru: body,
  uk: body,
  de: body,
  fr: body,
  pt: body,
});
export type ContentBodies = z.infer<typeof contentBodies>;
const storedBodies = z.object({
  en: z.string(),
  ru: z.string(),
  uk: z.string(),
  de: z.string(),
  fr: z.string(),
  pt: z.string(),
});

/** `PUT /api/pages/{slug}` body. */
export const contentPageUpdate = z.strictObject({ page: z.strictObject({ bodies: contentBodies }) });

/** `GET /api/pages/{slug}`: the text in the asked language, English when that one is empty. */
export const contentPage = z.object({
  slug: contentSlug,
  /** The language of `body` (the asked one, or `en` when it had no text). */
  locale,
  body: z.string(),
  updated_at: z.string().nullable(),
});
export type ContentPage = z.infer<typeof contentPage>;

/** `GET /api/pages/{slug}/edit` (admins): every language's text. */
export const contentPageEdit = z.object({
  slug: contentSlug,
  bodies: storedBodies,
  updated_at: z.string().nullable(),
});
export type ContentPageEdit = z.infer<typeof contentPageEdit>;
