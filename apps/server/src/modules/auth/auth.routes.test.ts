import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, as, createTestApp, form, login, register, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES: '5' });
});
afterAll(() => t.close());

const token = (values: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    ...form(values),
    headers: { ...form(values).headers, ...headers },
  });

describe('password grant', () => {
  test('the bootstrap admin logs in and gets a bearer token pair', async () => {
    const res = await token({ grant_type: 'password', username: ADMIN.email, password: ADMIN.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', role: 'admin', expires_in: 900 });
    expect(body.access_token).toMatch(/^ey/);
    expect(body.refresh_token.length).toBeGreaterThan(30);
  });

  test('a wrong password and an unknown user both answer invalid_grant', async () => {
    for (const username of [ADMIN.email, 'nobody@test.local']) {
      const res = await token({ grant_type: 'password', username, password: 'wrong-password' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    }
  });

  test('e-mail case does not matter', async () => {
    const res = await token({
      grant_type: 'password',
      username: ADMIN.email.toUpperCase(),
      password: ADMIN.password,
    });
    expect(res.statusCode).toBe(200);
  });

  test('failed logins are limited per account and IP with 429, other accounts still log in', async () => {
    const victim = await register(t.app);
    const other = await register(t.app);
    const ip = { 'x-forwarded-for': '10.0.0.1' };
    for (let i = 0; i < 5; i++) {
      const res = await token({ grant_type: 'password', username: victim.email, password: 'bad' }, ip);
      expect(res.statusCode).toBe(400);
    }
    const blocked = await token({
      grant_type: 'password',
      username: victim.email,
      password: victim.password,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe('too_many_requests');
    expect(blocked.headers['retry-after']).toBe('900');
    const fine = await token({ grant_type: 'password', username: other.email, password: other.password });
    expect(fine.statusCode).toBe(200);
  });
});

describe('refresh grant', () => {
  test('a refresh token works once and returns a new pair', async () => {
    const first = await login(t.app, ADMIN.email, ADMIN.password);
    const res = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${second.access_token}` },
    });
    expect(me.statusCode).toBe(200);
  });

  test('reusing a spent refresh token revokes the whole family', async () => {
    const first = await login(t.app, ADMIN.email, ADMIN.password);
    const rotated = (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).json();
    const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toBe('invalid_grant');
    // the thief's reuse also kills the legitimate newest token, and the family's access tokens at once
    const after = await token({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token });
    expect(after.statusCode).toBe(400);
    for (const access of [first.access_token, rotated.access_token])
      expect((await as(t.app, access).get('/api/auth/me')).statusCode).toBe(401);
    // another session of the same user is untouched
    const other = await login(t.app, ADMIN.email, ADMIN.password);
    expect((await as(t.app, other.access_token).get('/api/auth/me')).statusCode).toBe(200);
  });

  test('two concurrent refreshes with one token: exactly one succeeds', async () => {
    const first = await login(t.app, ADMIN.email, ADMIN.password);
    const results = await Promise.all([
      token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }),
      token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  test('revoke ends the session: its refresh token no longer works', async () => {
    const s = await login(t.app, ADMIN.email, ADMIN.password);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/revoke',
      ...form({ token: s.refresh_token }),
    });
    expect(res.statusCode).toBe(200);
    const after = await token({ grant_type: 'refresh_token', refresh_token: s.refresh_token });
    expect(after.statusCode).toBe(400);
    // signed out means signed out: the access token ends with it, not 15 minutes later
    expect((await as(t.app, s.access_token).get('/api/auth/me')).statusCode).toBe(401);
  });

  test('a password change ends the other sessions at once; the session that changed it stays', async () => {
    const u = await register(t.app);
    const mine = await login(t.app, u.email, u.password);
    const elsewhere = await login(t.app, u.email, u.password);
    const changed = await as(t.app, mine.access_token).post(`/api/users/${u.user_id}/changepassword`, {
      password: 'a-new-long-passphrase-42',
      current_password: u.password,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await as(t.app, elsewhere.access_token).get('/api/auth/me')).statusCode).toBe(401);
    expect((await as(t.app, mine.access_token).get('/api/auth/me')).statusCode).toBe(200);
  });

  test('an unknown grant type is a validation error, not a crash', async () => {
    const res = await token({ grant_type: 'client_credentials' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].field).toBe('grant_type');
  });
});

describe('register', () => {
  test('a new user registers, gets tokens and the default role', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Ann',
        email: 'Ann@Test.local',
        password: 'password-123',
        privacy_policy_agreed: true,
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      role: 'default',
      token_type: 'Bearer',
      account: { name: 'Ann', email: 'ann@test.local', role: 'default', balance: 0 },
    });
    expect(body.account.affiliate_url).toBe(
      `http://localhost:8080/register?ref=${body.account.affiliate_id}`,
    );
    const again = await login(t.app, 'ann@test.local', 'password-123');
    expect(again.user_id).toBe(body.user_id);
  });

  test('the privacy policy must be agreed', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Bob',
        email: 'bob@test.local',
        password: 'password-123',
        privacy_policy_agreed: false,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      { field: 'privacy_policy_agreed', code: 'accepted', detail: 'Privacy policy must be accepted' },
    ]);
  });

  test('missing, malformed and too long fields get one translated error each', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'x'.repeat(10_000), email: 'not-an-email', privacy_policy_agreed: true },
    });
    expect(res.statusCode).toBe(422);
    const byField = Object.fromEntries(
      res.json().errors.map((e: { field: string; detail: string }) => [e.field, e.detail]),
    );
    expect(byField).toEqual({
      name: 'Name is too long (maximum is 100 characters)',
      email: 'Email must be a valid email',
      password: "Password can't be empty",
    });
  });

  test('unknown fields are refused, not silently dropped', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Eve',
        email: 'eve@test.local',
        password: 'password-123',
        privacy_policy_agreed: true,
        role: 'admin',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'role', code: 'unknown_field' });
  });

  test('an e-mail can be registered once', async () => {
    const payload = {
      name: 'Dup',
      email: 'dup@test.local',
      password: 'password-123',
      privacy_policy_agreed: true,
    };
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/register', payload })).statusCode).toBe(201);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...payload, email: 'DUP@test.local' },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors[0]).toMatchObject({ field: 'email', code: 'email_taken' });
  });

  test('a user registering through an affiliate link is attributed to the referrer', async () => {
    const referrer = await register(t.app);
    const referred = await register(t.app, {
      affiliate_id: (referrer.account as unknown as { affiliate_id: string }).affiliate_id,
    });
    const { users } = await import('../../db/schema/index.ts');
    const { eq } = await import('drizzle-orm');
    const [row] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.id, Number(referred.user_id)));
    expect(row?.referrerId).toBe(Number(referrer.user_id));
  });
});

describe('me', () => {
  test('without a valid bearer token the answer is 401', async () => {
    for (const authorization of [undefined, 'Bearer nonsense', 'Basic abc']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('unauthorized');
    }
  });

  test('answers the account and the CASL rules of its role', async () => {
    const u = await register(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${u.access_token}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.account).toMatchObject({ _id: u.user_id, role: 'default', owns: { pixels: 0, agencies: 0 } });
    expect(body.ability).toContainEqual({
      action: ['create', 'read', 'update', 'delete'],
      subject: [
        'Site',
        'Widget',
        'Promotion',
        'PromotionPage',
        'SocialGroup',
        'Pixel',
        'Campaign',
        'Banner',
        'Landing',
      ],
      conditions: { user_id: u.user_id },
    });
  });
});

describe('bad input never crashes', () => {
  test('malformed JSON answers 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('bad_request');
  });

  test('a wrong content type answers 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('unsupported_media_type');
  });

  test('an oversized body answers 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    const big = await token({ grant_type: 'password', username: 'a'.repeat(100_000), password: 'x' });
    expect(big.statusCode).toBe(413);
  });

  test('SQL-looking and very long credentials are just wrong credentials', async () => {
    const sqlish = await token({
      grant_type: 'password',
      username: "' OR 1=1; DROP TABLE users; --",
      password: "' OR '1'='1",
    });
    expect(sqlish.statusCode).toBe(400);
    expect(sqlish.json().error).toBe('invalid_grant');
    const long = await token({ grant_type: 'password', username: 'a'.repeat(5000), password: 'x' });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors[0]).toMatchObject({ field: 'username', code: 'too_long' });
    const still = await login(t.app, ADMIN.email, ADMIN.password);
    expect(still.role).toBe('admin');
  });

  test('a JSON body on the form-encoded token endpoint is read too, and empty bodies are refused', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { grant_type: 'password', username: ADMIN.email, password: ADMIN.password },
    });
    expect(json.statusCode).toBe(200);
    const empty = await t.app.inject({ method: 'POST', url: '/api/auth/token' });
    expect(empty.statusCode).toBeGreaterThanOrEqual(400);
    expect(empty.statusCode).toBeLessThan(500);
  });
});
