import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { failureAnswer, writeFastAnswer } from './fast-answer.ts';
import { clickAnswer } from './serve-answer.ts';
import { clientIp, queryValue } from './serve-fast-path.ts';
import { cookieAttributes } from './visitor-cookie.ts';

const PREFIX = '/click/';

/**
 * `GET /click/<token>`, answered before the framework sees it, as the widget request and the beacons are
 * (serve-fast-path.ts, beacon-fast-path.ts): a click waits for its charge's commit, and while it waits the
 * server's thread takes the next clicks, so what routing, hooks and reply objects cost is clicks not
 * taken into the next charge. The answer is serve-answer.ts's `clickAnswer`, the one the Fastify route in
 * serve.routes.ts writes too. Only a plain token (base64url and dots) is taken; anything else (another
 * method, a longer or percent-encoded path) goes on to Fastify, and so does every request until the
 * services exist.
 */
export function clickFastPath(state: { closing: boolean; ctx?: AppContext; log?: FastifyBaseLogger }) {
  let attributes: string | undefined;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url;
    const ctx = state.ctx;
    if (!ctx || req.method !== 'GET' || !url || !url.startsWith(PREFIX)) return false;
    const query = url.indexOf('?', PREFIX.length);
    const end = query < 0 ? url.length : query;
    if (end === PREFIX.length) return false;
    for (let i = PREFIX.length; i < end; i++) {
      const c = url.charCodeAt(i);
      // A-Z a-z 0-9 - _ .
      if (
        !(
          (c >= 65 && c <= 90) ||
          (c >= 97 && c <= 122) ||
          (c >= 48 && c <= 57) ||
          c === 45 ||
          c === 95 ||
          c === 46
        )
      )
        return false;
    }
    attributes ??= cookieAttributes(ctx.config.publicUrl);
    const ip = clientIp(req, ctx.config.trustProxy);
    const page = query < 0 ? undefined : queryValue(url.slice(query + 1), 'url');
    clickAnswer(ctx.delivery.engine, attributes, url.slice(PREFIX.length, end), req.headers, ip, page).then(
      (answer) => writeFastAnswer(res, state.closing, answer),
      (err: unknown) => {
        state.log?.error({ err, method: req.method, url: req.url }, 'delivery failure');
        writeFastAnswer(res, state.closing, failureAnswer());
      },
    );
    return true;
  };
}
