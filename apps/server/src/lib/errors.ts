import type { ErrorCode } from '@adp/contract';
import type { z } from 'zod';

/** A failure the caller can act on: answered with `status` and `{error: code, message}` in the caller's language. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    /** For 422: the field the failure belongs to, answered as `errors[]` like any validation error. */
    readonly field?: string,
  ) {
    super(code);
  }
}

/**
 * The shared store (Redis) does not answer: a 503 that says when to try again, not a 500; nothing was
 * changed by the request that met it. Logged by the store's connection (once a while), not per request.
 */
export const storeUnavailable = () => new AppError(503, 'service_unavailable', { retryAfter: 5 });
export const isUnavailable = (err: unknown): err is AppError =>
  err instanceof AppError && err.code === 'service_unavailable';

/** A field-level failure outside zod (e.g. an e-mail already taken): answered as 422 `errors[]`. */
export class FieldsError extends Error {
  constructor(readonly fields: { field: string; code: string; params?: Record<string, string | number> }[]) {
    super('fields');
  }
}

/** Thrown by our validator compiler so the error handler still has the zod issues and the raw input. */
export class RequestValidationError extends Error {
  statusCode = 422;
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly input: unknown,
    readonly part: string,
  ) {
    super('validation');
  }
}

/**
 * The row read again after a write, or a 404 when it is gone: another request deleted it between this
 * request's load and its write (read as present, it would fail as a 500).
 */
export function orNotFound<T>(row: T | null | undefined): T {
  if (row === null || row === undefined) throw new AppError(404, 'not_found');
  return row;
}
