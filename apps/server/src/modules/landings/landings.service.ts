import { randomBytes } from 'node:crypto';
import { type Landing, type Locale, landingForm } from '@adp/contract';
import type { landings } from '../../db/schema/index.ts';
import {
  ensureFormFields,
  type LandingFormSpec,
  type LandingGenerator,
  sanitizeLanding,
} from './landing-generator.ts';

export type LandingRow = typeof landings.$inferSelect;

/** The stored form, read leniently: a row written by an older version still opens. */
export function formOf(row: Pick<LandingRow, 'form'>): LandingFormSpec {
  const parsed = landingForm.safeParse(row.form ?? {});
  return parsed.success ? parsed.data : { fields: [], submit_label: '' };
}

/** Readable and stable: the title's latin words (when any) and a random part that makes it unique. */
export function newSlug(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const tail = randomBytes(5).toString('hex');
  return words ? `${words}-${tail}` : tail;
}

export const landingPath = (slug: string) => `/l/${slug}`;

export function toLanding(row: LandingRow, leads: number, publicUrl: string): Landing {
  return {
    _id: String(row.id),
    user_id: String(row.userId),
    slug: row.slug,
    title: row.title,
    status: row.status as Landing['status'],
    headline: row.headline,
    description: row.description,
    form: formOf(row),
    html: row.html,
    generated_at: row.generatedAt?.toISOString() ?? null,
    public_url: `${publicUrl}${landingPath(row.slug)}`,
    leads: Number(leads),
    created_at: row.createdAt.toISOString(),
  };
}

/** Generates, completes and sanitises the page of a landing; the caller stores it. */
export async function buildLandingHtml(
  generator: LandingGenerator,
  row: LandingRow,
  locale: Locale,
): Promise<string> {
  const input = {
    title: row.title,
    headline: row.headline,
    description: row.description,
    form: formOf(row),
    locale,
  };
  const raw = await generator.generate(input);
  // sanitised before the completeness check, so a field inside a dropped element does not count
  const clean = sanitizeLanding(raw, landingPath(row.slug));
  return sanitizeLanding(ensureFormFields(clean, input), landingPath(row.slug));
}
