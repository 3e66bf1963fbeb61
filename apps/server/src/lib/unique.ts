import { FieldsError } from './errors.ts';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * The SQLSTATE of a database error: pg throws it directly; PGlite and drizzle wrap it (`cause`), so the
 * chain is followed. Undefined when no error in the chain has one.
 */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = cause;
  }
  return undefined;
}

/**
 * The unique-index failure behind a driver error, or undefined. pg throws it directly; PGlite and
 * drizzle may wrap it (`cause`), so the chain is followed.
 */
export function uniqueViolation(err: unknown): { constraint: string | undefined } | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, constraint, cause } = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (String(code) === UNIQUE_VIOLATION)
      return { constraint: typeof constraint === 'string' ? constraint : undefined };
    e = cause;
  }
  return undefined;
}

/**
 * Runs a write; a unique violation becomes a 422 on `field` (two requests racing past a "taken?" check
 * end here too). Other failures pass through.
 */
export async function uniqueAs422<T>(field: string, code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (uniqueViolation(err)) throw new FieldsError([{ field, code }]);
    throw err;
  }
}

/** A deadlock or a serialization failure: PostgreSQL rolled the statement back, and it may be run again. */
export function isRetryable(err: unknown): boolean {
  // drizzle wraps the driver's error (DrizzleQueryError): sqlStateOf reads it from the cause
  const code = sqlStateOf(err);
  return code === '40P01' || code === '40001';
}
