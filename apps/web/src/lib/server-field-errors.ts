import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.ts';

/**
 * Puts a 422 answer's entries under the form's fields. Nested API fields (`parser.rss_url`,
 * `settings.columns`) match a flat form field by their last segment, so a form may lay its fields out
 * flat. Answers the entries no field took, for the caller to show elsewhere.
 * @example applyServerErrors(error, form.setError, Object.keys(form.getValues()))
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): { field: string; detail: string }[] {
  if (!(error instanceof ApiError)) return [];
  const rest: { field: string; detail: string }[] = [];
  let focused = false;
  for (const entry of error.fieldErrors) {
    const name = [entry.field, entry.field.split('.').pop() ?? ''].find((candidate) =>
      fields.includes(candidate),
    );
    if (name) {
      setError(name as Path<T>, { message: entry.detail }, { shouldFocus: !focused });
      focused = true;
    } else rest.push(entry);
  }
  return rest;
}
