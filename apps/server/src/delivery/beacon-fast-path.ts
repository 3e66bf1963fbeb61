import type { FastifyBaseLogger } from 'fastify';
import type { DeliveryEngine } from './engine.ts';
import { failureAnswer, writeFastAnswer } from './fast-answer.ts';
import type { FastRequest, FastResponse } from './http-front.ts';

const kinds: Record<string, 'impression' | 'view'> = { '/serve/i/': 'impression', '/serve/v/': 'view' };
const badToken = '{"error":"bad_token"}';

/**
 * The impression and viewable beacons (`GET /serve/i/<token>`, `GET /serve/v/<token>`), answered before
 * the framework sees the request, as the embed script is (widget-script.ts): after /widget.js they are
 * the most frequent requests, and their work (read a signed token, claim it once, count it in memory)
 * is smaller than routing, hooks and reply objects. The answer is the one the Fastify route in
 * serve.routes.ts gives: 204 (counted or not), 400 for a token we did not sign, with the headers of the
 * embedded tree (readable from any origin; the page's origin with credentials when it names one; never
 * cached). Anything else (another method, a longer path) goes on to Fastify. `state.engine` is set once
 * the services exist; until then every request goes on to Fastify.
 */
export function beaconFastPath(state: {
  closing: boolean;
  engine?: DeliveryEngine;
  log?: FastifyBaseLogger;
}) {
  return (req: FastRequest, res: FastResponse): boolean => {
    const url = req.url;
    const engine = state.engine;
    if (!engine || req.method !== 'GET' || !url || url.length < 10) return false;
    const kind = kinds[url.slice(0, 9)];
    if (!kind) return false;
    const query = url.indexOf('?', 9);
    const token = query < 0 ? url.slice(9) : url.slice(9, query);
    if (token.includes('/')) return false;

    const headers: string[] = ['cross-origin-resource-policy', 'cross-origin', 'cache-control', 'no-store'];
    const origin = req.headers.origin;
    if (typeof origin === 'string' && origin !== 'null')
      headers.push(
        'access-control-allow-origin',
        origin,
        'access-control-allow-credentials',
        'true',
        'vary',
        'origin',
      );
    else headers.push('access-control-allow-origin', '*');
    if (state.closing) headers.push('connection', 'close');

    const answer = (status: number, body?: string) => {
      if (body)
        headers.push(
          'content-type',
          'application/json; charset=utf-8',
          'content-length',
          String(body.length),
        );
      res.writeHead(status, headers);
      res.end(body);
    };
    engine.beacon(kind, token).then(
      (result) => (result === 'bad_token' ? answer(400, badToken) : answer(204)),
      (err: unknown) => {
        // 503 with Retry-After while the shared store is away (logged by its connection), else a 500
        const failed = failureAnswer(err);
        if (failed.logged) state.log?.error({ err, method: req.method, url: req.url }, 'delivery failure');
        writeFastAnswer(res, false, { ...failed, headers: headers.concat(failed.headers) });
      },
    );
    return true;
  };
}
