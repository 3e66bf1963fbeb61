import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, FieldsError, isUnavailable, RequestValidationError } from '../lib/errors.ts';

const codeByStatus: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/**
 * Delivery's own error answers: a status and a stable code as JSON, no translation (the reader is a
 * script on a publisher's page, not a person). Malformed input is a 400, never a 500; only our own
 * failures are logged.
 */
export function deliveryErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof RequestValidationError) return reply.code(400).send({ error: 'bad_request' });
  if (err instanceof FieldsError) {
    return reply.code(422).send({ error: 'invalid', fields: err.fields.map((f) => f.field) });
  }
  if (err instanceof AppError && err.status < 500) return reply.code(err.status).send({ error: err.code });
  if (isUnavailable(err)) {
    // the shared store is away (logged by its connection): the script tries again later
    return reply.code(503).header('retry-after', String(err.params.retryAfter)).send({ error: err.code });
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ error: codeByStatus[status] ?? 'bad_request' });
  }
  req.log.error({ err, method: req.method, url: req.url }, 'delivery failure');
  return reply.code(500).send({ error: 'generic' });
}
