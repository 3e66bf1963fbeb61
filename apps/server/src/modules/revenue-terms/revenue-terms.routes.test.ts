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
let adminId: string;
let readonly: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  const session = await login(t.app, ADMIN.email, ADMIN.password);
  admin = as(t.app, session.access_token);
  adminId = session.user_id;
  readonly = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
});
afterAll(() => t.close());

let seq = 0;
async function publisherWithSite() {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'Terms', domain: `terms-${++seq}-${u.user_id}.example`, category: 'news' },
    })
  ).json();
  return { ...u, api, site };
}

const log = async (entity: string, id: string) =>
  (await admin.get(`/api/revenue-terms-log?entity_type=${entity}&entity_id=${id}`)).json();

describe('sites', () => {
  test('an owner cannot change its site revenue terms, but re-saving the stored values works', async () => {
    const p = await publisherWithSite();
    for (const change of [
      { agency_rate: 10 },
      { affiliate_earn_percent: 5 },
      { payment_method: 'cpc' },
      { affiliate_user_id: p.user_id },
    ]) {
      const res = await p.api.put(`/api/sites/${p.site._id}`, { site: change });
      expect(res.statusCode, JSON.stringify(change)).toBe(403);
      expect(res.json()).toMatchObject({ error: 'revenue_terms_admin_only' });
      expect(res.json().message).toContain(Object.keys(change)[0]);
    }
    // the dashboard's form sends every field back, revenue terms unchanged among them
    const resave = await p.api.put(`/api/sites/${p.site._id}`, {
      site: {
        title: 'Renamed',
        agency_rate: 0,
        affiliate_earn_percent: 0,
        payment_method: 'revshare',
        billing_widget: null,
        affiliate_user_id: null,
      },
    });
    expect(resave.statusCode).toBe(200);
    expect(resave.json().title).toBe('Renamed');
    expect((await log('site', p.site._id)).total).toBe(0);
    const created = await p.api.post('/api/sites', {
      site: { title: 'X', domain: `terms-x-${p.user_id}.example`, category: 'news', agency_rate: 20 },
    });
    expect(created.statusCode).toBe(403);
  });

  test('an admin changes them and each change is logged with who, before and after', async () => {
    const p = await publisherWithSite();
    const res = await admin.put(`/api/sites/${p.site._id}`, {
      site: { agency_rate: 12.5, payment_method: 'cpc', title: 'Not a term' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ agency_rate: 12.5, payment_method: 'cpc' });
    await admin.put(`/api/sites/${p.site._id}`, { site: { agency_rate: 15 } });
    const page = await log('site', p.site._id);
    expect(page.total).toBe(3);
    expect(page.items).toEqual([
      expect.objectContaining({ field: 'agency_rate', before: 12.5, after: 15 }),
      expect.objectContaining({ field: 'agency_rate', before: 0, after: 12.5 }),
      expect.objectContaining({ field: 'payment_method', before: 'revshare', after: 'cpc' }),
    ]);
    expect(page.items[0]).toMatchObject({
      entity_type: 'site',
      entity_id: p.site._id,
      actor_id: adminId,
      actor_name: expect.any(String),
    });
    expect(Date.parse(page.items[0].created_at)).not.toBeNaN();
    // paging: one per page, newest first
    const second = (
      await admin.get(`/api/revenue-terms-log?entity_type=site&entity_id=${p.site._id}&page=2&limit=1`)
    ).json();
    expect(second).toMatchObject({ total: 3, page: 2, limit: 1 });
    expect(second.items).toEqual([expect.objectContaining({ before: 0, after: 12.5 })]);
  });

  test('an admin creating a site with terms logs them from the defaults', async () => {
    const p = await register(t.app);
    const res = await admin.post('/api/sites', {
      site: {
        title: 'For a user',
        domain: `terms-admin-${p.user_id}.example`,
        category: 'news',
        user_id: p.user_id,
        affiliate_earn_percent: 3,
      },
    });
    expect(res.statusCode).toBe(201);
    expect((await log('site', res.json()._id)).items).toEqual([
      expect.objectContaining({ field: 'affiliate_earn_percent', before: 0, after: 3 }),
    ]);
  });
});

test("a widget's earn processor and value: owner 403, admin changes them and the change is logged", async () => {
  const p = await publisherWithSite();
  const w = (await p.api.post('/api/widgets', { widget: { title: 'W', site_id: p.site._id } })).json();
  expect(
    (await p.api.post('/api/widgets', { widget: { title: 'W2', site_id: p.site._id, earn_value: 90 } }))
      .statusCode,
  ).toBe(403);
  const own = await p.api.put(`/api/widgets/${w._id}`, { widget: { earn_value: 80 } });
  expect(own.statusCode).toBe(403);
  const same = await p.api.put(`/api/widgets/${w._id}`, {
    widget: { title: 'W again', earn_processor: w.earn_processor, earn_value: w.earn_value },
  });
  expect(same.statusCode).toBe(200);
  const byAdmin = await admin.put(`/api/widgets/${w._id}`, {
    widget: { earn_processor: 'fixed', earn_value: 0.05 },
  });
  expect(byAdmin.statusCode).toBe(200);
  expect((await log('widget', w._id)).items).toEqual([
    expect.objectContaining({ field: 'earn_value', before: 50, after: 0.05 }),
    expect.objectContaining({ field: 'earn_processor', before: 'percent', after: 'fixed' }),
  ]);
});

test('an agency cannot set its own rates; an admin can, logged', async () => {
  const owner = await userWithRole(t, 'agency');
  const a = as(t.app, owner.access_token);
  expect((await a.post('/api/agencies', { agency: { title: 'Rated', agency_rate: 30 } })).statusCode).toBe(
    403,
  );
  const agency = (await a.post('/api/agencies', { agency: { title: 'Plain' } })).json();
  for (const rate of ['agency_rate', 'phoenix_rate', 'campaign_rate']) {
    expect((await a.put(`/api/agencies/${agency._id}`, { agency: { [rate]: 5 } })).statusCode).toBe(403);
    expect(
      (await a.post(`/api/agencies/${agency._id}/settings`, { settings: { [rate]: 5 } })).statusCode,
    ).toBe(403);
  }
  expect(
    (await a.post(`/api/agencies/${agency._id}/settings`, { settings: { agency_rate: 0, showlogo: false } }))
      .statusCode,
  ).toBe(200);
  expect(
    (await admin.post(`/api/agencies/${agency._id}/settings`, { settings: { phoenix_rate: 7.5 } }))
      .statusCode,
  ).toBe(200);
  expect((await log('agency', agency._id)).items).toEqual([
    expect.objectContaining({ field: 'phoenix_rate', before: 0, after: 7.5 }),
  ]);
});

test("only an admin sets a user's referral earn_percent; an unchanged one is accepted; logged", async () => {
  const u = await register(t.app);
  const me = as(t.app, u.access_token);
  expect((await me.put(`/api/users/${u.user_id}`, { user: { earn_percent: 50 } })).statusCode).toBe(403);
  const resave = await me.put(`/api/users/${u.user_id}`, { user: { name: 'Same terms', earn_percent: 0 } });
  expect(resave.statusCode).toBe(200);
  expect((await admin.put(`/api/users/${u.user_id}`, { user: { earn_percent: 12.5 } })).statusCode).toBe(200);
  expect((await log('user', u.user_id)).items).toEqual([
    expect.objectContaining({ field: 'earn_percent', before: 0, after: 12.5, actor_id: adminId }),
  ]);
});

test('a readonly admin reads the log but cannot write terms; other users cannot read it', async () => {
  const p = await publisherWithSite();
  expect((await readonly.put(`/api/sites/${p.site._id}`, { site: { agency_rate: 1 } })).statusCode).toBe(403);
  expect((await readonly.get('/api/revenue-terms-log')).statusCode).toBe(200);
  expect((await p.api.get('/api/revenue-terms-log')).statusCode).toBe(403);
  const agency = as(t.app, (await userWithRole(t, 'agency')).access_token);
  expect((await agency.get('/api/revenue-terms-log?entity_type=site')).statusCode).toBe(403);
  expect((await admin.get('/api/revenue-terms-log?entity_type=planet')).statusCode).toBe(422);
});
