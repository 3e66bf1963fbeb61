import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publisherWithWidget } from '../../delivery/delivery-fixtures.test-helper.ts';
import { ADMIN, as, createTestApp, login, type TestApp, userWithRole } from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
/** A site of ours, which a source given as a site id names. */
let siteId = '';

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  siteId = (await publisherWithWidget(t, admin)).site._id;
});
afterAll(() => t.close());

const partner = (over: Record<string, unknown> = {}) => ({
  name: 'Demand One',
  endpoint: 'https://dsp.example/openrtb2',
  openrtb_version: '2.6',
  daily_money_limit: 25.5,
  daily_budget_limit: 100000,
  max_request_time: 250,
  whitelist: ['News.Example', siteId],
  blacklist: ['bad.example'],
  ad_position: 3,
  ...over,
});
const create = async (over: Record<string, unknown> = {}) => {
  const res = await admin.post('/api/dsppartners', { dsppartner: partner(over) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

describe('DSP partners', () => {
  test('an admin creates, reads, lists, changes and deletes a partner', async () => {
    const p = await create();
    expect(p).toMatchObject({
      name: 'Demand One',
      openrtb_version: '2.6',
      daily_money_limit: 25.5,
      daily_budget_limit: 100000,
      max_request_time: 250,
      whitelist: ['news.example', siteId],
      blacklist: ['bad.example'],
      ad_position: 3,
      status: 'active',
    });
    expect((await admin.get(`/api/dsppartners/${p._id}`)).json()).toEqual(p);
    const list = (await admin.get('/api/dsppartners?q=demand&limit=5')).json();
    expect(list).toMatchObject({ page: 1, limit: 5 });
    expect(list.items.map((x: { _id: string }) => x._id)).toContain(p._id);

    const changed = await admin.put(`/api/dsppartners/${p._id}`, {
      dsppartner: { status: 'inactive', daily_money_limit: null },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ status: 'inactive', daily_money_limit: null, name: 'Demand One' });
    expect(
      (await admin.get('/api/dsppartners?status=inactive')).json().items.map((x: { _id: string }) => x._id),
    ).toContain(p._id);

    expect((await admin.del(`/api/dsppartners/${p._id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/dsppartners/${p._id}`)).statusCode).toBe(404);
    expect((await admin.put(`/api/dsppartners/${p._id}`, { dsppartner: { name: 'x' } })).statusCode).toBe(
      404,
    );
  });

  test('the log lists the creation and each change with the fields before and after', async () => {
    const p = await create({ name: 'Logged' });
    await admin.put(`/api/dsppartners/${p._id}`, { dsppartner: { max_request_time: 400 } });
    await admin.put(`/api/dsppartners/${p._id}`, { dsppartner: { max_request_time: 400 } });
    const logs = (await admin.get(`/api/dsppartners/${p._id}/logs`)).json();
    expect(logs.total).toBe(2);
    expect(logs.items[0]).toMatchObject({
      action: 'update',
      changes: [{ field: 'max_request_time', before: 250, after: 400 }],
    });
    expect(logs.items[1].action).toBe('create');
    expect((await admin.get('/api/dsppartners/999999/logs')).statusCode).toBe(404);
  });

  test('bad input is a 422 on the field, never a 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ endpoint: 'javascript:alert(1)' }, 'endpoint'],
      [{ openrtb_version: '3.0' }, 'openrtb_version'],
      [{ daily_money_limit: -1 }, 'daily_money_limit'],
      [{ daily_money_limit: 1.0000001 }, 'daily_money_limit'],
      [{ daily_budget_limit: 0 }, 'daily_budget_limit'],
      [{ max_request_time: 5 }, 'max_request_time'],
      [{ max_request_time: 60_000 }, 'max_request_time'],
      [{ whitelist: ['not a domain'] }, 'whitelist'],
      [{ ad_position: 2 }, 'ad_position'],
      [{ status: 'paused' }, 'status'],
      [{ extra: 1 }, 'extra'],
    ];
    for (const [over, field] of cases) {
      const res = await admin.post('/api/dsppartners', { dsppartner: partner(over) });
      expect(res.statusCode, JSON.stringify(over)).toBe(422);
      const fields: string[] = res.json().errors.map((e: { field: string }) => e.field);
      expect(
        fields.some((f) => f.startsWith(field)),
        `${JSON.stringify(over)} ${fields}`,
      ).toBe(true);
    }
    expect((await admin.post('/api/dsppartners', partner())).statusCode).toBe(422);
  });

  test('an endpoint the outbound guard would refuse on every request is refused when saved', async () => {
    for (const endpoint of [
      'http://127.0.0.1:8080/rtb',
      'http://localhost/x',
      'http://api.localhost/x',
      'http://localhost./x',
      'http://API.LOCALHOST../x',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://user:pass@dsp.example.com/',
      'https://dsp.example.com:0/',
    ]) {
      const res = await admin.post('/api/dsppartners', { dsppartner: partner({ endpoint }) });
      expect(res.statusCode, endpoint).toBe(422);
      expect(res.json().errors[0], endpoint).toMatchObject({
        field: 'endpoint',
        code: 'endpoint_not_public',
      });
    }
    const ok = await admin.post('/api/dsppartners', {
      dsppartner: partner({ endpoint: 'https://8.8.8.8/rtb' }),
    });
    expect(ok.statusCode).toBe(201);
    const moved = await admin.put(`/api/dsppartners/${ok.json()._id}`, {
      dsppartner: { endpoint: 'http://192.168.1.1/rtb' },
    });
    expect(moved.statusCode).toBe(422);
  });

  test('only admins write; readonly admins read; everyone else gets 403', async () => {
    const p = await create({ name: 'Guarded' });
    const ro = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await ro.get(`/api/dsppartners/${p._id}`)).statusCode).toBe(200);
    expect((await ro.post('/api/dsppartners', { dsppartner: partner() })).statusCode).toBe(403);
    expect((await ro.put(`/api/dsppartners/${p._id}`, { dsppartner: { name: 'x' } })).statusCode).toBe(403);
    expect((await ro.del(`/api/dsppartners/${p._id}`)).statusCode).toBe(403);
    for (const role of ['default', 'defaultreadonly', 'agency', 'agencymember']) {
      const u = as(t.app, (await userWithRole(t, role)).access_token);
      for (const path of [
        '/api/dsppartners',
        `/api/dsppartners/${p._id}`,
        `/api/dsppartners/${p._id}/logs`,
        `/api/dsppartners/${p._id}/stats`,
        `/api/dsppartners/${p._id}/stats/export?format=csv`,
        '/api/dsppartnerblacklist',
      ])
        expect((await u.get(path)).statusCode, `${role} ${path}`).toBe(403);
      expect((await u.post('/api/dsppartners', { dsppartner: partner() })).statusCode, role).toBe(403);
      expect((await u.del(`/api/dsppartners/${p._id}`)).statusCode, role).toBe(403);
      expect(
        (
          await u.post('/api/dsppartnerblacklist', {
            dsppartnerblacklist: { dsp_partner_id: p._id, source: 'x.example' },
          })
        ).statusCode,
      ).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/dsppartners' })).statusCode).toBe(401);
  });

  test('a name is taken in any case: creating or renaming to it is a 422 on name', async () => {
    const p = await create({ name: 'Unique DSP' });
    const other = await create({ name: 'Another DSP' });
    for (const res of [
      await admin.post('/api/dsppartners', { dsppartner: partner({ name: 'unique dsp' }) }),
      await admin.put(`/api/dsppartners/${other._id}`, { dsppartner: { name: 'UNIQUE DSP' } }),
    ]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual([
        { field: 'name', code: 'dsp_partner_name_taken', detail: expect.any(String) },
      ]);
    }
    const same = await admin.put(`/api/dsppartners/${p._id}`, { dsppartner: { name: 'Unique dsp' } });
    expect(same.statusCode, same.body).toBe(200);
  });

  test('an empty source is one error on its field, not one per failed check', async () => {
    const p = (
      await admin.post('/api/dsppartners', { dsppartner: partner({ name: 'Empty source' }) })
    ).json();
    const res = await admin.post('/api/dsppartnerblacklist', {
      dsppartnerblacklist: { dsp_partner_id: p._id, source: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      { field: 'source', code: 'required', detail: expect.stringContaining('Source') },
    ]);
  });
});

describe('DSP partner blacklist items', () => {
  test('list with filters, read, create, change, delete', async () => {
    const p = await create({ name: 'With blacklist' });
    const other = await create({ name: 'Other' });
    const res = await admin.post('/api/dsppartnerblacklist', {
      dsppartnerblacklist: { dsp_partner_id: p._id, source: 'Spam.Example', comment: 'fraud' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({ dsp_partner_id: p._id, source: 'spam.example', comment: 'fraud' });
    await admin.post('/api/dsppartnerblacklist', {
      dsppartnerblacklist: { dsp_partner_id: other._id, source: 'spam.example' },
    });

    const list = (await admin.get(`/api/dsppartnerblacklist?dsp_partner_id=${p._id}`)).json();
    expect(list.total).toBe(1);
    expect(list.items[0]).toEqual(item);
    expect((await admin.get(`/api/dsppartnerblacklist?q=nothing-like-it`)).json().total).toBe(0);
    expect((await admin.get(`/api/dsppartnerblacklist/${item._id}`)).json()).toEqual(item);

    const dup = await admin.post('/api/dsppartnerblacklist', {
      dsppartnerblacklist: { dsp_partner_id: p._id, source: 'spam.example' },
    });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors[0]).toMatchObject({ field: 'source', code: 'dsp_source_listed' });

    const changed = await admin.put(`/api/dsppartnerblacklist/${item._id}`, {
      dsppartnerblacklist: { source: siteId, comment: '' },
    });
    expect(changed.json()).toMatchObject({ source: siteId, comment: '' });
    expect((await admin.del(`/api/dsppartnerblacklist/${item._id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/dsppartnerblacklist/${item._id}`)).statusCode).toBe(404);
  });

  test('an unknown partner is a 422 on dsp_partner_id; bad sources are refused', async () => {
    const unknown = await admin.post('/api/dsppartnerblacklist', {
      dsppartnerblacklist: { dsp_partner_id: '999999', source: 'a.example' },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0].field).toBe('dsp_partner_id');
    const p = await create({ name: 'Sources' });
    for (const source of ['', 'http://a.example', 'a b', 'x'.repeat(300)]) {
      const res = await admin.post('/api/dsppartnerblacklist', {
        dsppartnerblacklist: { dsp_partner_id: p._id, source },
      });
      expect(res.statusCode, source).toBe(422);
    }
    expect(
      (await admin.put('/api/dsppartnerblacklist/999999', { dsppartnerblacklist: { comment: 'x' } }))
        .statusCode,
    ).toBe(404);
    // a source given as a site id names one of our sites (a domain may name anyone's)
    const noSite = await admin.post('/api/dsppartnerblacklist', {
      dsppartnerblacklist: { dsp_partner_id: p._id, source: '999999' },
    });
    expect(noSite.statusCode).toBe(422);
    expect(noSite.json().errors[0]).toMatchObject({ field: 'source', code: 'unknown_ids' });
    const item = await admin.post('/api/dsppartnerblacklist', {
      dsppartnerblacklist: { dsp_partner_id: p._id, source: siteId },
    });
    expect(item.statusCode, item.body).toBe(201);
    const lists = await admin.post('/api/dsppartners', {
      dsppartner: partner({
        name: 'Unknown site',
        whitelist: ['999998'],
        blacklist: ['a.example', '999997'],
      }),
    });
    expect(lists.statusCode).toBe(422);
    expect(
      lists
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['blacklist', 'whitelist']);
    const edit = await admin.put(`/api/dsppartners/${p._id}`, { dsppartner: { whitelist: ['999998'] } });
    expect(edit.statusCode).toBe(422);
  });

  test('deleting a partner deletes its blacklist items', async () => {
    const p = await create({ name: 'Doomed' });
    const item = (
      await admin.post('/api/dsppartnerblacklist', {
        dsppartnerblacklist: { dsp_partner_id: p._id, source: 'gone.example' },
      })
    ).json();
    await admin.del(`/api/dsppartners/${p._id}`);
    expect((await admin.get(`/api/dsppartnerblacklist/${item._id}`)).statusCode).toBe(404);
  });
});
