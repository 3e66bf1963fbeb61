import { siteParser } from '@adp/contract';
import { expect, test } from 'vitest';
import type { FetchedPage } from '../../lib/safe-fetch.ts';
import { FeedFormatError, parseDateWith, parseSite, publishedDate } from './parser.ts';

const page = (url: string, html: string): FetchedPage => ({
  url,
  status: 200,
  contentType: 'text/html; charset=utf-8',
  body: Buffer.from(html),
});

const pages: Record<string, string> = {
  'https://mag.example/': `<html><body>
    <a class="teaser" href="/2026/11/garden">Garden</a>
    <a class="teaser" href="https://mag.example/2026/11/recipes">Recipes</a>
    <a class="teaser" href="/about">About us</a>
    <a class="other" href="/2026/11/ignored">Ignored</a></body></html>`,
  'https://mag.example/2026/11/garden': `<html><head>
    <meta property="og:title" content="Winter garden tips"><meta property="og:description" content="Keep plants alive.">
    <meta property="og:image" content="/img/garden.jpg"></head><body><span class="date">05.11.2026 14:30</span></body></html>`,
  'https://mag.example/2026/11/recipes': `<html><head>
    <meta property="og:title" content="Soup recipes"><meta property="og:description" content="Warm soups.">
    </head><body><img class="hero" src="https://img.mag.example/soup.png"><span class="date">06.11.2026 09:00</span></body></html>`,
};

test('without a feed, article links come from the HTML selector and their Open Graph tags', async () => {
  const result = await parseSite(
    {
      domain: 'mag.example',
      language: 'en',
      urlMask: '/2026/',
      blacklistWords: [],
      parser: siteParser.parse({
        html_selector: 'a.teaser',
        tag_attribute: 'href',
        image_mask: '<img class="hero" src="([^"]+)"',
        date_mask: '<span class="date">([^<]+)</span>',
        date_parse_string: 'DD.MM.YYYY HH:mm',
      }),
    },
    async (url) => page(url, pages[url] ?? ''),
  );
  expect(result.source).toBe('html');
  expect(result.items).toEqual([
    {
      url: 'https://mag.example/2026/11/garden',
      title: 'Winter garden tips',
      description: 'Keep plants alive.',
      image: 'https://mag.example/img/garden.jpg',
      category: '',
      language: 'en',
      published_at: '2026-11-05T14:30:00.000Z',
    },
    expect.objectContaining({
      url: 'https://mag.example/2026/11/recipes',
      image: 'https://img.mag.example/soup.png',
      published_at: '2026-11-06T09:00:00.000Z',
    }),
  ]);
  expect(result.skipped).toEqual([{ url: 'https://mag.example/about', reason: 'url_mask' }]);
});

test('custom date formats are parsed token by token', () => {
  expect(parseDateWith('DD.MM.YYYY HH:mm', '05.11.2026 14:30')?.toISOString()).toBe(
    '2026-11-05T14:30:00.000Z',
  );
  expect(parseDateWith('YYYY/MM/DD', 'Posted 2026/01/09 by Ann')?.toISOString()).toBe(
    '2026-01-09T00:00:00.000Z',
  );
  expect(parseDateWith('DD.MM.YY', '09.01.26')?.toISOString()).toBe('2026-01-09T00:00:00.000Z');
  expect(parseDateWith('DD.MM.YYYY', 'no date here')).toBeNull();
  // a date that does not exist is none, not the one it would roll over to
  expect(parseDateWith('DD.MM.YYYY HH:mm', '31.02.2026 10:00')).toBeNull();
  expect(parseDateWith('DD.MM.YYYY HH:mm', '99.99.9999 99:99')).toBeNull();
  expect(parseDateWith('MM/DD/YYYY', '13/12/2026')).toBeNull();
  expect(parseDateWith('DD.MM.YYYY', '29.02.2028')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
  // not inside a longer number
  expect(parseDateWith('DD.MM.YYYY', '105.11.2026')).toBeNull();
  // the wall time of the site's timezone
  expect(parseDateWith('DD.MM.YYYY HH:mm', '05.11.2026 14:30', 'Europe/Berlin')?.toISOString()).toBe(
    '2026-11-05T13:30:00.000Z',
  );
  expect(parseDateWith('DD.MM.YYYY HH:mm', '05.07.2026 14:30', 'Europe/Berlin')?.toISOString()).toBe(
    '2026-07-05T12:30:00.000Z',
  );
});

test("a feed's dates are read by the site's format, not JavaScript's guess; a standard date needs none", async () => {
  const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Mag</title>
    ${[
      ['a', '05.11.2026 14:30'],
      ['b', '31.02.2026 10:00'],
      ['c', 'Thu, 05 Nov 2026 09:00:00 +0000'],
    ]
      .map(
        ([slug, date]) => `<item><title>Story ${slug}</title><link>https://mag.example/${slug}</link>
        <description>Text</description><enclosure url="https://mag.example/${slug}.jpg" type="image/jpeg"/>
        <pubDate>${date}</pubDate></item>`,
      )
      .join('')}</channel></rss>`;
  const parse = (date_parse_string: string) =>
    parseSite(
      {
        domain: 'mag.example',
        language: 'en',
        urlMask: '',
        blacklistWords: [],
        parser: siteParser.parse({ rss_url: 'https://mag.example/feed', date_parse_string }),
        timeZone: 'Europe/Kyiv',
      },
      async (url) => ({ ...page(url, feed), contentType: 'application/rss+xml' }),
    );
  const dates = (await parse('DD.MM.YYYY HH:mm')).items.map((i) => i.published_at);
  expect(dates).toEqual(['2026-11-05T12:30:00.000Z', null, '2026-11-05T09:00:00.000Z']);
  // without a format, the day-first date is no date rather than May 11
  const plain = (await parse('')).items.map((i) => i.published_at);
  expect(plain).toEqual([null, null, '2026-11-05T09:00:00.000Z']);
  // a written-out date needs no format
  expect(publishedDate('Nov 5, 2026 10:00 GMT', '')?.toISOString()).toBe('2026-11-05T10:00:00.000Z');
  expect(publishedDate('2026-11-05T10:00:00+03:00', '')?.toISOString()).toBe('2026-11-05T07:00:00.000Z');
});

test('one parse reads a bounded number of article pages and stops at its deadline', async () => {
  const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Mag</title>${Array.from(
    { length: 60 },
    (_, i) => `<item><title>Story ${i}</title><link>https://mag.example/${i}</link></item>`,
  ).join('')}</channel></rss>`;
  const target = {
    domain: 'mag.example',
    language: 'en',
    urlMask: '',
    blacklistWords: [],
    parser: siteParser.parse({ rss_url: 'https://mag.example/feed' }),
  };
  let articles = 0;
  // no image in the feed: every item needs its page, which has none either
  const fetcher = async (url: string) => {
    if (url !== 'https://mag.example/feed') articles += 1;
    return { ...page(url, url === 'https://mag.example/feed' ? feed : '<html></html>') };
  };
  const result = await parseSite(target, fetcher);
  expect(articles).toBe(40);
  expect(result.skipped.filter((s) => s.reason === 'parse_limit')).toHaveLength(20);
  articles = 0;
  const late = await parseSite(target, fetcher, { deadlineMs: 0 });
  expect(articles).toBe(0);
  expect(late.skipped.every((s) => s.reason === 'parse_limit')).toBe(true);
});

test('a catastrophic URL mask on a 50 000-character URL is applied without hanging the parse', async () => {
  const longUrl = `https://mag.example/${'a'.repeat(50_000)}!`;
  const result = await parseSite(
    {
      domain: 'mag.example',
      language: 'en',
      urlMask: '(a+)+$',
      blacklistWords: [],
      parser: siteParser.parse({ html_selector: 'a' }),
    },
    async (url) => page(url, url === 'https://mag.example/' ? `<a href="${longUrl}">x</a>` : ''),
  );
  expect(result.items).toEqual([]);
  expect(result.skipped).toEqual([{ url: longUrl, reason: 'url_mask' }]);
});

test('a date format of many tokens does not backtrack exponentially on a long run of digits', () => {
  // 40 one-or-two-digit groups against 39 digits: a backtracking engine tries every split (~10^8)
  expect(parseDateWith('DD'.repeat(40), `${'1'.repeat(39)}x`)).toBeNull();
});

test('an <rss> without a version is read as RSS 2.0; a chosen version refuses a feed of another format', async () => {
  const versionless = `<?xml version="1.0"?><rss><channel><title>Mag</title><item><title>Plain</title>
    <link>https://mag.example/plain</link><enclosure url="https://mag.example/p.jpg" type="image/jpeg"/></item>
    </channel></rss>`;
  const atom = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>
    <entry><title>Entry</title><link href="https://mag.example/entry"/></entry></feed>`;
  const parse = (xml: string, rss_version: string) =>
    parseSite(
      {
        domain: 'mag.example',
        language: 'en',
        urlMask: '',
        blacklistWords: [],
        parser: siteParser.parse({ rss_url: 'https://mag.example/feed', rss_version }),
        timeZone: 'UTC',
      },
      async (url) => ({ ...page(url, xml), contentType: 'application/xml' }),
    );
  for (const version of ['auto', 'rss2'])
    expect((await parse(versionless, version)).items.map((i) => i.title)).toEqual(['Plain']);
  await expect(parse(versionless, 'atom')).rejects.toBeInstanceOf(FeedFormatError);
  await expect(parse(atom, 'rss2')).rejects.toThrow('the feed is atom');
  // no feed at all: rss-parser's own refusal (a parse error), not a wrong version
  const html = parse('<!doctype html><html><body>Checking your browser…</body></html>', 'rss1');
  await expect(html).rejects.toThrow();
  await expect(html).rejects.not.toBeInstanceOf(FeedFormatError);
});
