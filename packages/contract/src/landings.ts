import { z } from 'zod';
import { id, locale, patchOf, status } from './common.ts';

export const landingFieldTypes = ['text', 'email', 'phone', 'number', 'textarea'] as const;
export const landingField = z.strictObject({
  name: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{0,39}$/, { message: 'invalid' }),
  label: z.string().trim().min(1).max(100),
  type: z.enum(landingFieldTypes).default('text'),
  required: z.boolean().default(false),
});
export const landingForm = z
  .strictObject({
    fields: z.array(landingField).max(20).default([]),
    submit_label: z.string().trim().max(60).default(''),
  })
  // a lead keeps one value per name, so two fields may not share one
  .superRefine((form, ctx) => {
    const seen = new Set<string>();
    form.fields.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', message: 'invalid', path: ['fields', i, 'name'] });
      seen.add(f.name);
    });
  });

export const landingInput = z.strictObject({
  title: z.string().trim().min(1).max(255),
  status: status.default('inactive'),
  headline: z.string().trim().max(200).default(''),
  description: z.string().trim().max(2000).default(''),
  form: landingForm.default(() => landingForm.parse({})),
  user_id: id.optional(),
});
export const landingUpdate = patchOf(
  landingInput.omit({ user_id: true }).extend({ html: z.string().max(200_000).nullable().default(null) }),
  { form: patchOf(landingForm) },
);
export const landing = landingInput.omit({ user_id: true }).extend({
  _id: id,
  user_id: id,
  slug: z.string(),
  /** Sanitised HTML of the generated page, null until generated. */
  html: z.string().nullable(),
  generated_at: z.string().nullable(),
  /** Public address of the page. */
  public_url: z.string(),
  leads: z.number().int(),
  created_at: z.string(),
});
export type Landing = z.infer<typeof landing>;
/** `locale`: the language of the generated texts; the caller's language when absent. */
export const landingGenerate = z.strictObject({ user_id: id, page_id: id, locale: locale.optional() });
export const landingLead = z.object({
  _id: id,
  landing_id: id,
  data: z.record(z.string(), z.string()),
  date: z.string(),
});

/** POST /api/landings/{id}/images (multipart `file`): the stored image's public address. */
export const landingImage = z.object({ url: z.string() });
export type LandingImage = z.infer<typeof landingImage>;
