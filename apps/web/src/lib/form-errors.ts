import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.ts';

/**
 * Puts the 422 entries that name a field of the form under that field. The toasts come from the
 * query client's mutation cache (notifyError), so a failed write is shown in both places.
 * @example catch (error) { setFieldErrors(error, form.setError, ['sum', 'source']) }
 */
export function setFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  if (!(error instanceof ApiError)) return;
  for (const entry of error.fieldErrors) {
    const field = fields.find((name) => name === entry.field);
    if (field) setError(field, { message: entry.detail });
  }
}
