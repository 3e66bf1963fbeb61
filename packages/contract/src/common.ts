import { z } from 'zod';

import { locales } from './constants.ts';

export { defaultLocale, isLocale, type Locale, locales } from './constants.ts';
export const locale = z.enum(locales);

export const status = z.enum(['active', 'inactive']);
export type Status = z.infer<typeof status>;

/** Ids travel as strings (`_id`), whatever the database keeps. */
export const id = z.string().regex(/^[0-9]{1,18}$/);

/**
 * A URL that is rendered or redirected to: `http:` and `https:` only, so `javascript:`, `data:`,
 * `vbscript:` or `file:` never reach a page, a widget or a redirect. Surrounding spaces are dropped.
 * @example httpUrl.parse(' https://news.example/a ') // 'https://news.example/a'; 'javascript:alert(1)' fails with 'http_url'
 */
export const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, message: 'http_url' }));

/**
 * Empty, or an http(s) URL: for optional prefixes and links that are plain strings rather than null.
 * @example optionalHttpUrl.parse('') // ''
 */
export const optionalHttpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => s === '' || httpUrl.safeParse(s).success, { message: 'http_url' });

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

/**
 * The shape of every list answer.
 * @example const usersPage = paged(account); // {items, total, page, limit}
 */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  });

export const fieldError = z.object({ field: z.string(), detail: z.string(), code: z.string().optional() });
export const validationErrorBody = z.object({ errors: z.array(fieldError) });
export type FieldError = z.infer<typeof fieldError>;

/** Any non-validation failure: `error` is a stable code, `message` is translated for the caller. */
export const errorBody = z.object({ error: z.string(), message: z.string().optional() });
export type ErrorBody = z.infer<typeof errorBody>;

/**
 * The schema of a partial update (PUT): every field optional and, unlike `.partial()`, without the
 * create defaults, so fields the client did not send keep their stored values. `blocks` names nested
 * objects (a campaign's `openrtb`, a creative's `targeting`, a widget's `settings`) whose own fields are
 * patched the same way: the server merges what was sent over the stored block and checks the whole
 * (apps/server/src/lib/merge-block.ts), so `{"openrtb": {"ecpm_bid": 2}}` changes the bid only.
 * @example const siteUpdate = patchOf(siteInput.omit({ user_id: true }));
 * @example const campaignUpdate = patchOf(campaignInput, { openrtb: patchOf(campaignOpenRtb) });
 */
export function patchOf<
  S extends z.ZodRawShape,
  B extends { [K in keyof S]?: z.ZodType } = Record<never, z.ZodType>,
>(
  schema: z.ZodObject<S>,
  blocks?: B,
): z.ZodType<{
  [K in keyof z.output<z.ZodObject<S>>]?: K extends keyof B
    ? z.output<NonNullable<B[K]>>
    : z.output<z.ZodObject<S>>[K];
}> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    let inner = field as z.ZodType;
    while (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault)
      inner = inner.unwrap() as z.ZodType;
    const block = (blocks as Record<string, z.ZodType | undefined> | undefined)?.[key];
    shape[key] = (block ?? inner).optional();
  }
  return z.strictObject(shape) as never;
}

/** The answer of calls that only confirm (forgot/reset password, change password). */
export const statusOk = z.object({ status: z.literal('ok') });

/**
 * An instant as an ISO 8601 date-time with its offset, in the years 1970 to 9999: earlier years are no
 * one's plan (PostgreSQL's timestamptz reads a year below 100 as 19xx/20xx, and year 0 not at all).
 * @example instant.parse('2026-03-01T09:00:00+01:00'); '0001-01-01T00:00:00Z' fails with 'date'
 */
export const instant = z.iso.datetime({ offset: true }).refine(
  (v) => {
    const year = new Date(v).getUTCFullYear();
    return year >= 1970 && year <= 9999;
  },
  { message: 'date' },
);
