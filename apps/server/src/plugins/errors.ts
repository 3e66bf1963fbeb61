import { describeIssue, type FieldError, issueField } from '@adp/contract';
import { ForbiddenError } from '@adp/permissions';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { AppError, FieldsError, RequestValidationError } from '../lib/errors.ts';
import { sqlStateOf } from '../lib/unique.ts';

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/**
 * The field label: the field's own path when the labels name it (`openrtb.enabled`), else its last segment
 * that is a name (`campaign.title` → `title`), else the name itself. A path whose labels are a group (the
 * `openrtb` block) is not a label.
 */
function labelOf(req: FastifyRequest, field: string): string {
  const names = field.split('.').filter((s) => !/^\d+$/.test(s));
  const name = names.at(-1) ?? field;
  for (const key of [names.join('.'), name]) {
    const label: unknown = req.t(`fields:${key}`, { returnObjects: true, defaultValue: '' });
    if (typeof label === 'string' && label) return label;
  }
  return name;
}

/** Bodies are wrapped in the resource's singular name (`{campaign: {...}}`); fields are named without it. */
function unwrapped(field: string, input: unknown): string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return field;
  const keys = Object.keys(input);
  const [wrapper] = keys;
  if (keys.length === 1 && wrapper && field.startsWith(`${wrapper}.`)) return field.slice(wrapper.length + 1);
  return field;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** OAuth 2 endpoints (RFC 6749 section 5.2): a 400 answers `{error, error_description}`. */
    oauth?: boolean;
  }
}

function oauthInvalidRequest(req: FastifyRequest, reply: FastifyReply, code: string) {
  return reply.code(400).send({ error: 'invalid_request', error_description: req.t(`errors:${code}`) });
}

/** PostgreSQL's refusals of text it cannot store: a NUL (22P05) or bytes invalid in UTF-8 (22021). */
function isUnstorableText(err: unknown): boolean {
  const code = sqlStateOf(err);
  return code === '22P05' || code === '22021';
}

export function validationErrors(
  req: FastifyRequest,
  issues: z.core.$ZodIssue[],
  input: unknown,
): FieldError[] {
  // one error per field and code: an empty value fails a length and a format check, both read "required"
  const seen = new Set<string>();
  return issues.flatMap((issue) => {
    const present = valueAt(input, issue.path) !== undefined && valueAt(input, issue.path) !== '';
    const { key, params } = describeIssue(issue, present);
    const field = unwrapped(issueField(issue), input);
    if (seen.has(`${field}\n${key}`)) return [];
    seen.add(`${field}\n${key}`);
    return [
      {
        field,
        code: key,
        detail: req.t(`validation:${key}`, { field: labelOf(req, field || 'body'), ...params }),
      },
    ];
  });
}

/**
 * One place turns every failure into the answers DESIGN.md promises: 422 errors[], 403, 404, 429, and a
 * logged 500 with the generic message. Nothing a client sends may produce a 500.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    // a path that names no resource (an id that is not one, a breakdown we do not have) is an unknown
    // id: 404, as for an id that names nothing (DESIGN.md "Errors")
    if (err instanceof RequestValidationError && err.part === 'params') {
      return reply.code(404).send({ error: 'not_found', message: req.t('errors:not_found') });
    }
    if (err instanceof RequestValidationError) {
      return reply.code(422).send({ errors: validationErrors(req, err.issues, err.input) });
    }
    if (err instanceof FieldsError) {
      return reply.code(422).send({
        errors: err.fields.map((f) => ({
          field: f.field,
          code: f.code,
          detail: req.t(`errors:${f.code}`, { field: labelOf(req, f.field), ...f.params }),
        })),
      });
    }
    if (err instanceof ForbiddenError) {
      return reply.code(403).send({ error: 'forbidden', message: req.t('errors:forbidden') });
    }
    if (err instanceof AppError && err.status === 422) {
      const field = err.field ?? 'body';
      return reply.code(422).send({
        errors: [
          {
            field,
            code: err.code,
            detail: req.t(`errors:${err.code}`, { field: labelOf(req, field), ...err.params }),
          },
        ],
      });
    }
    if (err instanceof AppError) {
      if (err.code === 'invalid_grant') {
        return reply
          .code(err.status)
          .send({ error: 'invalid_grant', error_description: req.t('errors:invalid_grant') });
      }
      if (err.status === 400 && req.routeOptions.config.oauth)
        return oauthInvalidRequest(req, reply, err.code);
      // a refusal for a while says how long at most (seconds), as the rate limit's own 429s do
      if ((err.status === 429 || err.status === 503) && typeof err.params.retryAfter === 'number')
        reply.header('retry-after', String(err.params.retryAfter));
      return reply
        .code(err.status)
        .send({ error: err.code, message: req.t(`errors:${err.code}`, err.params) });
    }
    if (isUnstorableText(err)) {
      // a NUL or an invalid byte sequence that reached PostgreSQL on a route that takes raw input
      req.log.warn({ err }, 'text the database cannot store');
      return reply.code(422).send({
        errors: [
          {
            field: 'body',
            code: 'forbidden_character',
            detail: req.t('validation:forbidden_character', { field: labelOf(req, 'body') }),
          },
        ],
      });
    }
    if (sqlStateOf(err) === '22003') {
      // numeric_value_out_of_range: an amount that would take a stored sum (a balance, a total) past its
      // column, e.g. a payment on a balance near the bigint micro-units' limit; nothing was written
      req.log.warn({ err }, 'amount out of the range the database stores');
      return reply.code(422).send({
        errors: [{ field: 'body', code: 'amount_out_of_range', detail: req.t('errors:amount_out_of_range') }],
      });
    }
    if (sqlStateOf(err) === '22023' && /time zone/i.test(err.message)) {
      // a timezone this runtime's Intl knows (a retired alias such as US/Pacific-New) that the database's
      // tz data does not: the caller's `tz` is refused like any other unknown one
      return reply.code(422).send({
        errors: [
          {
            field: 'tz',
            code: 'invalid',
            detail: req.t('validation:invalid', { field: labelOf(req, 'tz') }),
          },
        ],
      });
    }
    const status = err.statusCode ?? 500;
    const codeByStatus: Record<number, string> = {
      401: 'unauthorized',
      403: 'forbidden',
      404: 'not_found',
      413: 'payload_too_large',
      415: 'unsupported_media_type',
      429: 'too_many_requests',
    };
    if (status >= 400 && status < 500) {
      const code = codeByStatus[status] ?? 'bad_request';
      // body parser failures (FST_ERR_CTP_*: empty or broken JSON, a wrong charset) on an OAuth route
      if (status === 400 && req.routeOptions.config.oauth) return oauthInvalidRequest(req, reply, code);
      return reply.code(status).send({ error: code, message: req.t(`errors:${code}`) });
    }
    req.log.error({ err }, 'unexpected failure');
    return reply.code(500).send({ error: 'generic', message: req.t('errors:generic') });
  });
});
