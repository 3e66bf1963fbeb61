import { randomBytes } from 'node:crypto';
import {
  type Landing,
  type Locale,
  landingForm,
  type landingInput,
  type landingUpdate,
  type PageQuery,
} from '@adp/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { landings } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { ImageType } from '../../lib/image-type.ts';
import { mergedBlock } from '../../lib/merge-block.ts';
import type { Storage } from '../../lib/storage.ts';
import { sqlStateOf } from '../../lib/unique.ts';
import {
  ensureFormFields,
  type LandingFormSpec,
  type LandingGenerator,
  type LandingGeneratorInput,
  sanitizeLanding,
} from './landing-generator.ts';
import type { LandingRecord, LandingsRepository, LeadRow } from './landings.repository.ts';

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

/**
 * A page as a landing may store it: sanitised, and with an input for every field of its form (else the
 * form's own block replaces its forms). Sanitised before the completeness check, so a field inside a
 * dropped element does not count.
 */
function completedPage(html: string, input: LandingGeneratorInput, slug: string): string {
  const clean = sanitizeLanding(html, landingPath(slug));
  if (!input.form.fields.length) return clean;
  return sanitizeLanding(ensureFormFields(clean, input), landingPath(slug));
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
  return completedPage(await generator.generate(input), input, row.slug);
}

/** An uploaded image a saved page does not show is deleted once it is older than this (1 hour). */
export const LANDING_IMAGE_GRACE_MS = 60 * 60_000;

/** A CSV export reads at most this many leads; beyond it the owner pages through the JSON list. */
const CSV_MAX_ROWS = 100_000;

/** A cell as spreadsheets read it: always quoted, and never a formula (CSV injection). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const toLead = (r: LeadRow) => ({
  _id: String(r.id),
  landing_id: String(r.landingId),
  data: r.data,
  date: r.createdAt.toISOString(),
});

/** Landing pages with their form, generated page and leads (SPEC.md section 2 "Landings"). */
export function createLandingsService(deps: {
  repo: LandingsRepository;
  generator: LandingGenerator;
  publicUrl: string;
  storage: Storage;
  log?: FastifyBaseLogger | undefined;
  /**
   * How old an uploaded image must be before a save that no longer shows it deletes it: the editor
   * uploads first and saves the page afterwards, so a younger one may belong to a save still on its way.
   */
  imageGraceMs?: number | undefined;
  now?: (() => Date) | undefined;
}) {
  const { repo, generator, publicUrl, storage, log } = deps;
  const imageGraceMs = deps.imageGraceMs ?? LANDING_IMAGE_GRACE_MS;
  const now = deps.now ?? (() => new Date());
  const out = (row: LandingRecord) => toLanding(row, row.leads, publicUrl);
  /** After the database forgot them: a file that cannot be deleted is logged, the request still succeeds. */
  async function deleteFiles(keys: string[]) {
    for (const key of keys) {
      try {
        await storage.delete(key);
      } catch (err) {
        log?.warn({ err, key }, 'landing image file not deleted');
      }
    }
  }
  /**
   * Stores a new page (a save's or a generation's) and deletes the landing's uploaded images it no longer
   * shows, once they are old enough (`imageGraceMs`).
   */
  async function savePage(row: LandingRecord, values: Parameters<LandingsRepository['update']>[1]) {
    const saved = await repo.updateAndPrune(
      row,
      values,
      new Date(now().getTime() - imageGraceMs),
      (key, savedHtml) => savedHtml?.includes(key) ?? false,
    );
    await deleteFiles(saved.removedKeys);
    return out(saved.row);
  }
  return {
    toLanding: out,
    /**
     * Keeps an image for the landing's page under a new random key (never rewritten, so it is cached
     * forever), records it as the landing's and answers its public address.
     */
    async storeImage(row: { id: number }, bytes: Buffer, type: ImageType) {
      const key = `landings/${row.id}-${randomBytes(8).toString('hex')}.${type.ext}`;
      await storage.put(key, bytes, type.contentType);
      try {
        await repo.addImage(row.id, key, now());
      } catch (err) {
        // the landing was deleted meanwhile (or the database failed): no file without its record
        // (its record waits for the delete's lock on the landing, then fails on the foreign key)
        await deleteFiles([key]);
        if (sqlStateOf(err) === '23503') throw new AppError(404, 'not_found');
        throw err;
      }
      return { url: `${publicUrl}/uploads/${key}` };
    },
    list: (q: PageQuery & { userIds?: number[] | undefined; userId?: number | undefined }) =>
      repo.list(q, out),

    async create(ownerId: number, input: Omit<z.infer<typeof landingInput>, 'user_id'>) {
      const row = await repo.insert({
        userId: ownerId,
        slug: newSlug(input.title),
        title: input.title,
        status: input.status,
        headline: input.headline,
        description: input.description,
        form: input.form,
      });
      return out(row);
    },

    /**
     * Saves the fields sent. A page (edited by hand, or the stored one when the form changes) is held to
     * the same rules as a generated one: sanitised, and with an input for every field of the form, or
     * the form's own block is added (a required field the page lacks would refuse every visitor's lead).
     */
    async update(row: LandingRecord, input: z.infer<typeof landingUpdate>, locale: Locale = 'en') {
      const { html, form: sent, ...fields } = input;
      // the form sent is merged over the stored one: its fields not sent keep their values
      const form = mergedBlock(landingForm, row.form, sent, ['landing', 'form']);
      const rest = form ? { ...fields, form } : fields;
      const complete = (page: string) =>
        completedPage(
          page,
          {
            title: fields.title ?? row.title,
            headline: fields.headline ?? row.headline,
            description: fields.description ?? row.description,
            form: formOf({ form: form ?? row.form }),
            locale,
          },
          row.slug,
        );
      if (html === undefined) {
        if (!form || !row.html) return out(await repo.update(row, rest));
        const page = complete(row.html);
        return page === row.html ? out(await repo.update(row, rest)) : savePage(row, { ...rest, html: page });
      }
      const page =
        html === null || html.trim() === '' ? { html: null, generatedAt: null } : { html: complete(html) };
      return savePage(row, { ...rest, ...page });
    },

    /** Deletes the landing, then (after commit) its uploaded images' files. */
    async remove(row: LandingRecord) {
      await deleteFiles(await repo.remove(row.id));
    },

    async generate(row: LandingRecord, locale: Locale) {
      if (formOf(row).fields.length === 0) throw new AppError(422, 'landing_needs_form', {}, 'form');
      const html = await buildLandingHtml(generator, row, locale);
      // a new page, as a save's: the uploads it does not show go as well
      return savePage(row, { html, generatedAt: new Date() });
    },

    async leads(row: LandingRecord, q: PageQuery) {
      const rows = await repo.leads(row.id, { limit: q.limit, offset: (q.page - 1) * q.limit });
      return { items: rows.map(toLead), total: row.leads, page: q.page, limit: q.limit };
    },

    /** The form's fields first, then any a lead kept from an older version of the form. */
    async leadsCsv(row: LandingRecord, dateLabel: string) {
      const rows = await repo.allLeads(row.id, CSV_MAX_ROWS);
      const columns = formOf(row).fields.map((f) => ({ name: f.name, label: f.label }));
      const known = new Set(columns.map((c) => c.name));
      for (const r of rows)
        for (const key of Object.keys(r.data))
          if (!known.has(key)) {
            known.add(key);
            columns.push({ name: key, label: key });
          }
      const lines = [
        [...columns.map((c) => c.label), dateLabel].map(csvCell).join(','),
        ...rows.map((r) =>
          [...columns.map((c) => r.data[c.name] ?? ''), r.createdAt.toISOString()].map(csvCell).join(','),
        ),
      ];
      return `\uFEFF${lines.join('\r\n')}\r\n`;
    },

    /** The landing a visitor may see at `/l/<slug>`: active and with a page. */
    async published(slug: string): Promise<(LandingRow & { html: string }) | undefined> {
      const row = await repo.bySlug(slug);
      if (row?.status !== 'active' || !row.html) return undefined;
      return row as LandingRow & { html: string };
    },
    addLead: (row: LandingRow, values: Record<string, string>, ip: string) =>
      repo.addLead(row.id, values, ip),
  };
}
export type LandingsService = ReturnType<typeof createLandingsService>;
