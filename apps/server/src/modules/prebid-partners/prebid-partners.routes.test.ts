import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { entityLogs, prebidStats } from '../../db/schema/index.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

type Client = ReturnType<typeof as>;
let t: TestApp;
let admin: Client;
let ro: Client;
let d: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  ro = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
  d = as(t.app, (await register(t.app)).access_token);
});
afterAll(() => t.close());

let made = 0;
async function create(over: Record<string, unknown> = {}) {
  made += 1;
  const res = await admin.post('/api/prebidpartners', {
    prebidpartner: { name: `PBS ${made}`, ...over },
  });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json() as { _id: string; key: string; endpoint: string; name: string };
}

describe('prebid partners', () => {
  test('admins only: clients 403 everywhere, a readonly admin reads and never writes', async () => {
    const p = await create();
    for (const res of [
      await d.get('/api/prebidpartners'),
      await d.get(`/api/prebidpartners/${p._id}`),
      await d.post('/api/prebidpartners', { prebidpartner: { name: 'x' } }),
      await d.put(`/api/prebidpartners/${p._id}`, { prebidpartner: { name: 'x' } }),
      await d.del(`/api/prebidpartners/${p._id}`),
      await d.get(`/api/prebidpartners/${p._id}/stats`),
      await d.get(`/api/prebidpartners/${p._id}/v2/stats`),
      await d.get(`/api/prebidpartners/${p._id}/stats/export?format=csv`),
      await d.get(`/api/prebidpartners/${p._id}/v2/stats/export?format=xlsx`),
      await d.get(`/api/prebidpartners/${p._id}/logs`),
      await ro.post('/api/prebidpartners', { prebidpartner: { name: 'x' } }),
      await ro.put(`/api/prebidpartners/${p._id}`, { prebidpartner: { name: 'x' } }),
      await ro.del(`/api/prebidpartners/${p._id}`),
    ])
      expect(res.statusCode).toBe(403);
    // the key is a credential: a reader who may not change partners sees its first characters only
    const read = await ro.get(`/api/prebidpartners/${p._id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().key).toBe(`${p.key.slice(0, 4)}…`);
    expect(read.json().endpoint).not.toContain(p.key);
    const listed = (await ro.get('/api/prebidpartners?limit=100')).json().items;
    expect(JSON.stringify(listed)).not.toContain(p.key);
    // and the audit log never shows it, not even from an entry written before keys were left out of it
    await t.database.db.insert(entityLogs).values({
      entityType: 'prebidpartner',
      entityId: Number(p._id),
      action: 'update',
      changes: [
        { field: 'key', before: null, after: p.key },
        { field: 'name', before: 'a', after: 'b' },
      ],
    });
    const logs = await ro.get(`/api/prebidpartners/${p._id}/logs`);
    expect(logs.statusCode).toBe(200);
    expect(logs.body).not.toContain(p.key);
    expect(logs.json().items[0].changes).toEqual([{ field: 'name', before: 'a', after: 'b' }]);
    expect((await admin.get(`/api/prebidpartners/${p._id}`)).json().key).toBe(p.key);
  });

  test('CRUD with payload prebidpartner, a server-made key and endpoint, paged list, logs', async () => {
    const p = await create({ name: 'Paged A', bidder_code: 'adp' });
    expect(p.key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(p.endpoint).toBe(`http://localhost:8080/rtb/prebid/${p.key}`);
    await create({ name: 'Paged B' });
    const page = (await admin.get('/api/prebidpartners?q=paged&page=2&limit=1')).json();
    expect(page).toMatchObject({ total: 2, page: 2, limit: 1, items: [{ _id: p._id }] });
    const put = await admin.put(`/api/prebidpartners/${p._id}`, { prebidpartner: { status: 'inactive' } });
    expect(put.json()).toMatchObject({ status: 'inactive', key: p.key, bidder_code: 'adp' });
    const logs = (await admin.get(`/api/prebidpartners/${p._id}/logs`)).json();
    expect(logs.items.map((l: { action: string }) => l.action)).toEqual(['update', 'create']);
    expect(logs.items[0].changes).toEqual([{ field: 'status', before: 'active', after: 'inactive' }]);
    expect((await admin.del(`/api/prebidpartners/${p._id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/prebidpartners/${p._id}`)).statusCode).toBe(404);
    // the deleted partner's log stays readable: its last entry says who deleted it
    const afterDelete = (await admin.get(`/api/prebidpartners/${p._id}/logs`)).json();
    expect(afterDelete.items[0]).toMatchObject({ action: 'delete', user_name: expect.any(String) });
    expect((await admin.get('/api/prebidpartners/999999/logs')).statusCode).toBe(404);
  });

  test('validation and unknown ids', async () => {
    for (const body of [
      { name: '' },
      { name: 'x', bidder_code: 'bad code!' },
      { name: 'x', status: 'paused' },
      { name: 'x', key: 'mine' },
    ]) {
      const res = await admin.post('/api/prebidpartners', { prebidpartner: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await admin.post('/api/prebidpartners', { name: 'unwrapped' })).statusCode).toBe(422);
    for (const res of [
      await admin.get('/api/prebidpartners/999999'),
      await admin.put('/api/prebidpartners/999999', { prebidpartner: { name: 'x' } }),
      await admin.del('/api/prebidpartners/999999'),
      await admin.get('/api/prebidpartners/999999/stats'),
      await admin.get('/api/prebidpartners/999999/v2/stats'),
    ])
      expect(res.statusCode).toBe(404);
    expect((await admin.get('/api/prebidpartners?limit=501')).statusCode).toBe(422);
  });

  test('stats by date (zero-filled) and v2 by campaign, country and device, from the stats rows', async () => {
    const p = await create();
    const other = await create({ name: 'Other' });
    await t.database.db.insert(prebidStats).values([
      {
        hour: new Date('2026-02-02T10:00:00Z'),
        prebidPartnerId: Number(p._id),
        campaignId: 0,
        bannerId: 0,
        country: 'DE',
        device: 'desktop',
        requests: 10,
        bids: 4,
        wins: 2,
        impressions: 2,
        spent: 3_000n,
      },
      {
        hour: new Date('2026-02-03T10:00:00Z'),
        prebidPartnerId: Number(p._id),
        campaignId: 0,
        bannerId: 0,
        country: 'FR',
        device: 'mobile',
        requests: 5,
        bids: 1,
        wins: 0,
        impressions: 0,
        spent: 0n,
      },
      {
        hour: new Date('2026-02-02T10:00:00Z'),
        prebidPartnerId: Number(other._id),
        campaignId: 0,
        bannerId: 0,
        country: 'DE',
        device: 'desktop',
        requests: 99,
        bids: 9,
        wins: 9,
        impressions: 9,
        spent: 9_000n,
      },
    ]);
    const byDay = (
      await admin.get(`/api/prebidpartners/${p._id}/stats?from=2026-02-01&to=2026-02-03`)
    ).json();
    expect(byDay.rows.map((r: { key: string; requests: number }) => [r.key, r.requests])).toEqual([
      ['2026-02-03', 5],
      ['2026-02-02', 10],
      ['2026-02-01', 0],
    ]);
    expect(byDay.total).toMatchObject({
      requests: 15,
      bids: 5,
      wins: 2,
      impressions: 2,
      spent: 0.003,
      ecpm: 1.5,
    });
    const byCountry = (
      await admin.get(`/api/prebidpartners/${p._id}/v2/stats?group=country&from=2026-02-01&to=2026-02-03`)
    ).json();
    expect(byCountry.rows.map((r: { key: string }) => r.key)).toEqual(['DE', 'FR']);
    expect((await admin.get(`/api/prebidpartners/${p._id}/v2/stats?group=os`)).statusCode).toBe(422);
    expect(
      (await admin.get(`/api/prebidpartners/${p._id}/stats?from=2026-02-05&to=2026-02-01`)).statusCode,
    ).toBe(422);
  });
  test('a name is taken in any case: creating or renaming to it is a 422 on name', async () => {
    const p = await create({ name: 'Unique Prebid' });
    for (const res of [
      await admin.post('/api/prebidpartners', { prebidpartner: { name: 'UNIQUE prebid' } }),
      await admin.put(`/api/prebidpartners/${(await create())._id}`, {
        prebidpartner: { name: 'unique PREBID' },
      }),
    ]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual([
        { field: 'name', code: 'prebid_partner_name_taken', detail: expect.any(String) },
      ]);
    }
    // its own name, in another case, is no clash
    const same = await admin.put(`/api/prebidpartners/${p._id}`, {
      prebidpartner: { name: 'UNIQUE PREBID' },
    });
    expect(same.statusCode, same.body).toBe(200);
  });
});
