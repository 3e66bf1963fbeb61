import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FeedServer } from './feed-server.test-helper.ts';
import {
  type CpcFeedProcessor,
  FeedError,
  type FeedItem,
  type FeedRequest,
  feedAdapters,
  fetchFeed,
  parseFeedConfig,
} from './index.ts';

/**
 * Exemplary fixtures in the form of Prebid Server's adapter tests: a campaign's feed settings and a
 * visitor (`request`) → the HTTP call the feed must receive (`httpCall`) → what the feed answers
 * (`response`) → the items a widget gets (`expectedItems`, cpc as a decimal string of micro-units).
 */
interface Fixture {
  description: string;
  processor: CpcFeedProcessor;
  srcCode: Record<string, unknown>;
  request: FeedRequest;
  httpCall: { method: string; path: string; query: Record<string, string>; body?: Record<string, unknown> };
  response: { status: number; body: unknown };
  expectedItems: (Omit<FeedItem, 'cpc'> & { cpc: string | null })[];
}

const fixturesDir = new URL('./fixtures/', import.meta.url);
const fixtures = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, ...(JSON.parse(readFileSync(new URL(f, fixturesDir), 'utf8')) as Fixture) }));

const feed = new FeedServer();
beforeAll(() => feed.start());
afterAll(() => feed.stop());

const visitor: FeedRequest = {
  count: 3,
  ip: '203.0.113.1',
  userAgent: 'Mozilla/5.0 Test',
  pageUrl: 'https://site.example/a',
  language: 'en',
  country: 'US',
  visitorId: 'v-1',
};

const config = <P extends CpcFeedProcessor>(processor: P, srcCode: Record<string, unknown>) => {
  const parsed = parseFeedConfig(processor, JSON.stringify(srcCode));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
};

const expectedItems = (f: Fixture): FeedItem[] =>
  f.expectedItems.map((i) => ({ ...i, cpc: i.cpc === null ? null : BigInt(i.cpc) }));

const kindOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof FeedError ? e.kind : `not a FeedError: ${String(e)}`;
  }
};

test('every feed has at least one exemplary fixture', () => {
  for (const processor of Object.keys(feedAdapters)) {
    expect(
      fixtures.some((f) => f.processor === processor),
      processor,
    ).toBe(true);
  }
});

describe.each(fixtures)('$file', (f) => {
  test(f.description, async () => {
    const prefix = `/${f.file.replace('.json', '')}/`;
    const endpoint = feed.json(prefix, f.response.status, f.response.body);
    const cfg = config(f.processor, { ...f.srcCode, endpoint });
    const adapter = feedAdapters[f.processor] as (typeof feedAdapters)['mgid'];

    // the outgoing call, as the bidder builds it
    const call = adapter.buildRequest(cfg as never, f.request);
    expect(call.method).toBe(f.httpCall.method);
    const url = new URL(call.url);
    expect(url.pathname).toBe(`${prefix}${f.httpCall.path}`);
    expect(Object.fromEntries(url.searchParams)).toEqual(f.httpCall.query);
    if (f.httpCall.body)
      expect(JSON.parse(call.body ?? '')).toEqual({ ...f.httpCall.body, id: expect.any(String) });

    // the answer, as the bidder reads it
    const items = adapter.parse(f.response.status, JSON.stringify(f.response.body)).slice(0, f.request.count);
    expect(items).toEqual(expectedItems(f));

    // and end to end through the outbound guard against the local feed
    const fetched = await fetchFeed(f.processor, cfg, f.request, { timeoutMs: 5000, allowLoopback: true });
    expect(fetched).toEqual(expectedItems(f));
    const seen = feed.lastCall(prefix);
    expect(seen?.method).toBe(f.httpCall.method);
    expect(seen?.path).toBe(`${prefix}${f.httpCall.path}`);
    expect(seen?.query).toEqual(f.httpCall.query);
    if (f.httpCall.body) {
      // a POST feed (mgidv2) gets its JSON body and content type through the outbound guard
      expect(JSON.parse(seen?.body ?? '')).toEqual({ ...f.httpCall.body, id: expect.any(String) });
      expect(seen?.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

const getFeeds = ['mgid', 'revcontent', 'contentad'] as const;
const minimal: Record<(typeof getFeeds)[number], Record<string, unknown>> = {
  mgid: { widget_id: '1', token: 'tok' },
  revcontent: { api_key: 'key', pub_id: '1', widget_id: '2', domain: 'site.example' },
  contentad: { widget_id: 'w-1', domain_id: 'd-1' },
};

describe.each(getFeeds)('%s failures', (processor) => {
  const at = (name: string) => `/${processor}-${name}/`;
  const cfg = (endpoint: string) => config(processor, { ...minimal[processor], endpoint });
  const fetchFrom = (
    endpoint: string,
    opts: { timeoutMs?: number; signal?: AbortSignal; maxBytes?: number } = {},
  ) => fetchFeed(processor, cfg(endpoint), visitor, { timeoutMs: 3000, allowLoopback: true, ...opts });

  test('a feed that never answers fails as a timeout within the time given', async () => {
    expect(await kindOf(fetchFrom(feed.silent(at('silent')), { timeoutMs: 300 }))).toBe('timeout');
  });

  test('the caller giving up aborts the call', async () => {
    const controller = new AbortController();
    const pending = fetchFrom(feed.silent(at('abort')), { timeoutMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await kindOf(pending)).toBe('aborted');
  });

  test('500 is the partner failing, 400 is our request being wrong', async () => {
    const e500 = fetchFrom(feed.json(at('500'), 500, { error: 'boom' }));
    expect(await kindOf(e500)).toBe('partner');
    const e400 = fetchFrom(feed.json(at('400'), 400, { error: 'bad widget' }));
    expect(await kindOf(e400)).toBe('bad_request');
  });

  test('malformed JSON is the partner failing', async () => {
    expect(await kindOf(fetchFrom(feed.json(at('malformed'), 200, '{"teasers": [ {"title": ')))).toBe(
      'partner',
    );
    expect(await kindOf(fetchFrom(feed.json(at('html'), 200, '<html>maintenance</html>')))).toBe('partner');
  });

  test('204, an empty body and an empty list are no fill, not an error', async () => {
    expect(await fetchFrom(feed.json(at('204'), 204, ''))).toEqual([]);
    expect(await fetchFrom(feed.json(at('emptybody'), 200, ''))).toEqual([]);
    const emptyList = processor === 'contentad' ? { articles: [] } : [];
    expect(await fetchFrom(feed.json(at('emptylist'), 200, emptyList))).toEqual([]);
  });

  test('an answer larger than the limit is refused', async () => {
    const big = feed.json(at('big'), 200, `[${'"x",'.repeat(5000)}"x"]`);
    expect(await kindOf(fetchFrom(big, { maxBytes: 1024 }))).toBe('too_large');
  });

  test('loopback endpoints are refused unless allowed for tests', async () => {
    const endpoint = feed.json(at('guard'), 200, []);
    expect(await kindOf(fetchFeed(processor, cfg(endpoint), visitor, { timeoutMs: 2000 }))).toBe('blocked');
    const metadata = cfg('http://169.254.169.254/latest/');
    expect(
      await kindOf(fetchFeed(processor, metadata, visitor, { timeoutMs: 2000, allowLoopback: true })),
    ).toBe('blocked');
  });
});

test('items with non-http(s) click URLs or images are dropped, whatever the feed', () => {
  const bad = [
    'javascript:alert(1)',
    'data:text/html,x',
    'ftp://x.example/a',
    'http://user:pw@x.example/',
    'not a url',
  ];
  for (const link of bad) {
    const mgid = JSON.stringify([{ title: 'T', url: link, image: 'https://i.example/a.jpg' }]);
    expect(feedAdapters.mgid.parse(200, mgid), link).toEqual([]);
    const rev = JSON.stringify([{ headline: 'T', url: 'https://c.example/1', image: link }]);
    expect(feedAdapters.revcontent.parse(200, rev), link).toEqual([]);
    const cad = JSON.stringify({ articles: [{ title: 'T', url: link, image: 'https://i.example/a.jpg' }] });
    expect(feedAdapters.contentad.parse(200, cad), link).toEqual([]);
  }
});

test('titles and texts are plain text of at most 60 characters', () => {
  const [item] = feedAdapters.mgid.parse(
    200,
    JSON.stringify([
      {
        title: `<script>x()</script>&lt;img src=x onerror=alert(1)&gt; Ünïcödé 🎉 ${'é'.repeat(80)}`,
        description: 'line\u0000one\u202e\n<p>two</p>',
        url: 'https://c.example/1',
        image: 'https://i.example/1.jpg',
      },
    ]),
  );
  expect(item?.title).not.toMatch(/[<>]/);
  expect(Array.from(item?.title ?? '').length).toBe(60);
  expect(item?.title.endsWith('…')).toBe(true);
  expect(item?.text).toBe('line one two');
});

test('a cpcfeed campaign src_code is checked per feed with a message naming the field', () => {
  expect(parseFeedConfig('mgid', '{"widget_id": "123", "token": "abc"}')).toEqual({
    ok: true,
    config: { widget_id: '123', token: 'abc', endpoint: 'https://api.mgid.com/' },
  });
  expect(parseFeedConfig('revcontent', '<script src="//x"></script>')).toEqual({
    ok: false,
    error: 'src_code must be a JSON object with the feed settings',
  });
  const missing = parseFeedConfig('revcontent', '{"api_key": "k", "pub_id": "1", "widget_id": "2"}');
  expect(missing.ok === false && missing.error.startsWith('domain:')).toBe(true);
  const badEndpoint = parseFeedConfig(
    'contentad',
    '{"widget_id": "a", "domain_id": "b", "endpoint": "file:///etc/"}',
  );
  expect(badEndpoint.ok === false && badEndpoint.error.startsWith('endpoint:')).toBe(true);
  const unknownField = parseFeedConfig('mgidv2', '{"account_id": "1", "acount": "2"}');
  expect(unknownField.ok).toBe(false);
  expect(parseFeedConfig('mgidv2', '{"account_id": 219}')).toEqual({
    ok: true,
    config: { account_id: '219', endpoint: 'https://prebid.mgid.com/prebid/' },
  });
});
