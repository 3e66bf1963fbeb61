import {
  type DescribedIssue,
  describeIssue,
  type ValidationKey,
  validationKeys,
} from '@adp/contract/validation';
import type { TFunction } from 'i18next';
import type { z } from 'zod';

const knownKeys = new Set<string>(validationKeys);

/**
 * Form errors keep the message key and its placeholders, not text, so they are translated at render
 * time with the field's label and follow a language switch.
 */
export function encodeIssue(described: DescribedIssue): string {
  return JSON.stringify(described);
}

function decodeMessage(message: string): DescribedIssue | null {
  if (knownKeys.has(message)) return { key: message as ValidationKey, params: {} };
  if (!message.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(message);
    if (
      parsed &&
      typeof parsed === 'object' &&
      'key' in parsed &&
      typeof parsed.key === 'string' &&
      knownKeys.has(parsed.key)
    ) {
      const params =
        'params' in parsed && parsed.params && typeof parsed.params === 'object' ? parsed.params : {};
      return { key: parsed.key as ValidationKey, params: params as DescribedIssue['params'] };
    }
  } catch {
    return null;
  }
  return null;
}

function isPresent(input: unknown): boolean {
  return input !== undefined && input !== null && input !== '';
}

/** zod error map for zodResolver: messages become encoded validation keys. */
export function validationErrorMap(issue: z.core.$ZodRawIssue): string {
  const present = isPresent(issue.input);
  // An empty e-mail field is missing, not malformed.
  if (!present && issue.code === 'invalid_format') return encodeIssue({ key: 'required', params: {} });
  return encodeIssue(describeIssue(issue as unknown as z.core.$ZodIssue, present));
}

/** A custom rule's message, e.g. `confirmation` with the other field's name. */
export function issueMessage(key: ValidationKey, params: DescribedIssue['params'] = {}): string {
  return encodeIssue({ key, params });
}

/**
 * Translates a form error for the field `field`; texts that are not validation keys (server details)
 * pass through.
 * @example translateFieldError('{"key":"too_short","params":{"min":8}}', 'password', t)
 */
export function translateFieldError(
  message: string | undefined,
  field: string,
  t: TFunction,
): string | undefined {
  if (!message) return undefined;
  const described = decodeMessage(message);
  if (!described) return message;
  const params: Record<string, string | number> = { ...described.params, field: t(`fields:${field}`) };
  if (typeof described.params.other === 'string') params.other = t(`fields:${described.params.other}`);
  return t(`validation:${described.key}`, params);
}
