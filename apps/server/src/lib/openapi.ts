import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type Transform = typeof jsonSchemaTransform;
type Operation = {
  parameters?: { in: string }[];
  requestBody?: unknown;
  security?: unknown[];
  responses?: Record<string, { description?: string; content?: unknown }>;
};
type Document = {
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  security?: unknown[];
  paths?: Record<string, Record<string, Operation>>;
};

/** The one file of an upload route (its schema says `consumes: multipart/form-data`; lib/upload.ts reads it). */
const uploadBody = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary' } },
};

/**
 * The route schemas as the OpenAPI document shows them: the zod schemas in JSON Schema, and the file an
 * upload route reads (multipart is read by the handler, so the route itself validates no body).
 */
export const documentedSchema: Transform = (args) => {
  const out = jsonSchemaTransform(args);
  const schema = out.schema as Record<string, unknown>;
  const consumes = schema.consumes as string[] | undefined;
  if (consumes?.includes('multipart/form-data') && !schema.body)
    return { ...out, schema: { ...schema, body: uploadBody } };
  return out;
};

const ref = (name: string) => ({
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
});

/**
 * What every call of the API may answer besides its own success (DESIGN.md "HTTP"): the bearer token it
 * needs (every operation but those whose schema says `security: []`), and the shared error answers: 401
 * without a valid token, 403 for a role or right it lacks, 404 for an id that is not (or not the
 * caller's), 422 for input it refuses, field by field. A DELETE that documents no answer answers 204.
 */
export function withCommonAnswers(documentObject: { openapiObject: object } | { swaggerObject: object }) {
  if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
  const doc = documentObject.openapiObject as Document;
  doc.security = [{ bearer: [] }];
  doc.components ??= {};
  doc.components.schemas = {
    ...doc.components.schemas,
    Error: {
      type: 'object',
      required: ['error', 'message'],
      properties: { error: { type: 'string' }, message: { type: 'string' } },
    },
    ValidationErrors: {
      type: 'object',
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'code', 'detail'],
            properties: { field: { type: 'string' }, code: { type: 'string' }, detail: { type: 'string' } },
          },
        },
      },
    },
  };
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(operations)) {
      op.responses ??= {};
      const responses = op.responses;
      const ok = responses['200'];
      if (method === 'delete' && ok && !ok.content && Object.keys(responses).length === 1) {
        delete responses['200'];
        responses['204'] = { description: 'Done' };
      }
      const secured = !(Array.isArray(op.security) && op.security.length === 0);
      const add = (status: string, description: string, schema: string) => {
        responses[status] ??= { description, ...ref(schema) };
      };
      if (secured) {
        add('401', 'No valid bearer token', 'Error');
        add('403', 'The caller may not do this', 'Error');
      }
      if (path.includes('{')) add('404', 'No such entity, or not the caller’s', 'Error');
      add(
        '429',
        'Too many requests (the rate limit, repeated failed logins); Retry-After says when',
        'Error',
      );
      if (op.requestBody || op.parameters?.length)
        add('422', 'Input refused, field by field', 'ValidationErrors');
      if (op.requestBody)
        add(
          '415',
          'The body is not of a type the operation takes (JSON in UTF-8, or its form or upload)',
          'Error',
        );
      add('503', 'The shared store (Redis) does not answer; Retry-After says when to try again', 'Error');
    }
  }
  return doc;
}
