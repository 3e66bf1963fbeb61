import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { type FastAnswer, failureAnswer, writeFastAnswer } from './fast-answer.ts';
import type { FastRequest, FastResponse } from './http-front.ts';
import { serveWidgetAnswer } from './serve-answer.ts';
import { cookieAttributes } from './visitor-cookie.ts';

type FastPathState = { closing: boolean; ctx?: AppContext; log?: FastifyBaseLogger };

/**
 * A fast path for `GET <prefix><segment>[?query]` requests that a visitor's browser sends: it takes a
 * request whose segment is 1 to `maxLength` characters that `accepts` (anything else, another method, a
 * longer or encoded path, goes on to Fastify, and so does every request until the services exist), reads
 * the client's address and the `url` parameter as Fastify's route would, and writes what `answerOf` says,
 * or the delivery tree's 500 when it throws.
 */
export function visitorFastPath(
  state: FastPathState,
  prefix: string,
  maxLength: number,
  accepts: (charCode: number) => boolean,
  answerOf: (
    ctx: AppContext,
    cookieAttributes: string,
    segment: string,
    headers: IncomingHttpHeaders,
    ip: string,
    page: string | string[] | undefined,
  ) => Promise<FastAnswer>,
) {
  let attributes: string | undefined;
  return (req: FastRequest, res: FastResponse): boolean => {
    const url = req.url;
    const ctx = state.ctx;
    if (!ctx || req.method !== 'GET' || !url || !url.startsWith(prefix)) return false;
    const query = url.indexOf('?', prefix.length);
    const end = query < 0 ? url.length : query;
    if (end === prefix.length || end - prefix.length > maxLength) return false;
    for (let i = prefix.length; i < end; i++) if (!accepts(url.charCodeAt(i))) return false;
    attributes ??= cookieAttributes(ctx.config.publicUrl);
    const ip = clientIp(req, ctx.config.trustProxy);
    const page = query < 0 ? undefined : queryValue(url.slice(query + 1), 'url');
    answerOf(ctx, attributes, url.slice(prefix.length, end), req.headers, ip, page).then(
      (answer) => writeFastAnswer(res, state.closing, answer),
      (err: unknown) => {
        const answer = failureAnswer(err);
        if (answer.logged) state.log?.error({ err, method: req.method, url: req.url }, 'delivery failure');
        writeFastAnswer(res, state.closing, answer);
      },
    );
    return true;
  };
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * `GET /serve/widgets/<id>`, the widget request, answered before the framework sees it, as the beacons
 * are (beacon-fast-path.ts): routing, hooks and reply objects cost more than a decision from the ad
 * index. The answer is serve-answer.ts's, the one the Fastify route in serve.routes.ts writes too, with
 * the headers of the embedded tree. Only a plain id (digits) is taken.
 */
export const serveFastPath = (state: FastPathState) =>
  visitorFastPath(state, '/serve/widgets/', 18, isDigit, (ctx, attributes, id, headers, ip, page) =>
    serveWidgetAnswer(ctx.delivery.engine, attributes, id, headers, ip, page),
  );

/**
 * The client's address as Fastify's `request.ip` gives it: the socket's, or with TRUST_PROXY (every
 * proxy trusted) the first address of `X-Forwarded-For`.
 */
export function clientIp(req: FastRequest, trustProxy: boolean): string {
  const socket = req.socket.remoteAddress ?? '';
  if (!trustProxy) return socket;
  const header = req.headers['x-forwarded-for'];
  if (!header || typeof header !== 'string') return socket;
  for (const part of header.split(',')) {
    const address = part.trim();
    if (address) return address;
  }
  return socket;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * One parameter of a query string as Fastify's parser (fast-querystring) reads it: `+` is a space,
 * percent-escapes are decoded (kept as they are when malformed), a repeated name gives an array.
 */
export function queryValue(query: string, name: string): string | string[] | undefined {
  let found: string | string[] | undefined;
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    let key = eq < 0 ? pair : pair.slice(0, eq);
    if (key.includes('+')) key = key.replaceAll('+', ' ');
    if (key.includes('%')) key = decode(key) || key;
    if (key !== name) continue;
    let value = eq < 0 ? '' : pair.slice(eq + 1);
    if (value.includes('+')) value = value.replaceAll('+', ' ');
    if (value.includes('%') || value.includes('=')) value = decode(value) || value;
    if (found === undefined) found = value;
    else if (Array.isArray(found)) found.push(value);
    else found = [found, value];
  }
  return found;
}
