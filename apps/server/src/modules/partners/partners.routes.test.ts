import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

type Client = ReturnType<typeof as>;
let t: TestApp;
let dataDir: string;
let admin: Client;
let adminToken: string;
let ro: Client;
let agencyUser: Awaited<ReturnType<typeof register>>;
let agencyClient: Client;
let plain: Awaited<ReturnType<typeof register>>;
let d: Client;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'adp-partners-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).access_token;
  admin = as(t.app, adminToken);
  ro = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
  agencyUser = await userWithRole(t, 'agency');
  agencyClient = as(t.app, agencyUser.access_token);
  plain = await register(t.app);
  d = as(t.app, plain.access_token);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const body = (over: Record<string, unknown> = {}) => ({
  partner: { title: 'North Group', user_id: agencyUser.user_id, agency_rate: 10, ...over },
});

async function create(over: Record<string, unknown> = {}) {
  const res = await admin.post('/api/partners', body(over));
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json() as { _id: string; title: string; name: string };
}

function upload(id: string, bytes: Buffer) {
  const boundary = '----adpPartnerBoundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="l.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/partners/${id}/logo`,
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${adminToken}`,
    },
  });
}
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    '0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d49444154089963f8cfc0f01f00050001ffabce36890000000049454e44ae426082',
    'hex',
  ),
]);

describe('permissions: admins only', () => {
  test('clients and agencies get 403 on every call; a readonly admin reads but never writes', async () => {
    const p = await create();
    for (const c of [d, agencyClient]) {
      expect((await c.get('/api/partners')).statusCode).toBe(403);
      expect((await c.get(`/api/partners/${p._id}`)).statusCode).toBe(403);
      expect((await c.post('/api/partners', body())).statusCode).toBe(403);
      expect((await c.put(`/api/partners/${p._id}`, { partner: { title: 'x' } })).statusCode).toBe(403);
      expect((await c.del(`/api/partners/${p._id}`)).statusCode).toBe(403);
      expect((await c.post(`/api/partners/${p._id}/preview`, {})).statusCode).toBe(403);
      expect((await c.get(`/api/partners/${p._id}/logs`)).statusCode).toBe(403);
      expect((await c.get(`/api/partners/${p._id}/stats/revenue`)).statusCode).toBe(403);
      expect((await c.get(`/api/partners/${p._id}/stats/revenue/export?format=csv`)).statusCode).toBe(403);
    }
    expect((await ro.get(`/api/partners/${p._id}`)).statusCode).toBe(200);
    expect((await ro.get(`/api/partners/${p._id}/logs`)).statusCode).toBe(200);
    expect((await ro.put(`/api/partners/${p._id}`, { partner: { title: 'x' } })).statusCode).toBe(403);
    expect((await ro.post('/api/partners', body())).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/partners' })).statusCode).toBe(401);
  });
});

describe('CRUD', () => {
  test('create, read, page, search, update and delete, with payload `partner`', async () => {
    const p = await create({ title: 'Crud Group', phoenix_rate: 2.5, campaign_rate: 3, showamount: false });
    expect(p).toMatchObject({
      title: 'Crud Group',
      name: 'Crud Group',
      user_id: agencyUser.user_id,
      agency_rate: 10,
      phoenix_rate: 2.5,
      campaign_rate: 3,
      showlogo: true,
      showamount: false,
      logo: null,
      members_count: 0,
    });
    const list = await admin.get('/api/partners?q=crud&page=1&limit=5');
    expect(list.json()).toMatchObject({ total: 1, page: 1, limit: 5, items: [{ _id: p._id }] });
    const put = await admin.put(`/api/partners/${p._id}`, {
      partner: { agency_rate: 12.5, showlogo: false },
    });
    expect(put.json()).toMatchObject({ agency_rate: 12.5, showlogo: false, title: 'Crud Group' });
    expect((await admin.del(`/api/partners/${p._id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/partners/${p._id}`)).statusCode).toBe(404);
  });

  test('validation: title, rates 0..100, unknown fields; the owner must be an agency user', async () => {
    const bad = async (over: Record<string, unknown>, field: string) => {
      const res = await admin.post('/api/partners', body(over));
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    await bad({ title: '' }, 'title');
    await bad({ agency_rate: 101 }, 'agency_rate');
    await bad({ campaign_rate: -1 }, 'campaign_rate');
    await bad({ user_id: 'abc' }, 'user_id');
    await bad({ user_id: plain.user_id }, 'user_id');
    await bad({ user_id: '999999' }, 'user_id');
    const p = await create();
    expect((await admin.put(`/api/partners/${p._id}`, { partner: { phoenix_rate: 200 } })).statusCode).toBe(
      422,
    );
    expect((await admin.put(`/api/partners/${p._id}`, { partner: { logo: 'x' } })).statusCode).toBe(422);
  });

  test('unknown ids are 404 on every call', async () => {
    for (const res of [
      await admin.get('/api/partners/999999'),
      await admin.put('/api/partners/999999', { partner: { title: 'x' } }),
      await admin.del('/api/partners/999999'),
      await admin.post('/api/partners/999999/preview', {}),
      await admin.get('/api/partners/999999/logs'),
      await admin.get('/api/partners/999999/stats/revenue'),
      await upload('999999', PNG),
    ])
      expect(res.statusCode).toBe(404);
  });
});

describe('logo, preview, logs, stats', () => {
  test('a png logo is stored; a non-image is a 422 on file', async () => {
    const p = await create();
    const res = await upload(p._id, PNG);
    expect(res.statusCode).toBe(200);
    expect(res.json().logo).toMatch(new RegExp(`^/uploads/agencies/${p._id}-[0-9a-f]{16}\\.png$`));
    expect((await t.app.inject({ method: 'GET', url: res.json().logo })).statusCode).toBe(200);
    const bad = await upload(p._id, Buffer.from('not an image'));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].field).toBe('file');
    // only its first bytes are an image: what is stored is an image we wrote, so this is refused
    const disguised = await upload(p._id, Buffer.from('GIF89a<script>alert(1)</script>'));
    expect(disguised.statusCode).toBe(422);
    expect(disguised.json().errors[0]).toMatchObject({ field: 'file', code: 'invalid_file' });
    // a body cut short (no closing boundary) or a multipart type without its boundary: 422, never a 500
    for (const [type, payload] of [
      [
        'multipart/form-data; boundary=xyz',
        Buffer.concat([
          Buffer.from('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'),
          PNG.subarray(0, 8),
        ]),
      ],
      ['multipart/form-data', PNG],
    ] as const) {
      const cut = await t.app.inject({
        method: 'POST',
        url: `/api/partners/${p._id}/logo`,
        payload,
        headers: { 'content-type': type, authorization: `Bearer ${adminToken}` },
      });
      expect(cut.statusCode, cut.body).toBe(422);
      expect(cut.json().errors[0]).toMatchObject({ field: 'file', code: 'invalid_file' });
    }
  });

  test('preview: the logo and the members’ balances as the display switches say, drafts included', async () => {
    const p = await create({ showamount: true });
    await upload(p._id, PNG);
    const member = await agencyClient.post(`/api/agencies/${p._id}/addmember`, {
      member: { name: 'Mia Member', email: `mia-${Date.now()}@test.local`, password: 'member-password-1' },
    });
    expect(member.statusCode).toBe(201);
    const shown = (await admin.post(`/api/partners/${p._id}/preview`, {})).json();
    expect(shown.logo).toMatch(/^\/uploads\//);
    expect(shown.members).toEqual([{ _id: member.json()._id, name: 'Mia Member', balance: 0 }]);
    const draft = await admin.post(`/api/partners/${p._id}/preview`, {
      partner: { showlogo: false, showamount: false, title: 'Draft' },
    });
    expect(draft.json()).toMatchObject({ title: 'Draft', logo: null, showlogo: false, showamount: false });
    expect(draft.json().members[0].balance).toBeNull();
    expect(
      (await admin.post(`/api/partners/${p._id}/preview`, { partner: { showlogo: 'x' } })).statusCode,
    ).toBe(422);
    // the group deleted, its member is in no agency: a default user again, as when an agency is deleted
    expect((await admin.del(`/api/partners/${p._id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/users/${member.json()._id}`)).json().role).toBe('default');
  });

  test('logs: create, each update with its changed fields, the logo; an unchanged save logs nothing', async () => {
    const p = await create({ title: 'Logged' });
    await admin.put(`/api/partners/${p._id}`, { partner: { agency_rate: 20, title: 'Logged 2' } });
    await admin.put(`/api/partners/${p._id}`, { partner: { agency_rate: 20 } });
    await upload(p._id, PNG);
    const logs = (await admin.get(`/api/partners/${p._id}/logs?limit=10`)).json();
    expect(logs.total).toBe(3);
    expect(logs.items.map((l: { action: string }) => l.action)).toEqual(['update', 'update', 'create']);
    expect(logs.items[0].changes.map((c: { field: string }) => c.field)).toEqual(['logo']);
    expect(logs.items[1].changes).toEqual([
      { field: 'title', before: 'Logged', after: 'Logged 2' },
      { field: 'agency_rate', before: 10, after: 20 },
    ]);
    expect(logs.items[2]).toMatchObject({ user_name: expect.any(String), action: 'create' });
  });

  test('one record, one history: rates changed here are revenue terms, changes through /api/agencies are in the group log', async () => {
    const p = await create({ title: 'Terms', agency_rate: 10.5 });
    await admin.put(`/api/partners/${p._id}`, { partner: { phoenix_rate: 7 } });
    const terms = (
      await admin.get(`/api/revenue-terms-log?entity_type=agency&entity_id=${p._id}&limit=10`)
    ).json();
    expect(
      terms.items.map((i: { field: string; before: unknown; after: unknown }) => [
        i.field,
        i.before,
        i.after,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['agency_rate', 0, 10.5],
        ['phoenix_rate', 0, 7],
      ]),
    );
    await admin.put(`/api/agencies/${p._id}`, { agency: { agency_rate: 12, title: 'Terms renamed' } });
    const logs = (await admin.get(`/api/partners/${p._id}/logs?limit=10`)).json();
    expect(logs.items[0]).toMatchObject({ action: 'update' });
    expect(logs.items[0].changes).toEqual(
      expect.arrayContaining([
        { field: 'title', before: 'Terms', after: 'Terms renamed' },
        { field: 'agency_rate', before: 10.5, after: 12 },
      ]),
    );
    // deleted as an agency, it is deleted as a group: the log says so and stays readable
    expect((await admin.del(`/api/agencies/${p._id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/partners/${p._id}`)).statusCode).toBe(404);
    const after = (await admin.get(`/api/partners/${p._id}/logs?limit=10`)).json();
    expect(after.items[0]).toMatchObject({ action: 'delete' });
  });

  test('stats: the group’s sites by day and by breakdown; an unknown breakdown is 404', async () => {
    const p = await create();
    const res = await admin.get(`/api/partners/${p._id}/stats/revenue?from=2026-01-01&to=2026-01-03`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: { clicks: 0 } });
    expect((await admin.get(`/api/partners/${p._id}/stats/country`)).statusCode).toBe(200);
    expect((await admin.get(`/api/partners/${p._id}/stats/nope`)).statusCode).toBe(404);
    // the same as a file, every day of the range and the total
    const file = await admin.get(
      `/api/partners/${p._id}/stats/revenue/export?from=2026-01-01&to=2026-01-03&format=csv`,
    );
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="stats-group-${p._id}-day-2026-01-01-2026-01-03.csv"`,
    );
    const lines = file.body.trim().split('\n');
    expect(lines[0]).toMatch(/^day,/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([
      ...res.json().rows.map((r: { key: string }) => r.key),
      'total',
    ]);
    const dsp = await admin.get(`/api/partners/${p._id}/stats/country/export?source=dsp&format=xlsx`);
    expect(dsp.statusCode).toBe(200);
    expect(dsp.headers['content-disposition']).toMatch(/stats-group-\d+-exchange-country-/);
    expect((await admin.get(`/api/partners/999999/stats/revenue/export?format=csv`)).statusCode).toBe(404);
  });
});
