import { registerInput } from '@adp/contract';
import { z } from 'zod';
import { validationErrorMap } from '../../lib/validation.ts';

/**
 * The register form's check with the contract's own rules. The page imports this module when the
 * form is first submitted, so zod and the contract stay out of the page's first load.
 */
export const registerFields = registerInput
  .pick({ name: true, email: true, password: true, phone: true })
  // The checkbox holds a boolean; the contract's rule (must be true) still decides.
  .extend({ privacy_policy_agreed: z.boolean().pipe(registerInput.shape.privacy_policy_agreed) });

export type RegisterForm = z.input<typeof registerFields>;

/** Encoded validation messages by field name (the first issue of each field), empty when valid. */
export function checkRegister(values: RegisterForm): Partial<Record<keyof RegisterForm, string>> {
  const parsed = registerFields.safeParse(values, { error: validationErrorMap });
  const errors: Partial<Record<keyof RegisterForm, string>> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]) as keyof RegisterForm;
    errors[field] ??= issue.message;
  }
  return errors;
}
