import { isTimeZone, type SiteParser } from '@adp/contract';
import { load } from 'cheerio';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { XMLParser } from 'fast-xml-parser';
import iconv from 'iconv-lite';
import Parser from 'rss-parser';
import { type FetchedPage, OutboundError } from '../../lib/safe-fetch.ts';
import { userRegexExec, userRegexTest } from '../../lib/user-regex.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

export interface ParsedMaterial {
  url: string;
  title: string;
  description: string;
  image: string;
  category: string;
  language: string | null;
  published_at: string | null;
}
export interface ParseResult {
  source: 'rss' | 'html';
  items: ParsedMaterial[];
  skipped: { url: string; reason: string }[];
}

export interface ParseTarget {
  domain: string;
  language: string | null;
  urlMask: string;
  blacklistWords: string[];
  parser: SiteParser;
  /** The site's timezone: what a date written without an offset (a custom format's) is read in. */
  timeZone?: string;
}

export type Fetcher = (url: string) => Promise<FetchedPage>;

const MAX_ITEMS = 30;
/** Article pages one parse reads at most, and how long it may take: the rest are skipped (`parse_limit`). */
const MAX_PAGE_FETCHES = MAX_ITEMS + 10;
const PARSE_DEADLINE_MS = 30_000;

/**
 * The parser settings a parse could not use, as field errors: an encoding iconv does not know, a CSS
 * selector that does not parse, an attribute name that is not one. Checked when they are saved or tested,
 * so the publisher hears of them then rather than as a failed parse later.
 */
export function unusableParserFields(parser: Partial<SiteParser>): { field: string; code: string }[] {
  const errors: { field: string; code: string }[] = [];
  const enc = parser.encoding?.trim();
  if (enc && enc !== 'auto' && !iconv.encodingExists(enc))
    errors.push({ field: 'parser.encoding', code: 'invalid' });
  if (parser.html_selector) {
    try {
      load('<a></a>')(parser.html_selector);
    } catch {
      errors.push({ field: 'parser.html_selector', code: 'invalid' });
    }
  }
  if (parser.tag_attribute && !/^[A-Za-z_:][-A-Za-z0-9_:.]*$/.test(parser.tag_attribute))
    errors.push({ field: 'parser.tag_attribute', code: 'invalid' });
  return errors;
}

/** Decodes bytes by the configured encoding, else the declared one (HTTP header, XML prolog or meta tag). */
export function decode(page: FetchedPage, configured: string): string {
  let enc = configured && configured !== 'auto' ? configured : '';
  if (!enc) enc = /charset=([\w-]+)/i.exec(page.contentType)?.[1] ?? '';
  if (!enc) {
    const head = page.body.subarray(0, 2048).toString('latin1');
    enc =
      /<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(head)?.[1] ??
      /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1] ??
      'utf-8';
  }
  return iconv.encodingExists(enc) ? iconv.decode(page.body, enc) : page.body.toString('utf8');
}

/**
 * Parses a date written in a custom format (tokens YYYY, YY, MM, DD, HH, mm, ss; anything else literal),
 * found anywhere in the text but not inside a longer number, as the wall time of `timeZone`. A date that
 * does not exist (31.02, month 13, hour 25) is null, not rolled over into another one.
 * @example parseDateWith('DD.MM.YYYY HH:mm', '05.11.2026 14:30') // 2026-11-05T14:30:00Z
 */
export function parseDateWith(format: string, text: string, timeZone = 'UTC'): Date | null {
  const tokens: string[] = [];
  const pattern = format.replace(/YYYY|YY|MM|DD|HH|mm|ss|[.*+?^${}()|[\]\\]/g, (t) => {
    if (/^[A-Za-z]+$/.test(t)) {
      tokens.push(t);
      return t === 'YYYY' ? '(\\d{4})' : '(\\d{1,2})';
    }
    return `\\${t}`;
  });
  // a format of many tokens backtracks exponentially on a backtracking engine, so RE2 runs it too
  const m = userRegexExec(`(?:^|[^0-9])${pattern}(?:[^0-9]|$)`, text.trim());
  if (!m) return null;
  const parts: Record<string, number> = { YYYY: 1970, MM: 1, DD: 1, HH: 0, mm: 0, ss: 0 };
  tokens.forEach((t, i) => {
    const v = Number(m[i + 1]);
    if (t === 'YY') parts.YYYY = 2000 + v;
    else parts[t] = v;
  });
  const { YYYY: y = 1970, MM: mo = 1, DD: d = 1, HH: h = 0, mm: mi = 0, ss: s = 0 } = parts;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > days || h > 23 || mi > 59 || s > 59) return null;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const wall = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}`;
  const at = isTimeZone(timeZone) ? dayjs.tz(wall, timeZone) : dayjs.utc(wall);
  return at.isValid() ? at.toDate() : null;
}

/** A date of numbers only whose day and month order is unknown (05.11.2026, 5/11/26): JavaScript reads it US-first. */
const ambiguousDate = /^\s*\d{1,2}[./-]\d{1,2}[./-]\d{2,4}(?!\d)/;

/**
 * The published date of an article: by the site's custom format when it has one, else (or when the text
 * does not follow it) as JavaScript reads a written-out date (RFC 822, ISO 8601, "Nov 5, 2026"), but never a
 * date of numbers alone in an unknown order (05.11.2026 would be read as May 11): that one is null rather
 * than wrong.
 */
export function publishedDate(text: string, format: string, timeZone?: string): Date | null {
  const custom = format ? parseDateWith(format, text, timeZone) : null;
  if (custom) return custom;
  const trimmed = text.trim();
  if (ambiguousDate.test(trimmed)) return null;
  const d = new Date(trimmed);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** PHP `date` letters and strftime conversions the parser's tokens can say (numbers only, as it reads). */
const phpTokens: Record<string, string> = {
  Y: 'YYYY',
  y: 'YY',
  m: 'MM',
  n: 'MM',
  d: 'DD',
  j: 'DD',
  H: 'HH',
  G: 'HH',
  i: 'mm',
  s: 'ss',
};
const strftimeTokens: Record<string, string> = {
  Y: 'YYYY',
  y: 'YY',
  m: 'MM',
  d: 'DD',
  e: 'DD',
  H: 'HH',
  M: 'mm',
  S: 'ss',
  '%': '%',
};

/**
 * A date parse string from another system in the parser's own tokens: strftime (`%d.%m.%Y`) when it has a
 * `%`, the parser's tokens when it has them already, else PHP `date` letters (`d.m.Y H:i`, a backslash
 * escaping a letter). A letter or conversion that has no token (a month's name, a weekday) is refused
 * with that token, so the publisher knows what to change.
 * @example convertDateFormat('d.m.Y H:i') // { format: 'DD.MM.YYYY HH:mm', from: 'php' }
 */
export function convertDateFormat(
  input: string,
): { format: string; from: 'tokens' | 'php' | 'strftime' } | { unsupported: string } {
  if (input.includes('%')) {
    let out = '';
    for (let i = 0; i < input.length; i++) {
      const c = input[i]!;
      if (c !== '%') {
        out += c;
        continue;
      }
      const token = strftimeTokens[input[i + 1] ?? ''];
      if (!token) return { unsupported: `%${input[i + 1] ?? ''}` };
      out += token;
      i++;
    }
    return { format: out, from: 'strftime' };
  }
  if (/YYYY|YY|MM|DD|HH|mm|ss/.test(input)) return { format: input, from: 'tokens' };
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\\') {
      out += input[i + 1] ?? '';
      i++;
    } else if (/[A-Za-z]/.test(c)) {
      const token = phpTokens[c];
      if (!token) return { unsupported: c };
      out += token;
    } else out += c;
  }
  return { format: out, from: 'php' };
}

function applyMask(mask: string, text: string): string | null {
  if (!mask) return null;
  const m = userRegexExec(mask, text, { ignoreCase: true });
  if (!m) return null;
  return (m[1] ?? m[0] ?? '').trim();
}

function absolute(url: string, base: string, prefix = ''): string {
  if (!url) return '';
  if (prefix && !/^https?:\/\//i.test(url))
    return prefix + url.replace(/^\/+/, prefix.endsWith('/') ? '' : '/');
  try {
    const u = new URL(url, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : '';
  } catch {
    return '';
  }
}

interface OgData {
  title: string;
  description: string;
  image: string;
  published: string;
  html: string;
}

function readOg(html: string): OgData {
  const $ = load(html);
  const meta = (name: string) =>
    $(`meta[property="${name}"]`).attr('content') ?? $(`meta[name="${name}"]`).attr('content') ?? '';
  return {
    title: meta('og:title') || $('title').first().text(),
    description: meta('og:description') || meta('description'),
    image: meta('og:image'),
    published: meta('article:published_time'),
    html,
  };
}

type FeedItem = Parser.Item & {
  mediaContent?: { $?: { url?: string } }[];
  mediaThumbnail?: { $?: { url?: string } };
  'dc:date'?: string;
};

/** A feed that is not in the format the site's parser names (`rss_version`): its skip reason is `feed_format`. */
export class FeedFormatError extends Error {
  constructor(readonly found: string) {
    super(`the feed is ${found}`);
  }
}

/** A feed document's format by its root element: RSS 0.9x–2.0 (`rss`), RSS 1.0 (`rdf:RDF`) or Atom (`feed`). */
function feedFormat(xml: string): 'rss2' | 'rss1' | 'atom' | 'unknown' {
  let doc: Record<string, unknown>;
  try {
    // only the root's name is wanted: no entity is expanded
    doc = new XMLParser({ ignoreDeclaration: true, ignorePiTags: true, processEntities: false }).parse(
      xml,
    ) as Record<string, unknown>;
  } catch {
    return 'unknown';
  }
  const root = Object.keys(doc).find((k) => k !== '#text');
  return root === 'rss' ? 'rss2' : root === 'rdf:RDF' ? 'rss1' : root === 'feed' ? 'atom' : 'unknown';
}

/**
 * Turns a site's feed (or, without one, its home page) into materials, applying every parser setting:
 * masks, prefix, encoding, date format, categories, the URL mask and blacklist words. Articles must have
 * Open Graph data (title, image, description) on their page when the feed lacks it.
 */
export async function parseSite(
  target: ParseTarget,
  fetcher: Fetcher,
  opts: { deadlineMs?: number } = {},
): Promise<ParseResult> {
  const deadline = Date.now() + (opts.deadlineMs ?? PARSE_DEADLINE_MS);
  let fetches = 0;
  const p = target.parser;
  const skipped: ParseResult['skipped'] = [];
  const candidates: {
    url: string;
    title?: string;
    description?: string;
    image?: string;
    categories: string[];
    date?: string;
  }[] = [];
  let source: ParseResult['source'];

  if (p.rss_url) {
    source = 'rss';
    const page = await fetcher(p.rss_url);
    if (page.status >= 400) throw new OutboundError('http_status', `feed answered ${page.status}`);
    const xml = decode(page, p.encoding);
    // a version chosen in the site's parser is a promise about the feed: another format is refused, named
    if (p.rss_version !== 'auto') {
      // a document that is no feed at all (an HTML page, broken XML) is rss-parser's to refuse (parse_error)
      const found = feedFormat(xml);
      if (found !== 'unknown' && found !== p.rss_version) throw new FeedFormatError(found);
    }
    const feed = await new Parser<unknown, FeedItem>({
      // an <rss> without a version attribute is read as RSS 2.0 (rss-parser refuses it otherwise)
      defaultRSS: 2,
      customFields: {
        item: [
          ['media:content', 'mediaContent', { keepArray: true }],
          ['media:thumbnail', 'mediaThumbnail'],
          'dc:date',
        ],
      },
    }).parseString(xml);
    for (const item of feed.items.slice(0, MAX_ITEMS * 2)) {
      const url = absolute(item.link ?? '', page.url);
      if (!url) continue;
      const image =
        item.enclosure?.url ?? item.mediaContent?.[0]?.$?.url ?? item.mediaThumbnail?.$?.url ?? undefined;
      candidates.push({
        url,
        ...(item.title ? { title: item.title } : {}),
        ...(item.contentSnippet || item.summary
          ? { description: (item.contentSnippet ?? item.summary ?? '').slice(0, 500) }
          : {}),
        ...(image ? { image } : {}),
        categories: (item.categories ?? []).map((c) =>
          typeof c === 'string' ? c : String((c as { _?: string })._ ?? ''),
        ),
        // as the feed wrote it: the site's date format reads it (rss-parser's isoDate is JavaScript's guess)
        ...(item.pubDate || item['dc:date'] || item.isoDate
          ? { date: item.pubDate ?? item['dc:date'] ?? item.isoDate }
          : {}),
      });
    }
  } else {
    source = 'html';
    if (!p.html_selector)
      return { source, items: [], skipped: [{ url: target.domain, reason: 'no_feed_or_selector' }] };
    const home = await fetcher(`https://${target.domain}/`);
    const $ = load(decode(home, p.encoding));
    const seen = new Set<string>();
    $(p.html_selector).each((_, el) => {
      const url = absolute($(el).attr(p.tag_attribute || 'href') ?? '', home.url);
      if (url && !seen.has(url)) {
        seen.add(url);
        candidates.push({ url, categories: [] });
      }
      // as many links as a feed's items are read: a page of a thousand links is not a thousand fetches
      return candidates.length < MAX_ITEMS * 2;
    });
  }

  const items: ParsedMaterial[] = [];
  const blacklist = target.blacklistWords.map((w) => w.toLowerCase());
  for (const c of candidates) {
    if (items.length >= MAX_ITEMS) break;
    if (target.urlMask && !userRegexTest(target.urlMask, c.url, { ignoreCase: true })) {
      skipped.push({ url: c.url, reason: 'url_mask' });
      continue;
    }
    if (
      p.category_mask &&
      !c.categories.some((cat) => userRegexTest(p.category_mask, cat, { ignoreCase: true }))
    ) {
      skipped.push({ url: c.url, reason: 'category_mask' });
      continue;
    }
    let og: OgData | undefined;
    const needPage =
      !c.title || !c.description || !c.image || source === 'html' || Boolean(p.date_mask && !c.date);
    if (needPage) {
      if (fetches >= MAX_PAGE_FETCHES || Date.now() >= deadline) {
        skipped.push({ url: c.url, reason: 'parse_limit' });
        continue;
      }
      fetches += 1;
      try {
        const page = await fetcher(c.url);
        if (page.status < 400) og = readOg(decode(page, p.encoding));
      } catch {
        // an unreachable article is skipped below for lack of data
      }
    }
    let title = (c.title || og?.title || '').trim();
    title = applyMask(p.title_mask, title) ?? title;
    const description = (c.description || og?.description || '').trim();
    let image = c.image || og?.image || (og && p.image_mask ? (applyMask(p.image_mask, og.html) ?? '') : '');
    image = absolute(image, c.url, p.image_prefix);
    if (!title || !image) {
      skipped.push({ url: c.url, reason: 'no_og_tags' });
      continue;
    }
    const text = `${title} ${description}`.toLowerCase();
    if (blacklist.some((w) => text.includes(w))) {
      skipped.push({ url: c.url, reason: 'blacklist' });
      continue;
    }
    let published: Date | null = null;
    const dateText =
      (og && p.date_mask ? applyMask(p.date_mask, og.html) : null) ?? c.date ?? og?.published ?? '';
    if (dateText) published = publishedDate(dateText, p.date_parse_string, target.timeZone);
    items.push({
      url: c.url,
      title: title.slice(0, 500),
      description: description.slice(0, 1000),
      image,
      category: c.categories[0] ?? '',
      language: p.default_language ?? target.language,
      published_at: published?.toISOString() ?? null,
    });
  }
  return { source, items, skipped };
}
