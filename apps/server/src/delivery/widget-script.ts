import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findUp } from '../lib/paths.ts';
import { previewBootstrap } from './preview-document.ts';

/** One script body, prepared once: its ETag and its gzip and brotli forms. */
export interface PreparedScript {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

export function prepareScript(body: Buffer | string): PreparedScript {
  const identity = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
  };
}

/**
 * The encodings the client accepts with a non-zero weight (`gzip, deflate, br`, `br;q=0`, `*`).
 * @example accepted('gzip, br;q=0') // { br: false, gzip: true }
 */
export function accepted(header: string | undefined): { br: boolean; gzip: boolean } {
  const out = { br: false, gzip: false };
  if (!header) return out;
  let any = false;
  const refused = new Set<string>();
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    const ok = Number.isFinite(weight) && weight > 0;
    if (name === '*') any = ok;
    else if (name === 'br' || name === 'gzip' || name === 'x-gzip') {
      if (ok) out[name === 'br' ? 'br' : 'gzip'] = true;
      else refused.add(name === 'br' ? 'br' : 'gzip');
    }
  }
  if (any) {
    if (!refused.has('br')) out.br = true;
    if (!refused.has('gzip')) out.gzip = true;
  }
  return out;
}

// browsers send a handful of distinct Accept-Encoding values: each is read once
const acceptedByHeader = new Map<string, { br: boolean; gzip: boolean }>();
function acceptedCached(header: string | undefined) {
  if (!header) return accepted(header);
  let enc = acceptedByHeader.get(header);
  if (!enc) {
    if (acceptedByHeader.size >= 256) acceptedByHeader.clear();
    enc = accepted(header);
    acceptedByHeader.set(header, enc);
  }
  return enc;
}

/** Answers a prepared script: 304 on a matching If-None-Match, else the smallest form the client takes. */
export function sendScript(req: FastifyRequest, reply: FastifyReply, script: PreparedScript, maxAge: number) {
  reply
    .header('content-type', 'application/javascript; charset=utf-8')
    // not a versioned URL: caches keep it a few minutes and then revalidate cheaply with the ETag
    .header('cache-control', `public, max-age=${maxAge}, stale-while-revalidate=86400`)
    .header('etag', script.etag)
    .header('vary', 'accept-encoding');
  const match = req.headers['if-none-match'];
  if (
    match &&
    (match === script.etag || match.split(',').some((t) => t.trim().replace(/^W\//, '') === script.etag))
  ) {
    return reply.code(304).send();
  }
  const enc = acceptedCached(req.headers['accept-encoding']);
  if (enc.br) return reply.header('content-encoding', 'br').send(script.br);
  if (enc.gzip) return reply.header('content-encoding', 'gzip').send(script.gzip);
  return reply.send(script.identity);
}

/**
 * The embed script publishers put on their pages (`/widget.js`, built into packages/widget/dist) and the
 * preview bootstrap, served from memory. The built file is looked up on first use, not at start, so a
 * server started before `npm run build` finds it once it exists.
 */
export async function widgetScriptRoutes(app: FastifyInstance) {
  let widget: PreparedScript | undefined;
  const loadWidget = () => {
    if (widget) return widget;
    try {
      widget = prepareScript(readFileSync(findUp('packages/widget/dist/widget.js')));
    } catch {
      // not built yet
    }
    return widget;
  };
  const preview = prepareScript(previewBootstrap);

  app.get('/widget.js', (req, reply) => {
    const script = loadWidget();
    if (!script) return reply.code(404).send({ error: 'not_found' });
    return sendScript(req, reply, script, 300);
  });

  app.get('/widget-preview.js', (req, reply) => sendScript(req, reply, preview, 300));
}
