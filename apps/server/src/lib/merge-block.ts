import type { z } from 'zod';
import { RequestValidationError } from './errors.ts';

/**
 * A PUT's nested block (a campaign's `openrtb`, a creative's `targeting`, a widget's `settings`, a site's
 * `parser`, a landing's `form`) merged over the stored one: the fields sent replace theirs, the others keep
 * their stored values (`patchOf` with `blocks` in the contract), and so do the fields of a nested object
 * the block holds (a targeting dimension's `state` when only its `values` are sent). The merged block is checked whole, so its
 * rules across fields hold; a failure is the usual 422 on the field's full path (`openrtb.ecpm_bid`).
 * @param path where the block sits in the request body, e.g. `['campaign', 'openrtb']`
 * @returns undefined when the request did not send the block (the stored one stays as it is)
 */
const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function mergedBlock<T>(
  schema: z.ZodType<T>,
  stored: unknown,
  sent: object | undefined,
  path: readonly [string, string],
): T | undefined {
  if (sent === undefined) return undefined;
  const base = schema.safeParse(stored);
  const merged: Record<string, unknown> = { ...(base.success ? (base.data as object) : {}) };
  // one level deeper too: a targeting dimension sent without its state keeps the stored state
  for (const [key, value] of Object.entries(sent)) {
    const before = merged[key];
    merged[key] = isPlain(value) && isPlain(before) ? { ...before, ...value } : value;
  }
  const checked = schema.safeParse(merged);
  if (checked.success) return checked.data;
  const [wrapper, field] = path;
  throw new RequestValidationError(
    checked.error.issues.map((issue) => ({ ...issue, path: [wrapper, field, ...issue.path] })),
    { [wrapper]: { [field]: merged } },
    'body',
  );
}
