import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export interface SafeFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Tests serve feeds from 127.0.0.1; production never fetches loopback or private addresses. */
  allowLoopback?: boolean;
  userAgent?: string;
  /** GET unless told; a redirect of a POST is followed as GET without the body (as browsers do on 301-303). */
  method?: 'GET' | 'POST';
  /** Extra request headers (content-type, accept …); host and content-length are the guard's own. */
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export class OutboundError extends Error {
  constructor(
    readonly reason: 'blocked_address' | 'timeout' | 'too_large' | 'bad_url' | 'http_status' | 'network',
    message: string,
  ) {
    super(message);
  }
}

const nat64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const sixToFour = ipaddr.IPv6.parseCIDR('2002::/16');
const ipv4Compatible = ipaddr.IPv6.parseCIDR('::/96');

/**
 * The IPv4 address an IPv6 one carries, when it is a form that reaches that IPv4 host (mapped,
 * IPv4-compatible, NAT64, 6to4): the v4 address is what gets judged, so `::127.0.0.1` or
 * `64:ff9b::7f00:1` cannot smuggle loopback past the check while DNS64 answers for public hosts still work.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const b = ip.toByteArray();
  if (ip.isIPv4MappedAddress() || ip.match(nat64)) return ipaddr.IPv4.parse(b.slice(12).join('.'));
  // :: and ::1 fall in ::/96 too, but are IPv6's own unspecified and loopback addresses
  if (ip.match(ipv4Compatible) && ip.range() === 'unicast') return ipaddr.IPv4.parse(b.slice(12).join('.'));
  if (ip.match(sixToFour)) return ipaddr.IPv4.parse(b.slice(2, 6).join('.'));
  return undefined;
}

/**
 * Why the guard would refuse every request to this URL whatever DNS answers (credentials in it, port 0,
 * `localhost`, an address literal that is not public unicast: the URL parser has already turned forms like
 * `2130706433` or `0x7f.1` into `127.0.0.1`), or undefined: for checking a URL when it is saved, so an
 * admin hears it then rather than finding errors in the partner's statistics.
 */
export function unreachableUrl(raw: string, allowLoopback: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'credentials in URL';
  if (url.port === '0') return 'port 0';
  // `localhost.` is localhost: the trailing dot of a fully qualified name goes
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return allowLoopback ? undefined : 'localhost';
  if (ipaddr.isValid(host) && !allowed(host, allowLoopback)) return `refused address ${host}`;
  return undefined;
}

function allowed(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') ip = embeddedIPv4(ip as ipaddr.IPv6) ?? ip;
  const range = ip.range();
  if (range === 'unicast') return true;
  return allowLoopback && range === 'loopback';
}

/**
 * Fetches a public URL for the content parser and similar jobs: every address a name resolves to is
 * checked at connect time (so DNS rebinding cannot slip a private address in), redirects are followed
 * by hand and checked again, and time and size are capped.
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions = {}): Promise<FetchedPage> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  const allowLoopback = opts.allowLoopback ?? false;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundError('bad_url', `not a URL: ${rawUrl}`);
  }
  const deadline = Date.now() + timeoutMs;
  let send: Outgoing = {
    method: opts.method ?? 'GET',
    headers: opts.headers ?? {},
    body: opts.body,
    userAgent: opts.userAgent,
  };
  for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundError('bad_url', 'only http(s)');
    if (url.username || url.password) throw new OutboundError('bad_url', 'credentials in URL');
    const res = await request(url, deadline, maxBytes, allowLoopback, send);
    if (res.status >= 300 && res.status < 400 && res.location) {
      url = new URL(res.location, url);
      // 307 and 308 repeat the request as it was; the others continue with a GET
      if (res.status !== 307 && res.status !== 308) send = { ...send, method: 'GET', body: undefined };
      continue;
    }
    return { url: url.toString(), status: res.status, contentType: res.contentType, body: res.body };
  }
  throw new OutboundError('network', 'too many redirects');
}

interface Outgoing {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  userAgent: string | undefined;
}

function request(url: URL, deadline: number, maxBytes: number, allowLoopback: boolean, send: Outgoing) {
  return new Promise<{ status: number; contentType: string; location?: string; body: Buffer }>(
    (resolveOnce, rejectOnce) => {
      let settled = false;
      const resolve: typeof resolveOnce = (v) => {
        if (settled) return;
        settled = true;
        resolveOnce(v);
      };
      const reject = (e: unknown) => {
        if (settled) return;
        settled = true;
        rejectOnce(e);
      };
      const guardedLookup: LookupFunction = (hostname, options, callback) => {
        dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
          if (err) return callback(err, '', 0);
          const list = addresses as unknown as LookupAddress[];
          const bad = list.find((a) => !allowed(a.address, allowLoopback));
          if (bad || list.length === 0) {
            return callback(
              new OutboundError(
                'blocked_address',
                `refused address ${bad?.address}`,
              ) as NodeJS.ErrnoException,
              '',
              0,
            );
          }
          const first = list[0]!;
          if ((options as { all?: boolean }).all)
            return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
          callback(null, first.address, first.family);
        });
      };
      // a literal IP skips lookup, so check it here
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (ipaddr.isValid(host) && !allowed(host, allowLoopback)) {
        reject(new OutboundError('blocked_address', `refused address ${host}`));
        return;
      }
      const lib = url.protocol === 'https:' ? https : http;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        reject(new OutboundError('timeout', 'timed out'));
        return;
      }
      const headers: Record<string, string | number> = {
        'user-agent': send.userAgent ?? 'AdPlatformBot/1.0 (+content parser)',
        accept: '*/*',
      };
      for (const [k, v] of Object.entries(send.headers)) {
        const name = k.toLowerCase();
        if (name !== 'host' && name !== 'content-length' && name !== 'transfer-encoding') headers[name] = v;
      }
      const body = send.body === undefined ? undefined : Buffer.from(send.body);
      if (body) headers['content-length'] = body.length;
      const req = lib.request(
        url,
        {
          method: send.method,
          lookup: guardedLookup,
          timeout: remaining,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const fail = (e: OutboundError) => {
            clearTimeout(timer);
            reject(e);
            res.destroy();
            req.destroy();
          };
          const timer = setTimeout(() => fail(new OutboundError('timeout', 'timed out')), remaining);
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBytes) return fail(new OutboundError('too_large', `larger than ${maxBytes} bytes`));
            chunks.push(c);
          });
          res.on('end', () => {
            clearTimeout(timer);
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              ...(res.headers.location ? { location: res.headers.location } : {}),
              body: Buffer.concat(chunks),
            });
          });
          res.on('error', (e) => {
            clearTimeout(timer);
            reject(e instanceof OutboundError ? e : new OutboundError('network', e.message));
          });
        },
      );
      req.on('timeout', () => {
        reject(new OutboundError('timeout', 'timed out'));
        req.destroy();
      });
      req.on('error', (e) =>
        reject(e instanceof OutboundError ? e : new OutboundError('network', e.message)),
      );
      req.end(body);
    },
  );
}
