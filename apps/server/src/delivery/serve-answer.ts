import type { IncomingHttpHeaders } from 'node:http';
import type { DeliveryEngine, DeliveryRequest } from './engine.ts';
import type { FastAnswer } from './fast-answer.ts';
import { audiencesOf, newVisitorId, VISITOR_COOKIE, visitorIdOf } from './visitor-cookie.ts';

/** A widget id as the API writes it: digits without a leading zero (`01` names no widget). */
export const widgetIdPattern = /^[1-9]\d{0,17}$/;
const MAX_PAGE_URL = 2000;
const notFound = '{"error":"not_found"}';

/**
 * One answer of `GET /serve/widgets/:id`, ready to write: status, header fields (name, value, name,
 * value…) and body (its UTF-8 bytes, one per character, when `bytes`). The Fastify route (serve.routes.ts) and the fast path before the framework
 * (serve-fast-path.ts) both write what this says, so they cannot disagree.
 */
export type ServeHttpAnswer = FastAnswer & { body: string };

/**
 * The visitor as delivery reads it. `cookie` is the `set-cookie` value for a new visitor (no valid `vid`),
 * who gets one with this answer. `url` is the `url` query parameter as parsed (a string, several, or none):
 * the page, else the referrer.
 */
export function deliveryVisitor(
  headers: IncomingHttpHeaders,
  ip: string,
  url: unknown,
  cookieAttributes: string,
): { request: DeliveryRequest; cookie?: string } {
  let visitorId = visitorIdOf({ headers });
  let cookie: string | undefined;
  if (!visitorId) {
    visitorId = newVisitorId();
    cookie = `${VISITOR_COOKIE}=${visitorId}; ${cookieAttributes}`;
  }
  const page = typeof url === 'string' && url ? url : headers.referer;
  return {
    request: {
      ip,
      headers,
      visitorId,
      audiences: audiencesOf({ headers }),
      pageUrl: typeof page === 'string' && /^https?:\/\//i.test(page) ? page.slice(0, MAX_PAGE_URL) : null,
    },
    cookie,
  };
}

/**
 * The header fields of answers read by a script on the publisher's page, with our cookie: readable from
 * any origin, the page's origin with credentials when it names one; never cached (every answer carries
 * its own signed, single-use URLs).
 */
export function credentialedHeaders(origin: string | undefined): string[] {
  return typeof origin === 'string' && origin !== 'null'
    ? [
        'access-control-allow-origin',
        origin,
        'cross-origin-resource-policy',
        'cross-origin',
        'access-control-allow-credentials',
        'true',
        'vary',
        'origin',
        'cache-control',
        'no-store',
      ]
    : [...fromAnyOrigin];
}

/** The header fields of a delivery answer anyone may read and no one may keep (no origin, no credentials). */
const fromAnyOrigin = [
  'access-control-allow-origin',
  '*',
  'cross-origin-resource-policy',
  'cross-origin',
  'cache-control',
  'no-store',
] as const;

/**
 * `GET /serve/widgets/:id`: the widget's items from the ad index as JSON (DESIGN.md "Delivery"), 404 for
 * an id that is not a widget's. A new visitor's `vid` cookie comes with either answer.
 */
export async function serveWidgetAnswer(
  engine: DeliveryEngine,
  cookieAttributes: string,
  id: string,
  headers: IncomingHttpHeaders,
  ip: string,
  url: unknown,
): Promise<ServeHttpAnswer> {
  const out = credentialedHeaders(headers.origin);
  let served: string | null = null;
  if (widgetIdPattern.test(id)) {
    const visitor = deliveryVisitor(headers, ip, url, cookieAttributes);
    if (visitor.cookie) out.push('set-cookie', visitor.cookie);
    served = await engine.serveJsonBytes(Number(id), visitor.request);
  }
  out.push('content-type', 'application/json; charset=utf-8');
  return served
    ? { status: 200, headers: out, body: served, bytes: true }
    : { status: 404, headers: out, body: notFound };
}

const badToken = '{"error":"bad_token"}';
const gone = '{"error":"gone"}';

/**
 * One answer of `GET /click/<token>` (DESIGN.md "Delivery"), ready to write: the click is decided and, when
 * valid, charged before this resolves; a token we signed redirects (302) whether or not it was charged, a
 * token we did not sign is a 400, and a genuine token whose creative is gone, with no page to send the
 * visitor back to, a 410. Never cached; a new visitor gets its `vid` cookie. The Fastify route
 * (serve.routes.ts) and the fast path before the framework (click-fast-path.ts) both write what this says.
 */
export async function clickAnswer(
  engine: DeliveryEngine,
  cookieAttributes: string,
  token: string,
  headers: IncomingHttpHeaders,
  ip: string,
  url: unknown,
  head = false,
): Promise<FastAnswer> {
  const out: string[] = [...fromAnyOrigin, 'referrer-policy', 'no-referrer-when-downgrade'];
  const visitor = deliveryVisitor(headers, ip, url, cookieAttributes);
  if (visitor.cookie) out.push('set-cookie', visitor.cookie);
  // a HEAD learns where the click goes and leaves the click for the visitor's GET
  const result = await engine.click(token, visitor.request, head);
  if (result.status === 'bad_token' || !result.location) {
    out.push('content-type', 'application/json; charset=utf-8');
    return result.status === 'bad_token'
      ? { status: 400, headers: out, body: badToken }
      : { status: 410, headers: out, body: gone };
  }
  out.push('location', result.location, 'content-length', '0');
  return { status: 302, headers: out };
}
