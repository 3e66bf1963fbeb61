import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { materials } from '../../db/schema/index.ts';
import { as, createTestApp, register, type TestApp } from '../../test/test-app.ts';

// A local server that plays the Graph API: page 111111 grants publishing to token "good-token".
let graph: Server;
const posts: { page: string; message: string; link: string }[] = [];
let t: TestApp;

beforeAll(async () => {
  graph = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://graph.local');
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const [, page, edge] = url.pathname.split('/');
      if (req.method === 'GET' && !edge) {
        const token = url.searchParams.get('access_token');
        if (token === 'good-token')
          return json(200, { id: page, name: 'My Page', tasks: ['ANALYZE', 'ADVERTISE', 'CREATE_CONTENT'] });
        if (token === 'read-only-token') return json(200, { id: page, name: 'My Page', tasks: ['ANALYZE'] });
        return json(400, { error: { message: 'Invalid OAuth access token.' } });
      }
      if (req.method === 'POST' && edge === 'feed') {
        const form = new URLSearchParams(body);
        if (form.get('access_token') !== 'good-token') return json(403, { error: { message: 'no rights' } });
        if (form.get('link')?.includes('refused'))
          return json(400, { error: { message: 'The link could not be shared', code: 100 } });
        posts.push({ page: page ?? '', message: form.get('message') ?? '', link: form.get('link') ?? '' });
        return json(200, { id: `${page}_${posts.length}` });
      }
      json(404, {});
    });
  });
  await new Promise<void>((r) => graph.listen(0, '127.0.0.1', r));
  t = await createTestApp({
    FACEBOOK_GRAPH_URL: `http://127.0.0.1:${(graph.address() as AddressInfo).port}`,
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => graph.close(r));
});

async function publisherWithArticles() {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'S', domain: `social-${u.user_id}.example`, category: 'news' },
    })
  ).json();
  const day = 86_400_000;
  await t.database.db.insert(materials).values([
    {
      siteId: Number(site._id),
      url: 'https://s.example/new',
      title: 'Newest',
      description: 'Fresh news',
      category: 'World',
      publishedAt: new Date(Date.now() - day / 2),
      expiresAt: new Date(Date.now() + 30 * day),
    },
    {
      siteId: Number(site._id),
      url: 'https://s.example/mid',
      title: 'Middle',
      description: 'Yesterday',
      category: 'Sport',
      publishedAt: new Date(Date.now() - 1.5 * day),
      expiresAt: new Date(Date.now() + 30 * day),
    },
    {
      siteId: Number(site._id),
      url: 'https://s.example/gossip',
      title: 'Gossip',
      description: 'Celebs',
      category: 'Gossip',
      publishedAt: new Date(Date.now() - day),
      expiresAt: new Date(Date.now() + 30 * day),
    },
    {
      siteId: Number(site._id),
      url: 'https://s.example/old',
      title: 'Too old',
      description: 'Last week',
      category: 'World',
      publishedAt: new Date(Date.now() - 7 * day),
      expiresAt: new Date(Date.now() + 30 * day),
    },
  ]);
  return { ...u, api, site };
}

test('autopublish needs a successful rights check; then the job posts fresh articles in date order, once', async () => {
  const p = await publisherWithArticles();
  const create = (extra: Record<string, unknown>) =>
    p.api.post('/api/socialgroups', {
      socialgroup: {
        title: 'FB',
        site_id: p.site._id,
        facebook_page_id: '111111',
        access_token: 'good-token',
        ...extra,
      },
    });
  const early = await create({ autopublish: true });
  expect(early.statusCode).toBe(422);
  expect(early.json().errors[0]).toMatchObject({ field: 'autopublish', code: 'facebook_no_rights_check' });

  const group = (
    await create({
      valid_days: 2,
      category_blacklist: 'Gossip,Ads',
      date_order: 'asc',
      use_description: true,
    })
  ).json();
  expect(group).toMatchObject({ has_token: true, autopublish: false, rights_checked_at: null });
  expect(JSON.stringify(group)).not.toContain('good-token');
  expect(
    (await p.api.put(`/api/socialgroups/${group._id}`, { socialgroup: { autopublish: true } })).statusCode,
  ).toBe(422);
  const checked = await p.api.post(`/api/socialgroups/${group._id}/check-rights`);
  expect(checked.statusCode).toBe(200);
  expect(checked.json().rights_checked_at).not.toBeNull();
  expect(
    (await p.api.put(`/api/socialgroups/${group._id}`, { socialgroup: { autopublish: true } })).json()
      .autopublish,
  ).toBe(true);

  posts.length = 0;
  expect(await t.app.inject({ method: 'GET', url: '/api/health' }).then((r) => r.statusCode)).toBe(200);
  const { createSocialPublisher } = await import('./social.service.ts');
  const { createSocialRepository } = await import('./social.repository.ts');
  const { facebookClient } = await import('./facebook.ts');
  const publisher = createSocialPublisher(
    createSocialRepository(t.database.db),
    facebookClient(t.config.facebookGraphUrl),
    t.app.log,
  );
  expect(await publisher.publishAll()).toMatchObject({
    code: 'social',
    text: 'posted 2',
    values: { posted: 2 },
  });
  expect(posts).toEqual([
    { page: '111111', message: 'Middle\n\nYesterday', link: 'https://s.example/mid' },
    { page: '111111', message: 'Newest\n\nFresh news', link: 'https://s.example/new' },
  ]);
  expect((await publisher.publishAll()).text).toBe('posted 0');
  expect((await p.api.get(`/api/socialgroups/${group._id}`)).json().posts_count).toBe(2);
});

test('a page without publishing rights gets "no rights to publish"; changing the page needs a new check', async () => {
  const p = await publisherWithArticles();
  const group = (
    await p.api.post('/api/socialgroups', {
      socialgroup: {
        title: 'FB',
        site_id: p.site._id,
        facebook_page_id: '222222',
        access_token: 'read-only-token',
      },
    })
  ).json();
  const res = await p.api.post(`/api/socialgroups/${group._id}/check-rights`);
  expect(res.statusCode).toBe(422);
  expect(res.json().errors[0]).toMatchObject({
    code: 'facebook_no_rights',
    detail: 'No rights to publish on this Facebook page',
  });
  await p.api.put(`/api/socialgroups/${group._id}`, { socialgroup: { access_token: 'good-token' } });
  await p.api.post(`/api/socialgroups/${group._id}/check-rights`);
  await p.api.put(`/api/socialgroups/${group._id}`, { socialgroup: { autopublish: true } });
  const moved = (
    await p.api.put(`/api/socialgroups/${group._id}`, { socialgroup: { facebook_page_id: '333333' } })
  ).json();
  expect(moved).toMatchObject({ autopublish: false, rights_checked_at: null });
});

test('validation: a site must be chosen; the category blacklist has no spaces', async () => {
  const p = await publisherWithArticles();
  const res = await p.api.post('/api/socialgroups', {
    socialgroup: { title: 'FB', facebook_page_id: '111111', category_blacklist: 'News, Sport' },
  });
  expect(res.statusCode).toBe(422);
  const byField = Object.fromEntries(
    res.json().errors.map((e: { field: string; detail: string }) => [e.field, e.detail]),
  );
  expect(Object.keys(byField).sort()).toEqual(['category_blacklist', 'site_id']);
  expect(byField.category_blacklist).toContain('comma-separated');
  const other = await register(t.app);
  expect(
    (
      await as(t.app, other.access_token).post('/api/socialgroups', {
        socialgroup: { title: 'FB', site_id: p.site._id, facebook_page_id: '111111' },
      })
    ).statusCode,
  ).toBe(422);
});

test('blacklisted categories never crowd out the rest; an article Facebook refuses is skipped, not retried', async () => {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'S', domain: `crowd-${u.user_id}.example`, category: 'news' },
    })
  ).json();
  const hour = 3_600_000;
  const article = (slug: string, category: string, hoursAgo: number) => ({
    siteId: Number(site._id),
    url: `https://crowd.example/${slug}`,
    title: slug,
    description: '',
    category,
    publishedAt: new Date(Date.now() - hoursAgo * hour),
    expiresAt: new Date(Date.now() + 30 * 24 * hour),
  });
  await t.database.db
    .insert(materials)
    .values([
      ...Array.from({ length: 25 }, (_, i) => article(`gossip-${i}`, 'Gossip', 6)),
      article('refused-story', 'World', 8),
      article('world-a', 'World', 10),
      article('world-b', 'World', 12),
    ]);
  const group = (
    await api.post('/api/socialgroups', {
      socialgroup: {
        title: 'FB',
        site_id: site._id,
        facebook_page_id: '222222',
        access_token: 'good-token',
        category_blacklist: 'gossip',
        date_order: 'desc',
      },
    })
  ).json();
  await api.post(`/api/socialgroups/${group._id}/check-rights`);
  await api.put(`/api/socialgroups/${group._id}`, { socialgroup: { autopublish: true } });
  posts.length = 0;
  const first = await api.post(`/api/socialgroups/${group._id}/publish`);
  expect(first.json()).toEqual({ posted: 2, refused: 1 });
  expect(posts.map((p) => p.link)).toEqual([
    'https://crowd.example/world-a',
    'https://crowd.example/world-b',
  ]);
  expect((await api.post(`/api/socialgroups/${group._id}/publish`)).json()).toEqual({
    posted: 0,
    refused: 0,
  });
  expect((await api.get(`/api/socialgroups/${group._id}`)).json().posts_count).toBe(2);
});
