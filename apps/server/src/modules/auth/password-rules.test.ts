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
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const weak = ['12345678', 'password123', 'qwertyuiop', 'QWERTYUIOP'];

function expectPasswordRefused(res: { statusCode: number; json: () => unknown }, field: string) {
  expect(res.statusCode).toBe(422);
  const errors = (res.json() as { errors: { field: string; detail: string }[] }).errors;
  expect(errors.map((e) => e.field)).toContain(field);
}

test('register refuses short and common passwords, with a translated message', async () => {
  for (const password of weak) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Weak', email: `weak-${password}@test.local`, password, privacy_policy_agreed: true },
    });
    expectPasswordRefused(res, 'password');
  }
  const de = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: { 'accept-language': 'de' },
    payload: {
      name: 'Weak',
      email: 'weak-de@test.local',
      password: 'password123',
      privacy_policy_agreed: true,
    },
  });
  expect(de.json().errors[0].detail).toContain('häufigsten Passwörtern');
  const short = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      name: 'Weak',
      email: 'weak-short@test.local',
      password: 'abcdefghi',
      privacy_policy_agreed: true,
    },
  });
  expect(short.json().errors[0].detail).toContain('minimum is 10');
});

test('reset-password refuses a common password before looking at the token', async () => {
  for (const password of weak) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: 'made-up-token-123', password },
    });
    expectPasswordRefused(res, 'password');
  }
});

test('changepassword refuses a common password, for the user and for an admin', async () => {
  const u = await register(t.app);
  const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  for (const password of weak) {
    const own = await as(t.app, u.access_token).post(`/api/users/${u.user_id}/changepassword`, {
      password,
      current_password: u.password,
    });
    expectPasswordRefused(own, 'password');
    expectPasswordRefused(
      await admin.post(`/api/users/${u.user_id}/changepassword`, { password }),
      'password',
    );
  }
  // the old password still works: nothing was changed
  await login(t.app, u.email, u.password);
});

test('an agency cannot give a new member a common password', async () => {
  const owner = await userWithRole(t, 'agency');
  const client = as(t.app, owner.access_token);
  const created = await client.post('/api/agencies', { agency: { title: 'Weak passwords agency' } });
  expect(created.statusCode).toBe(201);
  for (const password of weak) {
    const res = await client.post(`/api/agencies/${created.json()._id}/addmember`, {
      member: { name: 'M', email: `m-${password}@test.local`, password },
    });
    expectPasswordRefused(res, 'password');
  }
});
