/**
 * The named ways request input used to reach a 500 (NUL bytes, amounts past bigint micro-units, deep and
 * huge JSON, malformed OAuth grants), each answered with a 4xx of the documented shape. fuzz.test.ts walks
 * every route; these pin the answers down.
 */
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorsPlugin } from './plugins/errors.ts';
import { requestLocalePlugin } from './plugins/request-locale.ts';
import { hostileInput, MAX_INPUT_DEPTH } from './plugins/zod.ts';
import { ADMIN, as, createTestApp, form, login, register, type TestApp } from './test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
let adminToken = '';
beforeAll(async () => {
  t = await createTestApp();
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).access_token;
  admin = as(t.app, adminToken);
});
afterAll(() => t.close());

const token = (payload: string | undefined, type?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    ...(payload === undefined ? {} : { payload }),
    headers: type ? { 'content-type': type } : {},
  });

describe('NUL bytes', () => {
  test('in a search query: 422 on that field, translated, not a database error', async () => {
    for (const list of ['users', 'sites', 'campaigns']) {
      const res = await admin.get(`/api/${list}?search=a%00b`);
      expect(res.statusCode, list).toBe(422);
      expect(res.json()).toEqual({
        errors: [{ field: 'search', code: 'forbidden_character', detail: expect.stringContaining('NUL') }],
      });
    }
    const ru = await t.app.inject({
      method: 'GET',
      url: '/api/users?search=%00',
      headers: { authorization: `Bearer ${adminToken}`, 'accept-language': 'ru' },
    });
    expect(ru.statusCode).toBe(422);
    expect(ru.json().errors[0].detail).toContain('недопустимый символ');
  });

  test('in the login form: 422 on the username, and the admin still logs in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      ...form({ grant_type: 'password', username: `${ADMIN.email}\u0000`, password: ADMIN.password }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      { field: 'username', code: 'forbidden_character', detail: expect.any(String) },
    ]);
    expect((await login(t.app, ADMIN.email, ADMIN.password)).role).toBe('admin');
  });

  test('in a JSON body and a key: 422, nothing stored; in a path id: 404 (it names nothing)', async () => {
    const user = await register(t.app);
    const own = as(t.app, user.access_token);
    const title = await own.post('/api/campaigns', {
      campaign: { title: 'Spring\u0000sale', clickprice: 0.5 },
    });
    expect(title.statusCode).toBe(422);
    expect(title.json().errors).toEqual([
      { field: 'title', code: 'forbidden_character', detail: expect.stringContaining('Title') },
    ]);
    const key = await own.post('/api/campaigns', { campaign: { title: 'x', clickprice: 0.5, '\u0000': 1 } });
    expect(key.statusCode).toBe(422);
    expect(key.json().errors[0].code).toBe('forbidden_character');
    const list = await own.get('/api/campaigns');
    expect(list.json().total).toBe(0);
    const path = await own.get('/api/campaigns/1%00');
    expect(path.statusCode).toBe(404);
    expect(path.json().error).toBe('not_found');
  });

  test('a lone UTF-16 surrogate in JSON is refused like a NUL: jsonb would refuse it (500), text would alter it', async () => {
    const user = await register(t.app);
    const own = as(t.app, user.access_token);
    // the JSON text `"\ud800"`: JSON.parse makes a string with an unpaired surrogate
    const raw = (url: string, method: 'POST' | 'PUT', json: string) =>
      t.app.inject({
        method,
        url,
        payload: json,
        headers: { authorization: `Bearer ${user.access_token}`, 'content-type': 'application/json' },
      });
    const title = await raw(
      '/api/campaigns',
      'POST',
      '{"campaign":{"title":"Spring \\ud800","clickprice":0.5}}',
    );
    expect(title.statusCode).toBe(422);
    expect(title.json().errors).toEqual([
      { field: 'title', code: 'forbidden_character', detail: expect.stringContaining('Unicode') },
    ]);
    const made = (
      await own.post('/api/campaigns', { campaign: { title: 'Autumn', clickprice: 0.5 } })
    ).json();
    const jsonb = await raw(
      `/api/campaigns/${made._id}`,
      'PUT',
      '{"campaign":{"track_urls":["https://x.example/\\udc00"]}}',
    );
    expect(jsonb.statusCode).toBe(422);
    expect(jsonb.json().errors[0]).toMatchObject({ code: 'forbidden_character' });
    expect((await own.get(`/api/campaigns/${made._id}`)).json()).toMatchObject({
      title: 'Autumn',
      track_urls: [],
    });
    // a real pair (an emoji) is text like any other
    const emoji = await own.put(`/api/campaigns/${made._id}`, { campaign: { title: 'Autumn 🍂' } });
    expect(emoji.statusCode).toBe(200);
    expect(emoji.json().title).toBe('Autumn 🍂');
    expect(hostileInput({ a: ['ok', '\udbff'] })).toEqual({ path: ['a', 1], message: 'forbidden_character' });
  });

  test('in a public landing form, read without a schema: the form comes back with the problem', async () => {
    const created = await admin.post('/api/landings', {
      landing: { title: 'Offer', status: 'active', form: { fields: [{ name: 'name', label: 'Name' }] } },
    });
    const landing = created.json() as { _id: string; slug: string };
    await admin.put(`/api/landings/${landing._id}`, {
      landing: { html: '<form><input name="name"></form>' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/l/${landing.slug}`,
      ...form({ name: 'Ann\u0000' }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('not allowed');
    const leads = await admin.get(`/api/landings/${landing._id}/leads`);
    expect(leads.json().total).toBe(0);
  });

  test('text PostgreSQL cannot store that still reaches it is a 422, not a 500', async () => {
    const app = Fastify({ logger: false });
    await app.register(requestLocalePlugin);
    await app.register(errorsPlugin);
    app.get('/raw', async () => {
      // the shape drizzle throws: its own error with the driver's error as the cause
      throw new Error('Failed query', {
        cause: Object.assign(new Error('invalid byte sequence'), { code: '22021' }),
      });
    });
    app.get('/other', async () => {
      throw Object.assign(new Error('division by zero'), { code: '22012' });
    });
    // a balance past bigint micro-units (a payment on a balance near the limit)
    app.get('/overflow', async () => {
      throw new Error('Failed query', {
        cause: Object.assign(new Error('bigint out of range'), { code: '22003' }),
      });
    });
    const res = await app.inject({ method: 'GET', url: '/raw' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      errors: [{ field: 'body', code: 'forbidden_character', detail: expect.stringContaining('NUL') }],
    });
    expect((await app.inject({ method: 'GET', url: '/other' })).statusCode).toBe(500);
    const overflow = await app.inject({ method: 'GET', url: '/overflow' });
    expect(overflow.statusCode).toBe(422);
    expect(overflow.json().errors[0]).toMatchObject({ code: 'amount_out_of_range' });
    await app.close();
  });
});

describe('content types', () => {
  test('a form body outside the OAuth calls is a 415, and so is a charset other than UTF-8', async () => {
    const send = (type: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pixels',
        payload,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': type },
      });
    // curl's default: a JSON text sent as a form
    const formed = await send('application/x-www-form-urlencoded', '{"pixel":{"title":"x"}}');
    expect(formed.statusCode).toBe(415);
    expect(formed.json()).toEqual({
      error: 'unsupported_media_type',
      message: 'This content type is not supported',
    });
    expect((await send('application/json; charset=utf-16', '{"pixel":{"title":"x"}}')).statusCode).toBe(415);
    expect((await send('application/json; charset=UTF-8', '{"pixel":{"title":"ok"}}')).statusCode).toBe(201);
    expect((await admin.get('/api/pixels')).json().items.map((p: { title: string }) => p.title)).toEqual([
      'ok',
    ]);
    // the OAuth calls still take their forms
    expect((await login(t.app, ADMIN.email, ADMIN.password)).role).toBe('admin');
  });
});

describe('money amounts past what micro-units hold', () => {
  test('1e13 as a payment sum is a 422 on sum, and the balance and ledger stay as they were', async () => {
    const user = await register(t.app);
    for (const payment of [
      { sum: 1e13 },
      { sum: 9_223_372_036_854.775 },
      { sum: -1e13, type: 'adjustment' },
      { sum: 1e20 },
    ]) {
      const res = await admin.post(`/api/users/${user.user_id}/payments`, { payment });
      expect(res.statusCode, String(payment.sum)).toBe(422);
      const [error] = res.json().errors;
      expect(error.field).toBe('sum');
      expect(error.code).toMatch(/^(less_than_or_equal|greater_than_or_equal)$/);
      expect(error.detail).toContain('1000000000');
    }
    const account = await admin.get(`/api/users/${user.user_id}`);
    expect(account.json().balance).toBe(0);
    expect(await t.ctxLedgerSum(user.user_id)).toBe(0);
    // the largest amount still works, and exactly
    const max = await admin.post(`/api/users/${user.user_id}/payments`, {
      payment: { sum: 999_999_999.999999 },
    });
    expect(max.statusCode).toBe(201);
    expect((await admin.get(`/api/users/${user.user_id}`)).json().balance).toBe(999_999_999.999999);
  });

  test('a balance past the amount bound is still answered', async () => {
    const user = await register(t.app);
    for (let i = 0; i < 3; i++) {
      const res = await admin.post(`/api/users/${user.user_id}/payments`, { payment: { sum: 1e9 } });
      expect(res.statusCode).toBe(201);
    }
    const account = await admin.get(`/api/users/${user.user_id}`);
    expect(account.statusCode).toBe(200);
    expect(account.json().balance).toBe(3e9);
    const ledger = await admin.get(`/api/users/${user.user_id}/transactions`);
    expect(ledger.statusCode).toBe(200);
    expect(ledger.json().items[0].balance_after).toBe(3e9);
  });

  test('a payment that would take a balance past bigint micro-units is a 422, and nothing moves', async () => {
    const user = await register(t.app);
    await admin.post(`/api/users/${user.user_id}/payments`, { payment: { sum: 1e9 } });
    // 9,222 such payments later: a balance a little under the column's limit (2^63 - 1 micro-units)
    await t.database.db.execute(
      sql`update users set balance = 9223372036000000000 where id = ${Number(user.user_id)}`,
    );
    const res = await admin.post(`/api/users/${user.user_id}/payments`, { payment: { sum: 1e9 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 'amount_out_of_range' });
    expect((await admin.get(`/api/users/${user.user_id}/transactions`)).json().total).toBe(1);
  });
});

describe('deep and huge JSON', () => {
  test('a body of 10 000 nested arrays is a 422 on the body, in any route', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const url of ['/api/campaigns', '/api/auth/register']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: deep,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      });
      expect(res.statusCode, url).toBe(422);
      expect(res.json()).toEqual({ errors: [{ field: '', code: 'invalid', detail: expect.any(String) }] });
    }
  });

  test('nesting inside a field is refused the same way', async () => {
    let nested: unknown = 'x';
    for (let i = 0; i < 100; i++) nested = { a: nested };
    const res = await admin.post('/api/campaigns', { campaign: { title: nested, clickprice: 1 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].code).toBe('invalid');
  });

  test('a body over the limit is a 413, broken JSON a 400', async () => {
    const huge = await admin.post('/api/campaigns', { campaign: { title: 'x'.repeat(1_100_000) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: 'payload_too_large', message: expect.any(String) });
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns',
      payload: '{"campaign":',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: 'bad_request', message: expect.any(String) });
  });

  test('the check walks without recursion and stops at the first problem', () => {
    const deep = JSON.parse(`${'['.repeat(300_000)}${']'.repeat(300_000)}`);
    expect(hostileInput(deep)).toEqual({ path: [], message: 'invalid' });
    let ok: unknown = 1;
    for (let i = 0; i < MAX_INPUT_DEPTH - 1; i++) ok = [ok];
    expect(hostileInput(ok)).toBeUndefined();
    expect(hostileInput({ a: [{ b: 'fine' }, { c: 'x\u0000' }] })).toEqual({
      path: ['a', 1, 'c'],
      message: 'forbidden_character',
    });
    expect(hostileInput(Buffer.from([0]))).toBeUndefined();
    // the shape fast-querystring parses into: an object whose prototype has no prototype
    const query = Object.create(Object.create(null)) as Record<string, string>;
    query.search = '\u0000';
    expect(hostileInput(query)).toEqual({ path: ['search'], message: 'forbidden_character' });
  });
});

describe('ids out of range', () => {
  test('path ids that are not numbers or pass bigint name nothing: 404, as unknown ones', async () => {
    for (const id of ['abc', '-1', '1.5', '99999999999999999999', '9223372036854775808']) {
      const res = await admin.get(`/api/campaigns/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    for (const id of ['0', '2147483648', '999999999999999999']) {
      const res = await admin.get(`/api/campaigns/${id}`);
      expect(res.statusCode, id).toBe(404);
    }
  });

  test('negative and huge pages are 422, the largest page is an empty list', async () => {
    for (const q of ['page=-1', 'page=0', 'limit=100000', 'limit=0', 'page=1e400', 'page=abc']) {
      const res = await admin.get(`/api/users?${q}`);
      expect(res.statusCode, q).toBe(422);
    }
    const far = await admin.get('/api/users?page=9007199254740991&limit=500');
    expect(far.statusCode).toBe(200);
    expect(far.json().items).toEqual([]);
  });
});

describe('malformed grants on /api/auth/token', () => {
  test('a missing, unknown or repeated grant_type is a 422 on grant_type', async () => {
    const type = 'application/x-www-form-urlencoded';
    for (const payload of [
      'username=a%40b.io&password=x',
      'grant_type=client_credentials',
      'grant_type=password&grant_type=refresh_token&username=a&password=b',
      '',
    ]) {
      const res = await token(payload, type);
      expect(res.statusCode, payload).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ field: 'grant_type', code: expect.any(String) });
    }
  });

  test('arrays for fields and JSON of the wrong shape are 422 on the field', async () => {
    const repeated = await token(
      'grant_type=password&username=a&username=b&password=x',
      'application/x-www-form-urlencoded',
    );
    expect(repeated.statusCode).toBe(422);
    expect(repeated.json().errors[0].field).toBe('username');
    const json = await token('{"grant_type":"password","username":["a"],"password":1}', 'application/json');
    expect(json.statusCode).toBe(422);
    expect(json.json().errors.map((e: { field: string }) => e.field)).toEqual(['username', 'password']);
    for (const body of ['[]', 'null', '"x"']) {
      const res = await token(body, 'application/json');
      expect(res.statusCode, body).toBe(422);
    }
  });

  test('an empty body without a type is a 422, an unreadable one an OAuth 400 invalid_request', async () => {
    expect((await token(undefined)).statusCode).toBe(422);
    for (const [payload, type] of [
      ['', 'application/json'],
      ['{"grant_type":', 'application/json'],
    ] as const) {
      const res = await token(payload, type);
      expect(res.statusCode, `${type} ${payload}`).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    }
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/api/auth/revoke',
      payload: '{"token":',
      headers: { 'content-type': 'application/json' },
    });
    expect(revoke.statusCode).toBe(400);
    expect(revoke.json().error).toBe('invalid_request');
  });

  test('an empty body labelled JSON is no body: a DELETE or a copy is judged on its ids and rights', async () => {
    const owner = await register(t.app);
    const api = as(t.app, owner.access_token);
    const campaign = (
      await api.post('/api/campaigns', { campaign: { title: 'Empty body', clickprice: 0.1 } })
    ).json();
    const stranger = await register(t.app);
    const send = (method: 'DELETE' | 'POST', url: string, bearer: string) =>
      t.app.inject({
        method,
        url,
        payload: '',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      });
    expect((await send('DELETE', `/api/campaigns/${campaign._id}`, stranger.access_token)).statusCode).toBe(
      404,
    );
    expect((await send('POST', `/api/campaigns/copy/${campaign._id}`, owner.access_token)).statusCode).toBe(
      201,
    );
    // a call that needs a body says which fields are missing
    const create = await send('POST', '/api/campaigns', owner.access_token);
    expect(create.statusCode).toBe(422);
    expect((await send('DELETE', `/api/campaigns/${campaign._id}`, owner.access_token)).statusCode).toBe(204);
  });

  test('a text body is a 415, and wrong credentials stay invalid_grant', async () => {
    const text = await token('grant_type=password', 'text/plain');
    expect(text.statusCode).toBe(415);
    const wrong = await token(
      new URLSearchParams({ grant_type: 'password', username: ADMIN.email, password: 'nope' }).toString(),
      'application/x-www-form-urlencoded',
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
  });
});
