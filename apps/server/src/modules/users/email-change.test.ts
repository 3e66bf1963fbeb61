import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { emailChanges, mailOutbox } from '../../db/schema/index.ts';
import { ADMIN, as, createTestApp, form, login, register, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

const refresh = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    ...form({ grant_type: 'refresh_token', refresh_token: token }),
  });

const confirm = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/confirm-email', payload: { token } });

async function mailsTo(address: string) {
  return t.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, address))
    .orderBy(desc(mailOutbox.id));
}

async function linkTokenFor(address: string): Promise<string> {
  const [mail] = await mailsTo(address);
  const m = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '');
  if (!m?.[1]) throw new Error(`no confirmation link mailed to ${address}`);
  return m[1];
}

let seq = 0;
const newAddress = () => {
  seq += 1;
  return `moved${seq}-${Date.now()}@test.local`;
};

test('an own e-mail change needs the current password: missing or wrong is a 422 on current_password', async () => {
  const u = await register(t.app);
  const me = as(t.app, u.access_token);
  const target = newAddress();
  const missing = await me.put(`/api/users/${u.user_id}`, { user: { email: target } });
  expect(missing.statusCode).toBe(422);
  expect(missing.json().errors[0]).toMatchObject({ field: 'current_password', code: 'required' });
  const wrong = await me.put(`/api/users/${u.user_id}`, {
    user: { email: target, current_password: 'not-the-password' },
  });
  expect(wrong.statusCode).toBe(422);
  expect(wrong.json().errors[0]).toMatchObject({ field: 'current_password' });
  expect((await me.get(`/api/users/${u.user_id}`)).json()).toMatchObject({
    email: u.email,
    pending_email: null,
  });
  expect(await mailsTo(target)).toHaveLength(0);
  // the same address (any case) is no change and needs nothing
  const same = await me.put(`/api/users/${u.user_id}`, {
    user: { email: u.email.toUpperCase(), name: 'Same' },
  });
  expect(same.statusCode).toBe(200);
});

test('the new address waits for the link mailed to it; the old address gets a notice', async () => {
  const u = await register(t.app);
  const me = as(t.app, u.access_token);
  const target = newAddress();
  const res = await me.put(`/api/users/${u.user_id}`, {
    user: { email: target, name: 'Moving', current_password: u.password },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ email: u.email, pending_email: target, name: 'Moving' });
  expect(
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${u.access_token}` },
      })
    ).json().account.pending_email,
  ).toBe(target);

  const [notice] = await mailsTo(u.email);
  expect(notice?.text).toContain(target);
  expect(notice?.text).not.toContain('/confirm-email');
  const token = await linkTokenFor(target);
  // the token is stored hashed only
  const [row] = await t.database.db.select().from(emailChanges).where(eq(emailChanges.email, target));
  expect(row?.tokenHash).not.toContain(token);
  // until the link is opened, the old address is the login
  await login(t.app, u.email, u.password);
  await expect(login(t.app, target, u.password)).rejects.toThrow();

  const done = await confirm(token);
  expect(done.statusCode).toBe(200);
  expect(done.json()).toEqual({ status: 'ok', email: target });
  await login(t.app, target, u.password);
  await expect(login(t.app, u.email, u.password)).rejects.toThrow();
  expect((await admin.get(`/api/users/${u.user_id}`)).json()).toMatchObject({
    email: target,
    pending_email: null,
  });

  const again = await confirm(token);
  expect(again.statusCode).toBe(400);
  expect(again.json().error).toBe('invalid_email_change_token');
});

test('confirming ends every other session of the user; the one that asked stays', async () => {
  const u = await register(t.app);
  const stolen = await login(t.app, u.email, u.password);
  const asking = await login(t.app, u.email, u.password);
  const target = newAddress();
  const res = await as(t.app, asking.access_token).put(`/api/users/${u.user_id}`, {
    user: { email: target, current_password: u.password },
  });
  expect(res.statusCode).toBe(200);
  expect((await confirm(await linkTokenFor(target))).statusCode).toBe(200);
  expect((await refresh(stolen.refresh_token)).statusCode).toBe(400);
  expect((await refresh(u.refresh_token)).statusCode).toBe(400);
  expect((await refresh(asking.refresh_token)).statusCode).toBe(200);
});

test('an expired, superseded or made-up link does nothing', async () => {
  const u = await register(t.app);
  const me = as(t.app, u.access_token);
  const first = newAddress();
  await me.put(`/api/users/${u.user_id}`, { user: { email: first, current_password: u.password } });
  const firstToken = await linkTokenFor(first);
  const second = newAddress();
  await me.put(`/api/users/${u.user_id}`, { user: { email: second, current_password: u.password } });
  expect((await me.get(`/api/users/${u.user_id}`)).json().pending_email).toBe(second);
  expect((await confirm(firstToken)).statusCode).toBe(400);

  await t.database.db
    .update(emailChanges)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(and(eq(emailChanges.userId, Number(u.user_id)), eq(emailChanges.email, second)));
  expect((await me.get(`/api/users/${u.user_id}`)).json().pending_email).toBeNull();
  const expired = await confirm(await linkTokenFor(second));
  expect(expired.statusCode).toBe(400);
  expect(expired.json().error).toBe('invalid_email_change_token');
  expect((await confirm('made-up-token-123')).statusCode).toBe(400);
  expect((await me.get(`/api/users/${u.user_id}`)).json().email).toBe(u.email);
});

test('an address taken after the request is refused at confirmation', async () => {
  const u = await register(t.app);
  const target = newAddress();
  await as(t.app, u.access_token).put(`/api/users/${u.user_id}`, {
    user: { email: target, current_password: u.password },
  });
  await register(t.app, { email: target });
  const res = await confirm(await linkTokenFor(target));
  expect(res.statusCode).toBe(422);
  expect(res.json().errors[0]).toMatchObject({ field: 'email', code: 'email_taken' });
});

test("an admin changes another user's e-mail directly, without a password or a link", async () => {
  const u = await register(t.app);
  const target = newAddress();
  // a reset link mailed to the old address before the change
  await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: u.email } });
  // the reset mail leaves after the answer (off the request), so it is waited for
  const resetToken = await vi.waitFor(async () => {
    const [resetMail] = await mailsTo(u.email);
    const token = /reset-password-v2\?token=([A-Za-z0-9_-]+)/.exec(resetMail?.text ?? '')?.[1];
    expect(token).toBeTruthy();
    return token;
  });
  const res = await admin.put(`/api/users/${u.user_id}`, { user: { email: target } });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ email: target, pending_email: null });
  // the old address is told, and the user's sessions end (it signs in with the new address)
  const [notice] = await mailsTo(u.email);
  expect(notice?.text).toContain(target);
  expect((await as(t.app, u.access_token).get('/api/auth/me')).statusCode).toBe(401);
  // the reset link mailed to the old address no longer works
  const reset = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token: resetToken, password: 'taken-over-password-1' },
  });
  expect(reset.statusCode).not.toBe(200);
  await login(t.app, target, u.password);
});

test('an own password change ends the other sessions and keeps the current one', async () => {
  const u = await register(t.app);
  const other = await login(t.app, u.email, u.password);
  const current = await login(t.app, u.email, u.password);
  const res = await as(t.app, current.access_token).post(`/api/users/${u.user_id}/changepassword`, {
    password: 'a-brand-new-secret-1',
    current_password: u.password,
  });
  expect(res.statusCode).toBe(200);
  expect((await refresh(other.refresh_token)).statusCode).toBe(400);
  expect((await refresh(u.refresh_token)).statusCode).toBe(400);
  expect((await refresh(current.refresh_token)).statusCode).toBe(200);
});
