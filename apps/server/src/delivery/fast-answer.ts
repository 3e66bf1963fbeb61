import type { FastifyReply } from 'fastify';
import { isUnavailable } from '../lib/errors.ts';
import type { FastResponse } from './http-front.ts';

/** An answer written before the framework: status, header fields (name, value, name, value…), body. */
export interface FastAnswer {
  status: number;
  headers: string[];
  body?: string | undefined;
  /** The body holds bytes, one per character (a byteString), and is written as `latin1`. */
  bytes?: boolean;
}

/**
 * Text as its UTF-8 bytes, one per character (a one-byte string): joined with others like it and written
 * as `latin1`, the bytes go out as they are, without encoding the whole text again or measuring it (its
 * length is its size). ASCII text is already that.
 */
export function byteString(text: string): string {
  // as many UTF-8 bytes as characters: all ASCII (measured natively; a regular expression over a bid's
  // 1.5 KB cost several times as much)
  return Buffer.byteLength(text, 'utf8') === text.length
    ? text
    : Buffer.from(text, 'utf8').toString('latin1');
}

/** A fast path's answer sent by a framework route (the same status, header fields and body). */
export function sendFastAnswer(reply: FastifyReply, answer: FastAnswer) {
  const headers = answer.headers;
  for (let i = 0; i < headers.length; i += 2) reply.header(headers[i] as string, headers[i + 1]);
  reply.code(answer.status);
  return reply.send(
    answer.bytes && answer.body !== undefined ? Buffer.from(answer.body, 'latin1') : answer.body,
  );
}

const failure = '{"error":"generic"}';

/**
 * Writes a fast path's answer in one go (head and body, with its length); while the server shuts down the
 * keep-alive connection is closed, as the framework's answers are then.
 */
export function writeFastAnswer(res: FastResponse, closing: boolean, answer: FastAnswer) {
  const headers = answer.headers;
  const body = answer.body;
  if (body !== undefined)
    headers.push('content-length', String(answer.bytes ? body.length : Buffer.byteLength(body)));
  if (closing) headers.push('connection', 'close');
  res.writeHead(answer.status, headers);
  if (answer.bytes) res.end(body, 'latin1');
  else res.end(body);
}

/**
 * The answer of a fast path whose decision threw (the delivery tree's error answers): 503 with Retry-After
 * while the shared store does not answer, else a 500 that the caller logs (`logged` says whether to).
 */
export const failureAnswer = (err?: unknown): FastAnswer & { logged: boolean } =>
  isUnavailable(err)
    ? {
        status: 503,
        headers: [
          'content-type',
          'application/json; charset=utf-8',
          'retry-after',
          String(err.params.retryAfter),
        ],
        body: '{"error":"service_unavailable"}',
        logged: false,
      }
    : {
        status: 500,
        headers: ['content-type', 'application/json; charset=utf-8'],
        body: failure,
        logged: true,
      };
