import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { ADMIN, createTestApp, login, register, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, token: string) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

test('a user reads its own account; another user gets 404, the admin gets it', async () => {
  const a = await register(t.app);
  const b = await register(t.app);
  const own = await get(`/api/users/${a.user_id}`, a.access_token);
  expect(own.statusCode).toBe(200);
  expect(own.json()).toMatchObject({
    _id: a.user_id,
    email: a.email,
    role: 'default',
    balance: 0,
    currency: 'USD',
  });
  expect((await get(`/api/users/${a.user_id}`, b.access_token)).statusCode).toBe(404);
  const admin = await login(t.app, ADMIN.email, ADMIN.password);
  expect((await get(`/api/users/${a.user_id}`, admin.access_token)).statusCode).toBe(200);
  expect((await get('/api/users/999999', admin.access_token)).statusCode).toBe(404);
});

test('the user list is paged; a client sees only itself, the admin sees everyone', async () => {
  const a = await register(t.app);
  await register(t.app);
  const mine = await get('/api/users?page=1&limit=500', a.access_token);
  expect(mine.statusCode).toBe(200);
  expect(mine.json()).toMatchObject({ total: 1, page: 1, limit: 500, items: [{ _id: a.user_id }] });
  const admin = await login(t.app, ADMIN.email, ADMIN.password);
  const all = await get('/api/users?limit=2', admin.access_token);
  expect(all.json().items).toHaveLength(2);
  expect(all.json().total).toBeGreaterThanOrEqual(3);
  expect((await get('/api/users?limit=501', admin.access_token)).statusCode).toBe(422);
});

test('a dummy user has no rights: 403 on lists, 404 on records', async () => {
  const d = await register(t.app);
  await t.database.db
    .update(users)
    .set({ role: 'dummy' })
    .where(eq(users.id, Number(d.user_id)));
  expect((await get('/api/users', d.access_token)).statusCode).toBe(403);
  expect((await get(`/api/users/${d.user_id}`, d.access_token)).statusCode).toBe(404);
  const me = await get('/api/auth/me', d.access_token);
  expect(me.json().ability).toEqual([{ action: 'read', subject: 'Auth' }]);
});

test('a role change takes effect on the next request, without a new token', async () => {
  const u = await register(t.app);
  await t.database.db
    .update(users)
    .set({ role: 'admin' })
    .where(eq(users.id, Number(u.user_id)));
  const all = await get('/api/users', u.access_token);
  expect(all.json().total).toBeGreaterThan(1);
});

test('a malformed id names nothing: 404, as an unknown id (DESIGN.md "Errors")', async () => {
  const u = await register(t.app);
  for (const id of ['abc', '1.5', '-1', '99999999999999999999999']) {
    const res = await get(`/api/users/${id}`, u.access_token);
    expect(res.statusCode, id).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'Data not found.' });
  }
});
