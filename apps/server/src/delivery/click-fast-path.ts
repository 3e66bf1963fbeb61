import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { clickAnswer } from './serve-answer.ts';
import { visitorFastPath } from './serve-fast-path.ts';

/** A-Z a-z 0-9 - _ . : what a click token (base64url, a dot, the item's position) is made of. */
const isTokenChar = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 46;

/**
 * `GET /click/<token>`, answered before the framework sees it, as the widget request and the beacons are
 * (serve-fast-path.ts, beacon-fast-path.ts): a click waits for its charge's commit, and while it waits the
 * server's thread takes the next clicks, so what routing, hooks and reply objects cost is clicks not
 * taken into the next charge. The answer is serve-answer.ts's `clickAnswer`, the one the Fastify route in
 * serve.routes.ts writes too. Only a plain token is taken.
 */
export const clickFastPath = (state: { closing: boolean; ctx?: AppContext; log?: FastifyBaseLogger }) =>
  visitorFastPath(state, '/click/', 16_384, isTokenChar, (ctx, attributes, token, headers, ip, page) =>
    clickAnswer(ctx.delivery.engine, attributes, token, headers, ip, page),
  );
