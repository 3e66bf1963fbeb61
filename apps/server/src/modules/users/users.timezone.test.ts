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

const put = (api: ReturnType<typeof as>, id: string, timezone: unknown) =>
  api.put(`/api/users/${id}`, { user: { timezone } });

test('a user sets its own timezone (an IANA name) or clears it (null: the browser’s)', async () => {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  expect((await api.get('/api/auth/me')).json().account.timezone).toBeNull();
  const set = await put(api, u.user_id, 'Asia/Kolkata');
  expect(set.statusCode).toBe(200);
  expect(set.json().timezone).toBe('Asia/Kolkata');
  expect((await api.get('/api/auth/me')).json().account.timezone).toBe('Asia/Kolkata');
  expect((await api.get(`/api/users/${u.user_id}`)).json().timezone).toBe('Asia/Kolkata');
  // other fields leave it alone
  expect((await api.put(`/api/users/${u.user_id}`, { user: { name: 'Renamed' } })).json().timezone).toBe(
    'Asia/Kolkata',
  );
  const cleared = await put(api, u.user_id, null);
  expect(cleared.statusCode).toBe(200);
  expect(cleared.json().timezone).toBeNull();
});

test('an unknown timezone is a 422 on the field', async () => {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  for (const bad of ['Mars/Olympus_Mons', '', 'x'.repeat(80), 5]) {
    const res = await put(api, u.user_id, bad);
    expect(res.statusCode, String(bad)).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'timezone' });
  }
});

test('admins and its agency set it too; other users and read-only admins do not', async () => {
  const u = await register(t.app);
  expect((await put(admin, u.user_id, 'Europe/Berlin')).json().timezone).toBe('Europe/Berlin');
  const other = await register(t.app);
  expect((await put(as(t.app, other.access_token), u.user_id, 'UTC')).statusCode).toBe(404);
  const ro = await userWithRole(t, 'adminreadonly');
  const readonly = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
  expect((await put(readonly, u.user_id, 'UTC')).statusCode).toBe(403);

  const agencyUser = await userWithRole(t, 'agency');
  const agency = as(t.app, agencyUser.access_token);
  const created = (
    await agency.post('/api/agencies', { agency: { title: `Tz agency ${u.user_id}` } })
  ).json();
  const member = {
    name: 'Member',
    email: `tz-member-${u.user_id}@test.local`,
    password: 'member-password-1',
  };
  expect((await agency.post(`/api/agencies/${created._id}/addmember`, { member })).statusCode).toBe(201);
  const memberApi = as(t.app, (await login(t.app, member.email, member.password)).access_token);
  const memberId = (await memberApi.get('/api/auth/me')).json().account._id;
  const res = await put(agency, memberId, 'America/Sao_Paulo');
  expect(res.statusCode).toBe(200);
  expect(res.json().timezone).toBe('America/Sao_Paulo');
  expect((await put(agency, u.user_id, 'UTC')).statusCode).toBe(404);
});
