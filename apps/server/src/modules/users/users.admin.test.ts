import { afterAll, beforeAll, expect, test } from 'vitest';
import { campaigns, sites } from '../../db/schema/index.ts';
import {
  ADMIN,
  as,
  createTestApp,
  form,
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
afterAll(() => t.close());

test('admins search, filter and sort users, 20 per page by default', async () => {
  const pub = await register(t.app, { name: 'Paula Publisher' });
  const adv = await register(t.app, { name: 'Adam Advertiser' });
  await t.database.db
    .insert(sites)
    .values({ userId: Number(pub.user_id), title: 'News', domain: 'news.example' });
  await t.database.db.insert(campaigns).values({ userId: Number(adv.user_id), title: 'Shoes' });
  await admin.post(`/api/users/${adv.user_id}/payments`, { payment: { sum: 99 } });

  const pubs = (await admin.get('/api/users?kind=publishers')).json();
  expect(pubs.items.map((u: { _id: string }) => u._id)).toEqual([pub.user_id]);
  const advs = (await admin.get('/api/users?kind=advertisers')).json();
  expect(advs.items.map((u: { _id: string }) => u._id)).toEqual([adv.user_id]);
  const admins = (await admin.get('/api/users?kind=admins')).json();
  expect(admins.items.every((u: { role: string }) => u.role === 'admin' || u.role === 'adminreadonly')).toBe(
    true,
  );
  expect((await admin.get('/api/users?search=paula')).json().items[0]._id).toBe(pub.user_id);
  expect((await admin.get(`/api/users?search=${adv.user_id}`)).json().items[0]._id).toBe(adv.user_id);
  expect((await admin.get('/api/users?search=%25')).json().total).toBe(0);
  expect((await admin.get(`/api/users/${pub.user_id}`)).json().owns).toMatchObject({
    sites: 1,
    campaigns: 0,
  });
  expect((await admin.get(`/api/users/${adv.user_id}`)).json().owns).toMatchObject({
    sites: 0,
    campaigns: 1,
  });
  const richest = (await admin.get('/api/users?sort=balance&order=desc&limit=1')).json();
  expect(richest.items[0]._id).toBe(adv.user_id);
  expect((await admin.get('/api/users')).json().limit).toBe(20);
});

test('a user edits its profile; e-mail stays unique; currency must be known', async () => {
  const u = await register(t.app);
  const other = await register(t.app);
  const me = as(t.app, u.access_token);
  const res = await me.put(`/api/users/${u.user_id}`, {
    user: { name: 'New Name', phone: '+49 30 1234567' },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ name: 'New Name', phone: '+49 30 1234567' });
  const dup = await me.put(`/api/users/${u.user_id}`, { user: { email: other.email } });
  expect(dup.statusCode).toBe(422);
  expect(dup.json().errors[0]).toMatchObject({ field: 'email', code: 'email_taken' });
  const cur = await me.put(`/api/users/${u.user_id}`, { user: { currency: 'XXX' } });
  expect(cur.statusCode).toBe(422);
  expect(
    (await as(t.app, other.access_token).put(`/api/users/${u.user_id}`, { user: { name: 'hijack' } }))
      .statusCode,
  ).toBe(404);
  const ro = await userWithRole(t, 'defaultreadonly');
  expect(
    (await as(t.app, ro.access_token).put(`/api/users/${ro.user_id}`, { user: { name: 'x' } })).statusCode,
  ).toBe(403);
  expect((await admin.put(`/api/users/${u.user_id}`, { user: { notes: 'Pays on time' } })).json().notes).toBe(
    'Pays on time',
  );
});

test('the current password cannot be guessed at the API rate: the login failure limit holds for it too', async () => {
  const u = await register(t.app);
  const me = as(t.app, u.access_token);
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    const res = await me.post(`/api/users/${u.user_id}/changepassword`, {
      password: 'next-password-1',
      current_password: `guess-${i}`,
    });
    statuses.push(res.statusCode);
  }
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(422));
  expect(statuses[10]).toBe(429);
  // locked: the right one too, for now
  const right = await me.post(`/api/users/${u.user_id}/changepassword`, {
    password: 'next-password-1',
    current_password: u.password,
  });
  expect(right.statusCode).toBe(429);
  const missing = await me.post(`/api/users/${u.user_id}/changepassword`, { password: 'next-password-1' });
  expect(missing.json().errors[0]).toMatchObject({ field: 'current_password', code: 'required' });
});

test('changing a password needs the current one, except when an admin changes another user', async () => {
  const u = await register(t.app);
  const me = as(t.app, u.access_token);
  const wrong = await me.post(`/api/users/${u.user_id}/changepassword`, {
    password: 'next-password-1',
    current_password: 'nope',
  });
  expect(wrong.statusCode).toBe(422);
  expect(wrong.json().errors[0]).toMatchObject({ field: 'current_password', code: 'current_password_wrong' });
  const ok = await me.post(`/api/users/${u.user_id}/changepassword`, {
    password: 'next-password-1',
    current_password: u.password,
  });
  expect(ok.statusCode).toBe(200);
  await login(t.app, u.email, 'next-password-1');
  const byAdmin = await admin.post(`/api/users/${u.user_id}/changepassword`, {
    password: 'admin-set-pass-1',
  });
  expect(byAdmin.statusCode).toBe(200);
  await login(t.app, u.email, 'admin-set-pass-1');
  // the admin's change ended the user's old sessions
  const refresh = await t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    ...form({ grant_type: 'refresh_token', refresh_token: u.refresh_token }),
  });
  expect(refresh.statusCode).toBe(400);
});

test('only an admin changes roles, to any role of the platform', async () => {
  const u = await register(t.app);
  // a member is made by its agency (addmember): a user in no agency cannot be given the role
  const member = await admin.post(`/api/users/${u.user_id}/changeroles`, { role: 'agencymember' });
  expect(member.statusCode).toBe(422);
  expect(member.json().errors[0]).toMatchObject({ field: 'role', code: 'not_a_member' });
  for (const role of ['agency', 'defaultreadonly', 'adminreadonly', 'dummy', 'default', 'admin']) {
    const res = await admin.post(`/api/users/${u.user_id}/changeroles`, { role });
    expect(res.statusCode, role).toBe(200);
    expect(res.json().role).toBe(role);
  }
  expect((await admin.post(`/api/users/${u.user_id}/changeroles`, { role: 'superuser' })).statusCode).toBe(
    422,
  );
  const other = await register(t.app);
  expect(
    (await as(t.app, other.access_token).post(`/api/users/${other.user_id}/changeroles`, { role: 'admin' }))
      .statusCode,
  ).toBe(403);
  const ro = await userWithRole(t, 'adminreadonly');
  expect(
    (await as(t.app, ro.access_token).post(`/api/users/${other.user_id}/changeroles`, { role: 'admin' }))
      .statusCode,
  ).toBe(403);
});

test("an admin's own referral percent is another admin's to set; sending it back unchanged is fine", async () => {
  const second = await userWithRole(t, 'admin');
  const mine = as(t.app, second.access_token);
  const res = await mine.put(`/api/users/${second.user_id}`, { user: { earn_percent: 50 } });
  expect(res.statusCode).toBe(422);
  expect(res.json().errors).toEqual([
    { field: 'earn_percent', code: 'own_earn_percent', detail: expect.stringContaining('another admin') },
  ]);
  const current = (await admin.get(`/api/users/${second.user_id}`)).json().earn_percent;
  expect(current).not.toBe(50);
  // the whole form sent back with the same percent saves
  const same = await mine.put(`/api/users/${second.user_id}`, {
    user: { name: 'Admin Two', earn_percent: current },
  });
  expect(same.statusCode, same.body).toBe(200);
  // another admin sets it
  const set = await admin.put(`/api/users/${second.user_id}`, { user: { earn_percent: 7.5 } });
  expect(set.statusCode, set.body).toBe(200);
  expect(set.json().earn_percent).toBe(7.5);
});

test('an admin cannot change its own role (the last admin would lock the platform out); another admin can', async () => {
  const me = await login(t.app, ADMIN.email, ADMIN.password);
  const res = await admin.post(`/api/users/${me.user_id}/changeroles`, { role: 'default' });
  expect(res.statusCode).toBe(422);
  expect(res.json().errors).toEqual([
    { field: 'role', code: 'own_role_change', detail: 'You cannot change your own role: another admin can' },
  ]);
  expect((await admin.get(`/api/users/${me.user_id}`)).json().role).toBe('admin');
  // saving the same role is no change
  expect((await admin.post(`/api/users/${me.user_id}/changeroles`, { role: 'admin' })).statusCode).toBe(200);
  const second = await userWithRole(t, 'admin');
  const demoted = await as(t.app, second.access_token).post(`/api/users/${me.user_id}/changeroles`, {
    role: 'adminreadonly',
  });
  expect(demoted.statusCode).toBe(200);
  expect(demoted.json().role).toBe('adminreadonly');
  await as(t.app, second.access_token).post(`/api/users/${me.user_id}/changeroles`, { role: 'admin' });
});
