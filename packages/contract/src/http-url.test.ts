import { expect, test } from 'vitest';
import type { z } from 'zod';
import { bannerInput } from './banners.ts';
import { campaignInput } from './campaigns.ts';
import { httpUrl, optionalHttpUrl } from './common.ts';
import { promotionInput, promotionPageInput } from './promotions.ts';
import { siteInput, siteParser } from './sites.ts';
import { describeIssue } from './validation.ts';
import { widgetInput } from './widgets.ts';

const hostile = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://files.example/a',
];

test('httpUrl keeps http(s) URLs (trimmed) and refuses every other scheme with the http_url message', () => {
  expect(httpUrl.parse(' https://news.example/a?b=1 ')).toBe('https://news.example/a?b=1');
  expect(httpUrl.parse('HTTP://News.Example/')).toBe('HTTP://News.Example/');
  for (const url of hostile) {
    const res = httpUrl.safeParse(url);
    expect(res.success, url).toBe(false);
    expect(describeIssue(res.error!.issues[0] as z.core.$ZodIssue).key).toBe('http_url');
  }
  expect(optionalHttpUrl.parse('')).toBe('');
  expect(optionalHttpUrl.safeParse('javascript:alert(1)').success).toBe(false);
});

// every URL a user types that is later rendered or redirected to
const fields: [string, (url: string) => boolean][] = [
  ['banner url', (url) => bannerInput.safeParse({ campaign_id: '1', title: 'T', url }).success],
  [
    'campaign track_urls',
    (url) => campaignInput.safeParse({ title: 'T', clickprice: 1, track_urls: [url] }).success,
  ],
  ['promotion url', (url) => promotionInput.safeParse({ title: 'T', site_id: '1', url }).success],
  [
    'promotion page url',
    (url) => promotionPageInput.safeParse({ title: 'T', promotion_id: '1', url }).success,
  ],
  [
    'site default_advertorial_url',
    (url) =>
      siteInput.safeParse({ title: 'T', domain: 'a.example', category: 'news', default_advertorial_url: url })
        .success,
  ],
  ['parser rss_url', (url) => siteParser.safeParse({ rss_url: url }).success],
  ['parser image_prefix', (url) => siteParser.safeParse({ image_prefix: url }).success],
  [
    'widget marketplace_url',
    (url) => widgetInput.safeParse({ title: 'W', site_id: '1', marketplace_url: url }).success,
  ],
];

test.each(fields)('%s accepts https and refuses javascript:, data:, vbscript:, file:', (_, accepts) => {
  expect(accepts('https://shop.example/page')).toBe(true);
  for (const url of hostile) expect(accepts(url), url).toBe(false);
});
