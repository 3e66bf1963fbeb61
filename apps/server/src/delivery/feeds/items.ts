import { FeedError, type FeedItem } from './types.ts';

/** Creative rule (SPEC 9): title and text up to 60 characters. */
export const MAX_TEXT = 60;
const MAX_URL = 2000;
/** A feed quoting more than this per click is broken, not generous. */
const MAX_CPC_MICROS = 1_000_000_000n;

const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  laquo: '«',
  raquo: '»',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
        ? String.fromCodePoint(code)
        : '';
    }
    return entities[name.toLowerCase()] ?? whole;
  });
}

const stripTags = (s: string) => s.replace(/<[^>]*>?/g, ' ');

/**
 * Feeds send headlines with markup and entities; widgets show plain text. Tags are removed before
 * and after decoding so `&lt;b&gt;` cannot turn back into markup, and stray angle brackets go too.
 */
export function plainText(value: unknown, max = MAX_TEXT): string {
  if (typeof value !== 'string') return '';
  const text = stripTags(decodeEntities(stripTags(value)))
    .replace(/[<>]/g, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/**
 * The link as the feed sent it (click URLs carry signatures, so they are not re-encoded), when it is
 * http(s). Protocol-relative links (`//img.example/x.jpg`, common in widget APIs) become https.
 */
export function httpLink(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let s = value.trim();
  if (s.startsWith('//')) s = `https:${s}`;
  if (s.length === 0 || s.length > MAX_URL || /[\s<>"'`\\]/.test(s)) return null;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname || url.username || url.password) return null;
  return s;
}

/** Dollars per click as a JSON number or numeric string → micro-units; anything odd → null. */
export function cpcMicros(value: unknown): bigint | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return null;
  const micros = BigInt(Math.round(n * 1_000_000));
  return micros > 0n && micros <= MAX_CPC_MICROS ? micros : null;
}

export interface RawItem {
  title: unknown;
  text?: unknown;
  image: unknown;
  url: unknown;
  brand?: unknown;
  cpc?: unknown;
}

/** An item a widget can show, or null: no title, or a link or image that is not http(s). */
export function cleanItem(raw: RawItem): FeedItem | null {
  const title = plainText(raw.title);
  const url = httpLink(raw.url);
  const image = httpLink(raw.image);
  if (!title || !url || !image) return null;
  return {
    title,
    text: plainText(raw.text),
    image,
    url,
    brand: plainText(raw.brand),
    cpc: cpcMicros(raw.cpc),
  };
}

export function cleanItems(raws: readonly RawItem[]): FeedItem[] {
  const out: FeedItem[] = [];
  for (const raw of raws) {
    const item = cleanItem(raw);
    if (item) out.push(item);
  }
  return out;
}

/**
 * The status rules every feed shares, as in Prebid Server: 204 or an empty body is no fill, 400 is
 * our fault, anything else but 200 is the partner's. Returns the parsed JSON, or undefined for no fill.
 */
export function readJson(status: number, body: string): unknown {
  if (status === 204) return undefined;
  if (status === 400) throw new FeedError('bad_request', 'the feed refused the request', status);
  if (status < 200 || status >= 300) throw new FeedError('partner', `the feed answered ${status}`, status);
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw new FeedError('partner', 'the feed answered something that is not JSON', status);
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The array under one of `keys` (or the body itself when it is an array); anything else is malformed. */
export function listIn(json: unknown, keys: readonly string[]): unknown[] {
  if (Array.isArray(json)) return json;
  if (isRecord(json)) {
    if (json.error || json.errors) throw new FeedError('partner', 'the feed answered an error');
    for (const key of keys) {
      const v = json[key];
      if (Array.isArray(v)) return v;
      if (v === null || v === undefined) continue;
      throw new FeedError('partner', `the feed's "${key}" is not a list`);
    }
    return [];
  }
  throw new FeedError('partner', 'the feed answered JSON of another shape');
}

export const records = (list: unknown[]): Record<string, unknown>[] => list.filter(isRecord);
