import type { IncomingHttpHeaders } from 'node:http';
import { randomString } from './random-pool.ts';

/**
 * The visitor cookies of delivery, on our own domain, so the same browser carries them to every
 * publisher's widget and every advertiser's pixel: `vid` (who, DESIGN.md's contract) and `aud` (the
 * remarketing pixels whose audience this browser joined, most recent first: read by ad requests with no
 * lookup). `aud` is not secret: a visitor who edits it only changes the ads it sees, never money.
 */
export const VISITOR_COOKIE = 'vid';
export const AUDIENCE_COOKIE = 'aud';
export const YEAR_SECONDS = 365 * 24 * 3600;
export const MAX_AUDIENCES = 30;
export const visitorIdPattern = /^[A-Za-z0-9_-]{16,64}$/;
const audiencePattern = /^\d{1,18}(\.\d{1,18}){0,29}$/;

/** What the cookie readers need of a request (a Fastify request or a bare `IncomingMessage`). */
type WithHeaders = { headers: IncomingHttpHeaders };

/** The value of one cookie of the request, without parsing the others into an object. */
export function cookieValue(req: WithHeaders, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  let from = 0;
  while (from < header.length) {
    const at = header.indexOf(name, from);
    if (at < 0) return undefined;
    const before = at === 0 ? ';' : header[at - 1];
    if ((before === ';' || before === ' ') && header[at + name.length] === '=') {
      const end = header.indexOf(';', at);
      return header.slice(at + name.length + 1, end < 0 ? undefined : end).trim();
    }
    from = at + name.length;
  }
  return undefined;
}

export function visitorIdOf(req: WithHeaders): string | undefined {
  const v = cookieValue(req, VISITOR_COOKIE);
  return v && visitorIdPattern.test(v) ? v : undefined;
}

export const newVisitorId = () => randomString(18, 'base64url');

/** Pixel ids of the `aud` cookie (ignored whole when malformed). */
export function audiencesOf(req: WithHeaders): string[] {
  const v = cookieValue(req, AUDIENCE_COOKIE);
  return v && audiencePattern.test(v) ? v.split('.') : [];
}

/** `aud` with this pixel first, at most MAX_AUDIENCES. */
export function withAudience(current: readonly string[], pixelId: string): string {
  return [pixelId, ...current.filter((p) => p !== pixelId)].slice(0, MAX_AUDIENCES).join('.');
}

/** Cookie attributes: a cookie read on other sites' pages must be SameSite=None, which needs Secure. */
export function cookieAttributes(publicUrl: string): string {
  return publicUrl.startsWith('https:')
    ? `Path=/; Max-Age=${YEAR_SECONDS}; HttpOnly; SameSite=None; Secure`
    : `Path=/; Max-Age=${YEAR_SECONDS}; HttpOnly; SameSite=Lax`;
}
