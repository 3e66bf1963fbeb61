import type { z } from 'zod';

/** Message keys of the `validation` namespace: the generic messages of SPEC.md section 5. */
export const validationKeys = [
  'required',
  'blank',
  'forbidden_character',
  'email',
  'phone',
  'url',
  'date',
  'too_long',
  'too_short',
  'wrong_length',
  'number',
  'integer',
  'positive',
  'odd',
  'even',
  'greater_than',
  'greater_than_or_equal',
  'less_than',
  'less_than_or_equal',
  'before',
  'after',
  'confirmation',
  'accepted',
  'invalid',
  'unknown_field',
  'money',
  'percent',
  'domain',
  'one_of',
  'category_blacklist',
  'iab_category',
  'password_common',
  'http_url',
] as const;
export type ValidationKey = (typeof validationKeys)[number];

export interface DescribedIssue {
  key: ValidationKey;
  params: Record<string, string | number>;
}

const known = new Set<string>(validationKeys);

/**
 * Turns a zod issue into a message key and its placeholders, so server and dashboard say the same words.
 * `present` tells whether the input had a value at the issue's path (zod drops the input from issues).
 * @example describeIssue({ code: 'too_big', origin: 'string', maximum: 60, ... }, true) // {key:'too_long', params:{max:60}}
 */
export function describeIssue(issue: z.core.$ZodIssue, present = true): DescribedIssue {
  // a rule of our own with placeholders names its key in `params` (e.g. `{key: 'after', date}`): a message
  // would take precedence over the dashboard's error map and lose them
  if (issue.code === 'custom' && typeof issue.params?.key === 'string' && known.has(issue.params.key)) {
    const { key, ...params } = issue.params as { key: ValidationKey } & DescribedIssue['params'];
    return { key, params };
  }
  if (known.has(issue.message)) return { key: issue.message as ValidationKey, params: {} };
  // an empty or missing value is "can't be empty", whatever rule it then fails
  if (!present && issue.code !== 'unrecognized_keys') return { key: 'required', params: {} };
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'number' || issue.expected === 'bigint') return { key: 'number', params: {} };
      if (issue.expected === 'int') return { key: 'integer', params: {} };
      if (issue.expected === 'date') return { key: 'date', params: {} };
      return { key: 'invalid', params: {} };
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        if (issue.exact) return { key: 'wrong_length', params: { length: min } };
        return min <= 1 ? { key: 'blank', params: {} } : { key: 'too_short', params: { min } };
      }
      if (issue.origin === 'array' || issue.origin === 'set') return { key: 'required', params: {} };
      if (issue.origin === 'date') return { key: 'after', params: { date: String(issue.minimum) } };
      if (min === 0 && !issue.inclusive) return { key: 'positive', params: {} };
      return { key: issue.inclusive ? 'greater_than_or_equal' : 'greater_than', params: { min } };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') {
        if (issue.exact) return { key: 'wrong_length', params: { length: max } };
        return { key: 'too_long', params: { max } };
      }
      if (issue.origin === 'date') return { key: 'before', params: { date: String(issue.maximum) } };
      return { key: issue.inclusive ? 'less_than_or_equal' : 'less_than', params: { max } };
    }
    case 'invalid_format':
      if (issue.format === 'email') return { key: 'email', params: {} };
      if (issue.format === 'url') return { key: 'url', params: {} };
      if (issue.format === 'date' || issue.format === 'datetime') return { key: 'date', params: {} };
      return { key: 'invalid', params: {} };
    case 'not_multiple_of':
      return { key: 'integer', params: {} };
    case 'unrecognized_keys':
      return { key: 'unknown_field', params: {} };
    case 'invalid_value':
      return { key: 'one_of', params: { options: issue.values.map(String).join(', ') } };
    default:
      return { key: 'invalid', params: {} };
  }
}

/** The dotted field name an issue points at (`unrecognized_keys` points at the unknown key itself). */
export function issueField(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys[0]) path.push(issue.keys[0]);
  return path.join('.');
}
