import type { FastifySchemaCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { RequestValidationError } from '../lib/errors.ts';

/**
 * Like fastify-type-provider-zod's compiler, but the error keeps zod's issues and the raw input, so the
 * error handler can tell a missing field from a wrong one and translate both.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, data, httpPart ?? 'body') };
  };

export { serializerCompiler };
