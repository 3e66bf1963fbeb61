import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { OutgoingHttpHeader } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findUp } from '../lib/paths.ts';
import type { FastRequest, FastResponse } from './http-front.ts';
import { previewBootstrap } from './preview-document.ts';

/** One ready answer: its header fields (name, value, name, value…) and its body as a latin1 string. */
interface Answer {
  headers: string[];
  body: string;
}

/** One script body, prepared once: its ETag, its gzip and brotli forms, and the answers that send them. */
export interface PreparedScript {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  answers: { br: Answer; gzip: Answer; identity: Answer; notModified: Answer };
}

export function prepareScript(body: Buffer | string, maxAge = 300): PreparedScript {
  const identity = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const gzip = gzipSync(identity, { level: 9 });
  const br = brotliCompressSync(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
    },
  });
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;
  const caching = [
    // not a versioned URL: caches keep it a few minutes and then revalidate cheaply with the ETag
    'cache-control',
    `public, max-age=${maxAge}, stale-while-revalidate=86400`,
    'etag',
    etag,
    'vary',
    'accept-encoding',
  ];
  const full = (bytes: Buffer, encoding?: string): Answer => ({
    headers: [
      'content-type',
      'application/javascript; charset=utf-8',
      ...caching,
      ...(encoding ? ['content-encoding', encoding] : []),
      'content-length',
      String(bytes.length),
    ],
    // a latin1 string holds the bytes one for one; node:http sends it in the same write as the head
    body: bytes.toString('latin1'),
  });
  return {
    identity,
    gzip,
    br,
    etag,
    answers: {
      br: full(br, 'br'),
      gzip: full(gzip, 'gzip'),
      identity: full(identity),
      notModified: { headers: caching, body: '' },
    },
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

/**
 * Whether an If-None-Match value names `etag` (weak comparison: `W/"x"` matches `"x"`; `*` matches).
 * @example notModified('"a", W/"b"', '"b"') // true
 */
export function notModified(header: string, etag: string): boolean {
  if (header === etag) return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
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

/**
 * Answers a prepared script: 304 on a matching If-None-Match, else the smallest form the client takes.
 * A script is written by node:http directly (the reply is hijacked): the header fields are prepared
 * once per form, and the body is a latin1 string, which node:http sends in one write with the head (a
 * Buffer body goes as a second chunk). node:http still owns the connection (keep-alive, `Connection:
 * close` while the server shuts down, HEAD without a body); the headers the hooks put on the reply
 * (CORS) go out with it, and Fastify's onResponse work (the request-completed log line) still runs.
 */
export function sendScript(req: FastifyRequest, reply: FastifyReply, script: PreparedScript) {
  const match = req.headers['if-none-match'];
  if (match && notModified(match, script.etag)) {
    // no body to send: Fastify's own path costs no more here
    const { headers } = script.answers.notModified;
    for (let i = 0; i < headers.length; i += 2) reply.header(headers[i] as string, headers[i + 1]);
    return reply.code(304).send();
  }
  const enc = acceptedCached(req.headers['accept-encoding']);
  const answer = enc.br ? script.answers.br : enc.gzip ? script.answers.gzip : script.answers.identity;
  const headers: OutgoingHttpHeader[] = answer.headers.slice();
  const hooked = reply.getHeaders();
  for (const name in hooked) {
    const value = hooked[name];
    if (value !== undefined) headers.push(name, value);
  }
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, headers);
  // a HEAD answer has no body: node:http drops it and keeps the content-length of the GET
  if (req.method === 'HEAD') res.end();
  else res.end(answer.body, 'latin1');
}

/**
 * The embed script publishers put on their pages (`/widget.js`, built into packages/widget/dist) and the
 * preview bootstrap, served from memory. The built file is looked up on first use, not at start, so a
 * server started before `npm run build` finds it once it exists.
 */
let widget: PreparedScript | undefined;
function loadWidget() {
  if (widget) return widget;
  try {
    widget = prepareScript(readFileSync(findUp('packages/widget/dist/widget.js')), 300);
  } catch {
    // not built yet
  }
  return widget;
}

/** What the embedded tree's hook adds to every answer (delivery/index.ts): readable from any origin. */
const embeddedHeaders = ['access-control-allow-origin', '*', 'cross-origin-resource-policy', 'cross-origin'];

/**
 * `GET /widget.js`, answered before the framework sees the request: the most requested URL of the
 * product is one prepared answer per encoding, so routing, hooks and reply objects would be most of its
 * cost. app.ts puts this in front of Fastify's handler (serverFactory); anything else, a query string, or a
 * script not built yet goes on to Fastify (whose route answers the same, or 404). `closing` says the server
 * is shutting down: the answer then closes its keep-alive connection, as every other answer does.
 */
export function widgetScriptFastPath(state: { closing: boolean }) {
  return (req: FastRequest, res: FastResponse): boolean => {
    if (req.url !== '/widget.js' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const script = loadWidget();
    if (!script) return false;
    const match = req.headers['if-none-match'];
    const fresh = match !== undefined && notModified(match, script.etag);
    let answer = script.answers.notModified;
    if (!fresh) {
      const enc = acceptedCached(req.headers['accept-encoding']);
      answer = enc.br ? script.answers.br : enc.gzip ? script.answers.gzip : script.answers.identity;
    }
    const headers: OutgoingHttpHeader[] = answer.headers.concat(embeddedHeaders);
    if (state.closing) headers.push('connection', 'close');
    res.writeHead(fresh ? 304 : 200, headers);
    if (fresh || req.method === 'HEAD') res.end();
    else res.end(answer.body, 'latin1');
    return true;
  };
}

export async function widgetScriptRoutes(app: FastifyInstance) {
  const preview = prepareScript(previewBootstrap, 300);

  app.get('/widget.js', (req, reply) => {
    const script = loadWidget();
    if (!script) return reply.code(404).send({ error: 'not_found' });
    return sendScript(req, reply, script);
  });

  app.get('/widget-preview.js', (req, reply) => sendScript(req, reply, preview));
}
