import type { FastifySchemaCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { RequestValidationError } from '../lib/errors.ts';

/** Deeper than any input the API defines (bodies nest four levels at most). */
export const MAX_INPUT_DEPTH = 32;

interface HostileInput {
  path: PropertyKey[];
  message: 'forbidden_character' | 'invalid';
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => {
  if (Array.isArray(v)) return true;
  if (v === null || typeof v !== 'object') return false;
  // plain objects (JSON) and fast-querystring's objects (queries, forms) have Object.prototype or a
  // prototype-less object as prototype; Buffers, streams and other class instances are not data to walk
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
};

/** A NUL, or a lone UTF-16 surrogate (JSON's `"\ud800"`): jsonb refuses both, text stores the latter as U+FFFD. */
const loneSurrogate = /\p{Cs}/u;
const unstorable = (s: string) => s.includes('\u0000') || loneSurrogate.test(s);

/**
 * What no schema should have to think about: a NUL character or a lone surrogate in any string or key
 * (PostgreSQL refuses them in jsonb and text would keep a changed value, so they would surface as a
 * database error or silently altered data), or nesting deeper than MAX_INPUT_DEPTH.
 * Walks without recursion, so even a body of 100 000 nested arrays cannot exhaust the stack.
 * @example hostileInput({ a: ['x\u0000'] }) // { path: ['a', 0], message: 'forbidden_character' }
 */
export function hostileInput(data: unknown): HostileInput | undefined {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: data, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (unstorable(value)) return { path, message: 'forbidden_character' };
      continue;
    }
    if (!isContainer(value)) continue;
    // reported on the whole input: a path 32 segments long names nothing a person could fix
    if (path.length >= MAX_INPUT_DEPTH) return { path: [], message: 'invalid' };
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], path: [...path, i] });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (unstorable(key)) return { path: [...path, key], message: 'forbidden_character' };
      stack.push({ value: value[key], path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * Like fastify-type-provider-zod's compiler, but the error keeps zod's issues and the raw input, so the
 * error handler can tell a missing field from a wrong one and translate both. Before zod, every part of
 * every request (body, query, params) is checked for what would otherwise reach the database as a 500.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const hostile = hostileInput(data);
    if (hostile) {
      const issue = { code: 'custom', path: hostile.path, message: hostile.message, input: undefined };
      return { error: new RequestValidationError([issue as z.core.$ZodIssue], data, httpPart ?? 'body') };
    }
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, data, httpPart ?? 'body') };
  };

export { serializerCompiler };
