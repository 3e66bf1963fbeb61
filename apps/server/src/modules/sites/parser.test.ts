import { siteParser } from '@adp/contract';
import { expect, test } from 'vitest';
import type { FetchedPage } from '../../lib/safe-fetch.ts';
import { parseDateWith, parseSite } from './parser.ts';

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
