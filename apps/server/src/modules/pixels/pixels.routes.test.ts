import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { pixelVisitors } from '../../db/schema/index.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';
import { audiencesOf } from './pixels.audience.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function advertiser() {
  const u = await register(t.app);
  return { ...u, api: as(t.app, u.access_token) };
}

function cookieOf(res: { headers: Record<string, unknown> }): string | undefined {
  const raw = res.headers['set-cookie'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  return typeof first === 'string' ? first : undefined;
}

const visit = (pixelId: string, opts: { cookie?: string; u?: string; referer?: string } = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/px/${pixelId}.gif${opts.u ? `?u=${encodeURIComponent(opts.u)}` : ''}`,
    headers: {
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
      ...(opts.referer ? { referer: opts.referer } : {}),
    },
  });

test('an advertiser creates, reads, edits, lists and deletes a pixel; the answer carries its code', async () => {
  const a = await advertiser();
  const res = await a.api.post('/api/pixels', { pixel: { title: 'Checkout', all_pages: false } });
  expect(res.statusCode).toBe(201);
  const px = res.json();
  expect(px).toMatchObject({ title: 'Checkout', all_pages: false, user_id: a.user_id, visitors: 0 });
  expect(px.code).toContain(
    `<script async src="http://localhost:8080/pixel.js" data-pixel="${px._id}"></script>`,
  );
  expect(px.code).toContain(`<noscript><img src="http://localhost:8080/px/${px._id}.gif"`);

  expect((await a.api.get(`/api/pixels/${px._id}`)).json()).toEqual(px);
  const edited = await a.api.put(`/api/pixels/${px._id}`, { pixel: { title: 'All pages' } });
  expect(edited.statusCode).toBe(200);
  expect(edited.json()).toMatchObject({ title: 'All pages', all_pages: false });

  const list = await a.api.get(`/api/pixels?user_id=${a.user_id}`);
  expect(list.json()).toMatchObject({ total: 1, page: 1, limit: 20 });
  expect(list.json().items[0]._id).toBe(px._id);

  const me = await a.api.get('/api/auth/me');
  expect(me.json().account.owns.pixels).toBe(1);

  expect((await a.api.del(`/api/pixels/${px._id}`)).statusCode).toBe(204);
  expect((await a.api.get(`/api/pixels/${px._id}`)).statusCode).toBe(404);
  expect((await a.api.get('/api/auth/me')).json().account.owns.pixels).toBe(0);
});

test('a title is required', async () => {
  const a = await advertiser();
  const res = await a.api.post('/api/pixels', { pixel: { title: ' ' } });
  expect(res.statusCode).toBe(422);
  expect(res.json().errors[0].field).toBe('title');
});

test('another user sees nothing, a readonly user cannot write, an admin sees and filters all', async () => {
  const a = await advertiser();
  const b = await advertiser();
  const px = (await a.api.post('/api/pixels', { pixel: { title: 'A' } })).json();
  expect((await b.api.get(`/api/pixels/${px._id}`)).statusCode).toBe(404);
  expect((await b.api.put(`/api/pixels/${px._id}`, { pixel: { title: 'x' } })).statusCode).toBe(404);
  expect((await b.api.del(`/api/pixels/${px._id}`)).statusCode).toBe(404);
  expect((await b.api.get('/api/pixels')).json().total).toBe(0);
  expect((await b.api.get(`/api/pixels?user_id=${a.user_id}`)).json().total).toBe(0);
  // creating for someone else is creating on their account: not allowed
  expect((await b.api.post('/api/pixels', { pixel: { title: 'x', user_id: a.user_id } })).statusCode).toBe(
    422,
  );

  const ro = await userWithRole(t, 'defaultreadonly');
  const roApi = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
  expect((await roApi.post('/api/pixels', { pixel: { title: 'x' } })).statusCode).toBe(403);

  const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const all = (await admin.get('/api/pixels?limit=500')).json();
  expect(all.items.map((p: { _id: string }) => p._id)).toContain(px._id);
  const filtered = (await admin.get(`/api/pixels?user_id=${a.user_id}`)).json();
  expect(filtered.total).toBe(1);
  const forA = await admin.post('/api/pixels', { pixel: { title: 'By admin', user_id: a.user_id } });
  expect(forA.statusCode).toBe(201);
  expect(forA.json().user_id).toBe(a.user_id);

  const aro = await userWithRole(t, 'adminreadonly');
  const aroApi = as(t.app, (await login(t.app, aro.email, aro.password)).access_token);
  expect((await aroApi.get(`/api/pixels/${px._id}`)).statusCode).toBe(200);
  expect((await aroApi.put(`/api/pixels/${px._id}`, { pixel: { title: 'x' } })).statusCode).toBe(403);
  expect((await aroApi.del(`/api/pixels/${px._id}`)).statusCode).toBe(403);
});

test('the script is served to any page and reads its pixel id', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/pixel.js' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/javascript');
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  expect(res.body).toContain('data-pixel');
  expect(res.body).toContain("credentials:'include'");
  expect(res.body).toContain('/px/');
  // it must at least parse as a script
  expect(() => new Function(res.body)).not.toThrow();
});

test('without our cookie, the id the page keeps counts a returning visitor once', async () => {
  const a = await advertiser();
  const px = (await a.api.post('/api/pixels', { pixel: { title: 'No cookies' } })).json();
  const pageId = 'Page_kept-id-0123456789';
  const first = await t.app.inject({
    method: 'GET',
    url: `/px/${px._id}.gif?u=https%3A%2F%2Fa.example%2F&v=${pageId}`,
  });
  expect(cookieOf(first)).toContain(`vid=${pageId};`);
  await t.app.inject({ method: 'GET', url: `/px/${px._id}.gif?v=${pageId}` });
  // our cookie wins over the page's id: it is what ad requests carry
  await t.app.inject({
    method: 'GET',
    url: `/px/${px._id}.gif?v=${pageId}`,
    headers: { cookie: 'vid=Cookie_id-0123456789abc' },
  });
  // a malformed id is ignored
  const bad = await t.app.inject({ method: 'GET', url: `/px/${px._id}.gif?v=${encodeURIComponent('<x>')}` });
  expect(cookieOf(bad)).not.toContain('<x>');
  const rows = await t.database.db
    .select()
    .from(pixelVisitors)
    .where(eq(pixelVisitors.pixelId, Number(px._id)));
  const byId = Object.fromEntries(rows.map((r) => [r.visitorId, r]));
  expect(byId[pageId]).toMatchObject({ visits: 2, lastUrl: 'https://a.example/' });
  expect(byId['Cookie_id-0123456789abc']).toMatchObject({ visits: 1 });
  expect(rows).toHaveLength(3);
});

test('a visit sets the visitor cookie and joins the audience; the same visitor is counted once', async () => {
  const a = await advertiser();
  const px = (await a.api.post('/api/pixels', { pixel: { title: 'Site' } })).json();

  const first = await visit(px._id, { u: 'https://shop.example/product/1' });
  expect(first.statusCode).toBe(200);
  expect(first.headers['content-type']).toBe('image/gif');
  expect(first.headers['cache-control']).toContain('no-store');
  expect(first.headers['cross-origin-resource-policy']).toBe('cross-origin');
  expect(first.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
  const cookie = cookieOf(first)!;
  expect(cookie).toMatch(/^vid=[A-Za-z0-9_-]{16,64}; /);
  expect(cookie).toContain('HttpOnly');
  expect(cookie).toContain('Path=/');
  expect(cookie).toContain(`Max-Age=${365 * 24 * 3600}`);
  // PUBLIC_URL is http here: SameSite=None would be refused without Secure
  expect(cookie).toContain('SameSite=Lax');
  expect(cookie).not.toContain('Secure');
  const vid = cookie.split(';')[0]!.split('=')[1]!;

  const again = await visit(px._id, {
    cookie: `other=1; vid=${vid}`,
    referer: 'https://shop.example/cart',
  });
  expect(cookieOf(again)).toContain(`vid=${vid};`);
  await visit(px._id, { u: 'https://shop.example/other' }); // a second visitor, without the cookie

  const [row] = await t.database.db.select().from(pixelVisitors).where(eq(pixelVisitors.visitorId, vid));
  expect(row).toMatchObject({ pixelId: Number(px._id), visits: 2, lastUrl: 'https://shop.example/cart' });
  expect((await a.api.get(`/api/pixels/${px._id}`)).json().visitors).toBe(2);
  expect(await audiencesOf(t.database.db, vid)).toEqual([px._id]);

  // the audience cookie ad requests read: this pixel's id
  const aud = (first.headers['set-cookie'] as string[])[1];
  expect(aud).toMatch(new RegExp(`^aud=${px._id}; `));

  const other = (await a.api.post('/api/pixels', { pixel: { title: 'Blog' } })).json();
  const second = await visit(other._id, { cookie: `vid=${vid}; aud=${px._id}` });
  // most recent first; a malformed aud cookie is ignored whole
  expect((second.headers['set-cookie'] as string[])[1]).toMatch(
    new RegExp(`^aud=${other._id}\\.${px._id}; `),
  );
  const bad = await visit(other._id, { cookie: `vid=${vid}; aud=1.<x>` });
  expect((bad.headers['set-cookie'] as string[])[1]).toMatch(new RegExp(`^aud=${other._id}; `));
  expect((await audiencesOf(t.database.db, vid)).sort()).toEqual([px._id, other._id].sort());
  expect(await audiencesOf(t.database.db, 'nobody-visited-here')).toEqual([]);
});

test('long page addresses are cut; an unknown pixel or a bad address still answers the image', async () => {
  const a = await advertiser();
  const px = (await a.api.post('/api/pixels', { pixel: { title: 'Long' } })).json();
  const long = `https://shop.example/?q=${'x'.repeat(3000)}`;
  const res = await visit(px._id, { u: long });
  const vid = cookieOf(res)!.split(';')[0]!.split('=')[1]!;
  const [row] = await t.database.db.select().from(pixelVisitors).where(eq(pixelVisitors.visitorId, vid));
  expect(row!.lastUrl).toHaveLength(2000);

  for (const url of ['/px/999999999.gif', '/px/abc.gif', '/px/1.png', '/px/1.gif?u=a&u=b']) {
    const r = await t.app.inject({ method: 'GET', url });
    expect(r.statusCode, url).toBe(200);
    expect(r.headers['content-type'], url).toBe('image/gif');
  }
  const unknown = await visit('999999999', { u: 'https://x.example' });
  expect(cookieOf(unknown)).toBeUndefined();
  const rows = await t.database.db.select().from(pixelVisitors).where(eq(pixelVisitors.pixelId, 999999999));
  expect(rows).toHaveLength(0);
});

test('with an https PUBLIC_URL the cookie works on other sites (SameSite=None; Secure)', async () => {
  const s = await createTestApp({ PUBLIC_URL: 'https://ads.example' });
  try {
    const u = await register(s.app);
    const px = (await as(s.app, u.access_token).post('/api/pixels', { pixel: { title: 'S' } })).json();
    expect(px.code).toContain('https://ads.example/pixel.js');
    const res = await s.app.inject({ method: 'GET', url: `/px/${px._id}.gif` });
    expect(cookieOf(res)).toContain('SameSite=None; Secure');
  } finally {
    await s.close();
  }
});
