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

let t: TestApp;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t?.close());

describe('/api/rtbpartners (admins only)', () => {
  test('create, read, list, edit, new key, delete', async () => {
    const created = await admin.post('/api/rtbpartners', {
      rtbpartner: { name: 'Example SSP', max_request_ms: 150, daily_limit: 25.5, currency: 'EUR' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const p = created.json();
    expect(p).toMatchObject({
      name: 'Example SSP',
      status: 'active',
      max_request_ms: 150,
      daily_limit: 25.5,
      currency: 'EUR',
    });
    expect(p.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(p.endpoint).toBe(`http://localhost:8080/rtb/openrtb2/${p.key}`);
    expect((await admin.get(`/api/rtbpartners/${p._id}`)).json()).toEqual(p);
    const list = (await admin.get('/api/rtbpartners?q=example')).json();
    expect(list).toMatchObject({ total: 1, page: 1 });
    expect((await admin.get('/api/rtbpartners?q=nothing')).json().total).toBe(0);

    const edited = await admin.put(`/api/rtbpartners/${p._id}`, {
      rtbpartner: { status: 'inactive', daily_limit: null },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ status: 'inactive', daily_limit: null, max_request_ms: 150 });

    const rekeyed = (await admin.post(`/api/rtbpartners/${p._id}/key`)).json();
    expect(rekeyed.key).not.toBe(p.key);
    // the old key no longer names a partner
    const old = await t.app.inject({ method: 'POST', url: `/rtb/openrtb2/${p.key}`, payload: {} });
    expect(old.statusCode).toBe(404);
    // the new one names it: inactive, so 403
    const renamed = await t.app.inject({ method: 'POST', url: `/rtb/openrtb2/${rekeyed.key}`, payload: {} });
    expect(renamed.statusCode).toBe(403);

    expect((await admin.del(`/api/rtbpartners/${p._id}`)).statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'POST', url: `/rtb/openrtb2/${rekeyed.key}`, payload: {} })).statusCode,
    ).toBe(404);
    expect((await admin.get(`/api/rtbpartners/${p._id}`)).statusCode).toBe(404);
    expect((await admin.del(`/api/rtbpartners/${p._id}`)).statusCode).toBe(404);
  });

  test('checked fields: 422 with the field, duplicate names refused', async () => {
    for (const bad of [
      { name: '' },
      { name: 'A', max_request_ms: 5 },
      { name: 'A', max_request_ms: 60_000 },
      { name: 'A', daily_limit: -1 },
      { name: 'A', currency: 'euro' },
      // well formed, but not one of our currencies
      { name: 'A', currency: 'XYZ' },
      { name: 'A', key: 'mine' },
    ]) {
      const res = await admin.post('/api/rtbpartners', { rtbpartner: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
    }
    expect((await admin.post('/api/rtbpartners', { rtbpartner: { name: 'Twin' } })).statusCode).toBe(201);
    // the same name in another case is taken too
    for (const name of ['Twin', 'TWIN']) {
      const twin = await admin.post('/api/rtbpartners', { rtbpartner: { name } });
      expect(twin.statusCode, name).toBe(422);
      expect(twin.json().errors[0]).toMatchObject({ field: 'name', code: 'rtb_partner_name_taken' });
    }
    const xyz = await admin.put(
      `/api/rtbpartners/${(await admin.get('/api/rtbpartners')).json().items[0]._id}`,
      {
        rtbpartner: { currency: 'XYZ' },
      },
    );
    expect(xyz.statusCode).toBe(422);
    expect(xyz.json().errors[0]).toMatchObject({ field: 'currency', code: 'invalid_currency' });
    expect((await admin.put('/api/rtbpartners/999999', { rtbpartner: { name: 'X' } })).statusCode).toBe(404);
    expect((await admin.get('/api/rtbpartners/abc')).statusCode).toBe(404);
  });

  test('no other role may read or change partners', async () => {
    const p = (await admin.post('/api/rtbpartners', { rtbpartner: { name: 'Guarded' } })).json();
    const readonlyAdmin = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await readonlyAdmin.get('/api/rtbpartners')).statusCode).toBe(200);
    // the key is a credential: a read-only admin sees its first characters only, in the list and the detail
    const seen = (await readonlyAdmin.get(`/api/rtbpartners/${p._id}`)).json();
    expect(seen.key).toBe(`${p.key.slice(0, 4)}…`);
    expect(seen.endpoint).not.toContain(p.key);
    const listed = (await readonlyAdmin.get('/api/rtbpartners')).json().items;
    expect(listed.map((x: { key: string }) => x.key).join()).not.toContain(p.key);
    expect((await admin.get(`/api/rtbpartners/${p._id}`)).json().key).toBe(p.key);
    expect((await readonlyAdmin.post('/api/rtbpartners', { rtbpartner: { name: 'R' } })).statusCode).toBe(
      403,
    );
    expect(
      (await readonlyAdmin.put(`/api/rtbpartners/${p._id}`, { rtbpartner: { name: 'R' } })).statusCode,
    ).toBe(403);
    expect((await readonlyAdmin.del(`/api/rtbpartners/${p._id}`)).statusCode).toBe(403);
    for (const role of ['default', 'agency', 'defaultreadonly']) {
      const u = as(t.app, (await userWithRole(t, role)).access_token);
      expect((await u.get('/api/rtbpartners')).statusCode, role).toBe(403);
      expect((await u.get(`/api/rtbpartners/${p._id}`)).statusCode, role).toBe(403);
      expect((await u.post('/api/rtbpartners', { rtbpartner: { name: 'U' } })).statusCode, role).toBe(403);
      expect((await u.post(`/api/rtbpartners/${p._id}/key`)).statusCode, role).toBe(403);
      expect((await u.del(`/api/rtbpartners/${p._id}`)).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/rtbpartners' })).statusCode).toBe(401);
  });
});

describe('/api/notifications', () => {
  test('signed-in users only; a user without notifications gets an empty page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    const u = as(t.app, (await register(t.app)).access_token);
    expect((await u.get('/api/notifications')).json()).toMatchObject({ items: [], total: 0 });
    expect((await admin.get('/api/notifications?type=burl&limit=5')).json()).toMatchObject({ limit: 5 });
    expect((await admin.get('/api/notifications?limit=9999')).statusCode).toBe(422);
  });
});
