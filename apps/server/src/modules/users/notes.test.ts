import { afterAll, beforeAll, expect, test } from 'vitest';
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
afterAll(() => t.close());

const NOTE = 'Asked for a refund twice; check before paying out';

test('admin notes reach admins and readonly admins only, in every answer', async () => {
  const u = await register(t.app);
  const set = await admin.put(`/api/users/${u.user_id}`, { user: { notes: NOTE } });
  expect(set.json().notes).toBe(NOTE);
  expect((await admin.get(`/api/users/${u.user_id}`)).json().notes).toBe(NOTE);
  const listed = (await admin.get(`/api/users?search=${u.user_id}`)).json().items[0];
  expect(listed.notes).toBe(NOTE);
  const ro = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
  expect((await ro.get(`/api/users/${u.user_id}`)).json().notes).toBe(NOTE);

  const me = as(t.app, u.access_token);
  const own = await me.get(`/api/users/${u.user_id}`);
  expect(own.statusCode).toBe(200);
  // every account field of DESIGN.md is there, the notes empty for whoever may not read them
  expect(own.json().notes).toBe('');
  expect((await me.get('/api/auth/me')).json().account.notes).toBe('');
  expect((await me.get('/api/users')).json().items[0].notes).toBe('');
  const edited = await me.put(`/api/users/${u.user_id}`, { user: { name: 'Still me' } });
  expect(edited.json().notes).toBe('');
  expect(JSON.stringify(edited.json())).not.toContain('refund');
});

test('an agency does not see the notes of its members', async () => {
  const owner = await userWithRole(t, 'agency');
  const agency = as(t.app, owner.access_token);
  const created = (await agency.post('/api/agencies', { agency: { title: 'Notes agency' } })).json();
  const member = (
    await agency.post(`/api/agencies/${created._id}/addmember`, {
      member: { name: 'M', email: `notes-member-${Date.now()}@test.local`, password: 'member-password-1' },
    })
  ).json();
  await admin.put(`/api/users/${member._id}`, { user: { notes: NOTE } });
  const seen = await agency.get(`/api/users/${member._id}`);
  expect(seen.statusCode).toBe(200);
  expect(seen.json().notes).toBe('');
  for (const item of (await agency.get('/api/users?limit=500')).json().items) expect(item.notes).toBe('');
});

test('a non-admin cannot set notes, not even on its own account', async () => {
  const u = await register(t.app);
  const res = await as(t.app, u.access_token).put(`/api/users/${u.user_id}`, {
    user: { notes: 'I am trusted' },
  });
  expect(res.statusCode).toBe(403);
  expect((await admin.get(`/api/users/${u.user_id}`)).json().notes).toBe('');
});
