import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

let t: TestApp;
let admin: ReturnType<typeof as>;
let feeds: Server;
let feedBase: string;

beforeAll(async () => {
  feeds = createServer((req, res) => {
    const name = (req.url ?? '').slice(1);
    try {
      const body = fixture(name);
      res.writeHead(200, {
        'content-type': name.includes('1251') ? 'application/rss+xml' : 'application/xml; charset=utf-8',
      });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => feeds.listen(0, '127.0.0.1', r));
  feedBase = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`;
  t = await createTestApp({ OUTBOUND_ALLOW_LOOPBACK: '1' });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => feeds.close(r));
});

const newSite = (overrides: Record<string, unknown> = {}) => ({
  site: {
    title: 'Daily Planet',
    domain: `https://www.planet-${Math.random().toString(36).slice(2, 8)}.example/news`,
    category: 'news',
    ...overrides,
  },
});

describe('sites', () => {
  test('a publisher creates a site: the domain is normalised, defaults filled, moderation pending', async () => {
    const u = await register(t.app);
    const me = as(t.app, u.access_token);
    const res = await me.post(
      '/api/sites',
      newSite({ domain: 'HTTPS://WWW.Daily-Planet.example/news?x=1', tags: ['city', 'world'] }),
    );
    expect(res.statusCode).toBe(201);
    const site = res.json();
    expect(site).toMatchObject({
      domain: 'daily-planet.example',
      user_id: u.user_id,
      moderation: 'pending',
      status: 'active',
      materials_lifetime: 30,
      tags: ['city', 'world'],
      parser: { rss_version: 'auto', tag_attribute: 'href' },
    });
    const again = await (await register(t.app)).access_token;
    const dup = await as(t.app, again).post('/api/sites', newSite({ domain: 'daily-planet.example' }));
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors[0]).toMatchObject({ field: 'domain', code: 'domain_taken' });
  });

  test('an update changes only the fields sent', async () => {
    const u = await register(t.app);
    const me = as(t.app, u.access_token);
    const site = (
      await me.post('/api/sites', newSite({ materials_lifetime: 7, tags: ['a'], use_noindex: true }))
    ).json();
    const res = await me.put(`/api/sites/${site._id}`, { site: { title: 'Only the title' } });
    expect(res.json()).toMatchObject({
      title: 'Only the title',
      materials_lifetime: 7,
      tags: ['a'],
      use_noindex: true,
      domain: site.domain,
    });
  });

  test('bad fields get one error each', async () => {
    const u = await register(t.app);
    const res = await as(t.app, u.access_token).post('/api/sites', {
      site: { title: '', domain: 'not a domain', category: 'cats', url_mask: '([', materials_lifetime: 0 },
    });
    expect(res.statusCode).toBe(422);
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['category', 'domain', 'materials_lifetime', 'title', 'url_mask']);
    expect(res.json().errors.find((e: { field: string }) => e.field === 'domain').detail).toBe(
      'Domain must be a domain name such as news.example.com',
    );
  });

  test('an internationalised domain is kept in its ASCII (punycode) form, typed either way', async () => {
    const me = as(t.app, (await register(t.app)).access_token);
    const cyrillic = await me.post('/api/sites', {
      site: { title: 'RF', domain: 'https://новости-пример.рф/', category: 'news' },
    });
    expect(cyrillic.statusCode, cyrillic.body).toBe(201);
    const ascii = new URL('http://новости-пример.рф').hostname;
    expect(cyrillic.json().domain).toBe(ascii);
    // the same site typed in punycode is the same domain
    const again = await me.post('/api/sites', { site: { title: 'RF 2', domain: ascii, category: 'news' } });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors[0].field).toBe('domain');
  });

  test('masks RE2 cannot run (backreferences, lookaround) are refused when saved, with a translated 422', async () => {
    const token = (await register(t.app)).access_token;
    const me = as(t.app, token);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sites',
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'de' },
      payload: newSite({ url_mask: '(news)/\\1', parser: { title_mask: '^(.*)(?= - Daily)' } }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ field: 'url_mask', code: 'regex_unsupported' }),
      expect.objectContaining({ field: 'parser.title_mask', code: 'regex_unsupported' }),
    ]);
    expect(res.json().errors[0].detail).toContain('Rückverweise');
    const site = (await me.post('/api/sites', newSite({ url_mask: '^https://[^/]+/news/' }))).json();
    const put = await me.put(`/api/sites/${site._id}`, { site: { parser: { category_mask: '(?<!x)y' } } });
    expect(put.statusCode).toBe(422);
    expect(put.json().errors[0]).toMatchObject({ field: 'parser.category_mask', code: 'regex_unsupported' });
    const test = await me.post(`/api/sites/${site._id}/parser-test`, { parser: { date_mask: '(\\d)\\1' } });
    expect(test.statusCode).toBe(422);
    // an encoding, a selector or an attribute the parser could not use is refused when saved too
    const unusable = await me.put(`/api/sites/${site._id}`, {
      site: { parser: { encoding: 'nonsense-enc', html_selector: 'a[[[', tag_attribute: '<x>' } },
    });
    expect(unusable.statusCode).toBe(422);
    expect(unusable.json().errors.map((e: { field: string }) => e.field)).toEqual([
      'parser.encoding',
      'parser.html_selector',
      'parser.tag_attribute',
    ]);
    const usable = await me.put(`/api/sites/${site._id}`, {
      site: {
        parser: { encoding: 'windows-1251', html_selector: 'article h2 > a', tag_attribute: 'data-href' },
      },
    });
    expect(usable.statusCode, usable.body).toBe(200);
  });

  test('the advertorial URL and the feed URL must be http(s): javascript: is a 422 on each field', async () => {
    const me = as(t.app, (await register(t.app)).access_token);
    const res = await me.post(
      '/api/sites',
      newSite({
        default_advertorial_url: 'javascript:alert(1)',
        parser: { rss_url: 'file:///etc/passwd', image_prefix: 'javascript:' },
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ['default_advertorial_url', 'http_url'],
      ['parser.rss_url', 'http_url'],
      ['parser.image_prefix', 'http_url'],
    ]);
  });

  test("a publisher never sees or changes another publisher's site; readonly cannot write", async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const site = (await as(t.app, a.access_token).post('/api/sites', newSite())).json();
    const bApi = as(t.app, b.access_token);
    expect((await bApi.get(`/api/sites/${site._id}`)).statusCode).toBe(404);
    expect((await bApi.put(`/api/sites/${site._id}`, { site: { title: 'mine now' } })).statusCode).toBe(404);
    expect((await bApi.del(`/api/sites/${site._id}`)).statusCode).toBe(404);
    expect((await bApi.get('/api/sites')).json().total).toBe(0);
    expect((await bApi.post('/api/sites', newSite({ user_id: a.user_id }))).statusCode).toBe(422);
    const ro = await userWithRole(t, 'defaultreadonly');
    expect((await as(t.app, ro.access_token).post('/api/sites', newSite())).statusCode).toBe(403);
    // the parser's tests fetch the site's pages: a read-only admin reads the site but does not run them
    const roAdmin = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await roAdmin.get(`/api/sites/${site._id}`)).statusCode).toBe(200);
    expect((await roAdmin.get(`/api/sites/${site._id}/rss-test`)).statusCode).toBe(403);
    expect((await roAdmin.post(`/api/sites/${site._id}/parser-test`, { parser: {} })).statusCode).toBe(403);
    expect((await bApi.get(`/api/sites/${site._id}/rss-test`)).statusCode).toBe(404);
    // the timezone its dates are read in is a real one
    const aApi = as(t.app, a.access_token);
    const badZone = await aApi.put(`/api/sites/${site._id}`, { site: { timezone: 'Garbage/Zone<script>' } });
    expect(badZone.statusCode).toBe(422);
    expect(badZone.json().errors[0].field).toBe('timezone');
    const kyiv = await aApi.put(`/api/sites/${site._id}`, { site: { timezone: 'Europe/Kyiv' } });
    expect(kyiv.json().timezone).toBe('Europe/Kyiv');
    expect(
      (await admin.get(`/api/sites?account=${a.user_id}`)).json().items.map((s: { _id: string }) => s._id),
    ).toEqual([site._id]);
  });

  test('admins moderate: approve, reject with a reason the owner sees; a material change goes back to the queue', async () => {
    const u = await register(t.app);
    const me = as(t.app, u.access_token);
    const site = (await me.post('/api/sites', newSite())).json();
    expect(
      (await admin.get('/api/sites?moderation=pending')).json().items.map((s: { _id: string }) => s._id),
    ).toContain(site._id);
    expect((await me.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' })).statusCode).toBe(403);
    const rejected = await admin.post(`/api/sites/${site._id}/moderate`, {
      decision: 'reject',
      reason: 'Adult content',
    });
    expect(rejected.json()).toMatchObject({ moderation: 'rejected', moderation_reason: 'Adult content' });
    expect((await me.get(`/api/sites/${site._id}`)).json().moderation_reason).toBe('Adult content');
    await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
    const retitled = await me.put(`/api/sites/${site._id}`, {
      site: { title: 'Renamed', use_noindex: true },
    });
    expect(retitled.json()).toMatchObject({ moderation: 'approved', title: 'Renamed', use_noindex: true });
    const moved = await me.put(`/api/sites/${site._id}`, { site: { domain: `moved-${site._id}.example` } });
    expect(moved.json()).toMatchObject({ moderation: 'pending', domain: `moved-${site._id}.example` });
  });
});

describe('content parser', () => {
  async function siteWithFeed(
    file: string,
    extra: Record<string, unknown> = {},
    siteExtra: Record<string, unknown> = {},
  ) {
    const u = await register(t.app);
    const me = as(t.app, u.access_token);
    const site = (
      await me.post(
        '/api/sites',
        newSite({ ...siteExtra, parser: { rss_url: `${feedBase}/${file}`, ...extra } }),
      )
    ).json();
    return { me, site };
  }

  test('the RSS test shows what the feed gives; items without an image are skipped with a reason', async () => {
    const { me, site } = await siteWithFeed('rss2-utf8.xml');
    const res = await me.get(`/api/sites/${site._id}/rss-test`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.source).toBe('rss');
    expect(body.items.map((i: { title: string }) => i.title)).toEqual([
      'City council approves new bike lanes downtown',
      'Stocks rally as inflation cools',
      'Casino giant opens new resort',
    ]);
    expect(body.items[0]).toMatchObject({
      url: 'https://news.example/local/bike-lanes-approved',
      image: 'https://cdn.news.example/img/bike-lanes.jpg',
      category: 'Local',
      published_at: '2026-11-16T08:30:00.000Z',
    });
    expect(body.skipped).toEqual([{ url: 'https://news.example/sport/cup-final', reason: 'no_og_tags' }]);
    expect((await me.get(`/api/sites/${site._id}/materials`)).json().total).toBe(0);
  });

  test('blacklist words and the category mask filter materials; parse stores them; clear deletes them', async () => {
    const { me, site } = await siteWithFeed(
      'rss2-utf8.xml',
      { category_mask: '^(Local|Business)$' },
      { blacklist_words: ['casino'] },
    );
    const run = (await me.post(`/api/sites/${site._id}/parse`)).json();
    expect(run.stored).toBe(2);
    expect(run.skipped).toEqual(
      expect.arrayContaining([
        { url: 'https://news.example/business/casino-resort', reason: 'blacklist' },
        { url: 'https://news.example/sport/cup-final', reason: 'category_mask' },
      ]),
    );
    const stored = (await me.get(`/api/sites/${site._id}/materials`)).json();
    expect(stored.total).toBe(2);
    expect(new Date(stored.items[0].expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect((await me.post(`/api/sites/${site._id}/parse`)).json().stored).toBe(2);
    expect((await me.get(`/api/sites/${site._id}/materials`)).json().total).toBe(2);
    expect((await me.get(`/api/sites/${site._id}`)).json().materials_count).toBe(2);
    expect((await me.del(`/api/sites/${site._id}/materials`)).json()).toEqual({ deleted: 2 });
    expect((await me.get(`/api/sites/${site._id}`)).json().materials_count).toBe(0);
  });

  test('a windows-1251 feed is decoded; relative images get the prefix; the title mask cleans titles', async () => {
    const { me, site } = await siteWithFeed('rss2-windows-1251.xml', {
      image_prefix: 'https://cdn.ru.example',
      title_mask: '^(.*?)\\s*(укрепился)?$',
      default_language: 'ru',
    });
    const body = (await me.get(`/api/sites/${site._id}/rss-test`)).json();
    expect(body.items.map((i: { title: string }) => i.title)).toEqual(['Курс рубля', 'Погода на выходные']);
    expect(body.items[0]).toMatchObject({
      image: 'https://cdn.ru.example/img/rubl.jpg',
      category: 'Экономика',
      language: 'ru',
      published_at: '2026-11-17T07:00:00.000Z',
    });
  });

  test('Atom and RSS 1.0 feeds are read; the parser test tries unsaved settings', async () => {
    const { me, site } = await siteWithFeed('atom.xml');
    const atom = (await me.get(`/api/sites/${site._id}/rss-test`)).json();
    // Atom entries carry no image: the article pages (unreachable here) would have to provide og:image
    expect(atom.skipped.map((s: { url: string }) => s.url)).toEqual([
      'https://blog.example/2026/laptops',
      'https://blog.example/2026/akku',
    ]);
    const rdf = await me.post(`/api/sites/${site._id}/parser-test`, {
      parser: { rss_url: `${feedBase}/rss1-rdf.xml` },
    });
    expect(rdf.statusCode).toBe(200);
    expect(rdf.json().skipped[0].url).toBe('https://science.example/telescope');
    // a chosen RSS version is held to: the same RDF feed read as RSS 1.0 passes, as Atom or RSS 2.0 it is
    // refused with its reason
    const tryAs = async (rss_version: string) =>
      (
        await me.post(`/api/sites/${site._id}/parser-test`, {
          parser: { rss_url: `${feedBase}/rss1-rdf.xml`, rss_version },
        })
      ).json();
    expect((await tryAs('rss1')).skipped[0].url).toBe('https://science.example/telescope');
    for (const other of ['atom', 'rss2'])
      expect((await tryAs(other)).skipped).toEqual([
        { url: `${feedBase}/rss1-rdf.xml`, reason: 'feed_format' },
      ]);
    const missing = (
      await me.post(`/api/sites/${site._id}/parser-test`, { parser: { rss_url: `${feedBase}/nope.xml` } })
    ).json();
    expect(missing.items).toEqual([]);
    expect(missing.skipped[0]).toEqual({ url: `${feedBase}/nope.xml`, reason: 'http_status' });
    // the saved feed that failed is named, not the site's domain
    const broken = await siteWithFeed('nope.xml');
    const saved = (await broken.me.get(`/api/sites/${broken.site._id}/rss-test`)).json();
    expect(saved.skipped[0]).toEqual({ url: `${feedBase}/nope.xml`, reason: 'http_status' });
    // a parse of a feed that cannot be read stores nothing and does not count as the site's last parse
    const run = (await broken.me.post(`/api/sites/${broken.site._id}/parse`)).json();
    expect(run).toMatchObject({
      stored: 0,
      skipped: [{ url: `${feedBase}/nope.xml`, reason: 'http_status' }],
    });
    const { sites } = await import('../../db/schema/index.ts');
    const [row] = await t.database.db
      .select({ parsedAt: sites.parsedAt })
      .from(sites)
      .where(eq(sites.id, Number(broken.site._id)));
    expect(row?.parsedAt).toBeNull();
  });

  test('the scheduled refresh parses every active approved site and purges expired materials', async () => {
    const { me, site } = await siteWithFeed('rss2-utf8.xml');
    const { materials } = await import('../../db/schema/index.ts');
    await t.database.db.insert(materials).values({
      siteId: Number(site._id),
      url: 'https://news.example/expired',
      title: 'Old news',
      image: 'https://news.example/old.jpg',
      expiresAt: new Date(Date.now() - 1000),
    });
    const { createSitesService } = await import('./sites.service.ts');
    const { createSitesRepository } = await import('./sites.repository.ts');
    const { createWidgetsRepository } = await import('../widgets/widgets.repository.ts');
    const { createUsersRepository } = await import('../users/users.repository.ts');
    const { createRatesCache } = await import('../currencies/rates.ts');
    const service = createSitesService({
      repo: createSitesRepository(t.database.db),
      widgets: createWidgetsRepository(t.database.db),
      users: createUsersRepository(t.database.db, t.config.publicUrl, createRatesCache()),
      log: t.app.log,
      allowLoopback: true,
    });
    expect((await service.refreshAll()).text).toMatch(/, purged [1-9]\d*$/);
    // a site still waiting for moderation is not parsed
    expect((await me.get(`/api/sites/${site._id}/materials`)).json().total).toBe(0);
    await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
    const result = await service.refreshAll();
    expect(result.text).toMatch(/^stored [1-9]\d*, purged 0$/);
    expect(result).toMatchObject({ code: 'materials', values: { purged: 0 } });
    const stored = (await me.get(`/api/sites/${site._id}/materials`)).json();
    expect(stored.items.map((m: { title: string }) => m.title)).toContain(
      'City council approves new bike lanes downtown',
    );
    expect(stored.items.map((m: { title: string }) => m.title)).not.toContain('Old news');
  });

  test('outbound fetches refuse loopback unless the test setting allows it', async () => {
    const strict = await createTestApp();
    try {
      const u = await register(strict.app);
      const me = as(strict.app, u.access_token);
      const site = (
        await me.post('/api/sites', newSite({ parser: { rss_url: `${feedBase}/rss2-utf8.xml` } }))
      ).json();
      const res = (await me.get(`/api/sites/${site._id}/rss-test`)).json();
      expect(res.items).toEqual([]);
      expect(res.skipped[0].reason).toBe('blocked_address');
    } finally {
      await strict.close();
    }
  });
});
