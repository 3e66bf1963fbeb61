import { expect, test } from 'vitest';
import { z } from 'zod';
import { registerInput } from './auth.ts';
import { describeIssue, issueField } from './validation.ts';

const issues = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a failure');
  return r.error.issues;
};

test('zod issues map to the generic messages of SPEC.md section 5', () => {
  const [tooLong] = issues(z.string().max(60), 'x'.repeat(61));
  expect(describeIssue(tooLong!)).toEqual({ key: 'too_long', params: { max: 60 } });
  const [tooShort] = issues(z.string().min(8), 'abc');
  expect(describeIssue(tooShort!)).toEqual({ key: 'too_short', params: { min: 8 } });
  const [blank] = issues(z.string().min(1), '');
  expect(describeIssue(blank!)).toEqual({ key: 'blank', params: {} });
  const [missing] = issues(z.object({ a: z.string() }), {});
  expect(describeIssue(missing!, false)).toEqual({ key: 'required', params: {} });
  const [num] = issues(z.number(), 'x');
  expect(describeIssue(num!)).toEqual({ key: 'number', params: {} });
  const [int] = issues(z.int(), 1.5);
  expect(describeIssue(int!).key).toBe('integer');
  const [positive] = issues(z.number().positive(), -1);
  expect(describeIssue(positive!)).toEqual({ key: 'positive', params: {} });
  const [gte] = issues(z.number().min(5), 1);
  expect(describeIssue(gte!)).toEqual({ key: 'greater_than_or_equal', params: { min: 5 } });
  const [lte] = issues(z.number().max(5), 9);
  expect(describeIssue(lte!)).toEqual({ key: 'less_than_or_equal', params: { max: 5 } });
  const [email] = issues(z.email(), 'nope');
  expect(describeIssue(email!).key).toBe('email');
  const [url] = issues(z.url(), 'nope');
  expect(describeIssue(url!).key).toBe('url');
  const [len] = issues(z.string().length(3), 'ab');
  expect(describeIssue(len!)).toEqual({ key: 'wrong_length', params: { length: 3 } });
});

test('registration issues name their fields', () => {
  const all = issues(registerInput, {
    name: '',
    email: 'x',
    password: 'short',
    privacy_policy_agreed: false,
    extra: 1,
  });
  const byField = Object.fromEntries(all.map((i) => [issueField(i), describeIssue(i).key]));
  expect(byField).toEqual({
    name: 'blank',
    email: 'email',
    password: 'too_short',
    privacy_policy_agreed: 'accepted',
    extra: 'unknown_field',
  });
});
