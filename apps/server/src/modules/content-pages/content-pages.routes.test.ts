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
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

const bodies = (over: Record<string, string> = {}) => ({
  en: '## Payments\nWe pay on the 1st of each month.\n- PayPal\n- Wire',
  ru: '## Выплаты\nМы платим 1-го числа каждого месяца.',
  uk: '',
  de: '## Auszahlungen\nWir zahlen am 1. jedes Monats.',
  fr: '',
  pt: '',
  ...over,
});

const get = (url: string, language?: string) =>
  t.app.inject({ method: 'GET', url, headers: language ? { 'accept-language': language } : {} });

describe('FAQ and contacts pages', () => {
  test('empty before an admin writes them; public to read, no token needed', async () => {
    for (const slug of ['faq', 'contacts']) {
      const res = await get(`/api/pages/${slug}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ slug, locale: 'en', body: '', updated_at: null });
    }
    expect((await get('/api/pages/about')).statusCode).toBe(404);
  });

  test('an admin writes six languages at once; each reader gets theirs, English when theirs is empty', async () => {
    const res = await admin.put('/api/pages/faq', {
      page: { bodies: bodies({ fr: '  \r\nFAQ en français\r\n' }) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().bodies).toEqual(bodies({ fr: 'FAQ en français' }));
    expect(res.json().updated_at).toEqual(expect.any(String));

    expect((await get('/api/pages/faq', 'ru')).json()).toMatchObject({ locale: 'ru', body: bodies().ru });
    expect((await get('/api/pages/faq', 'de-DE,de;q=0.9')).json()).toMatchObject({
      locale: 'de',
      body: bodies().de,
    });
    expect((await get('/api/pages/faq', 'fr')).json()).toMatchObject({
      locale: 'fr',
      body: 'FAQ en français',
    });
    // Ukrainian has no text yet: the English one, said as English
    expect((await get('/api/pages/faq', 'uk')).json()).toMatchObject({ locale: 'en', body: bodies().en });
    // ?locale= wins over the header (the dashboard's chosen language)
    expect((await get('/api/pages/faq?locale=ru', 'de')).json()).toMatchObject({ locale: 'ru' });
    // the contacts page is its own
    expect((await get('/api/pages/contacts')).json().body).toBe('');

    // a second save replaces every language, an emptied one included
    await admin.put('/api/pages/faq', { page: { bodies: bodies({ ru: '' }) } });
    expect((await get('/api/pages/faq', 'ru')).json()).toMatchObject({ locale: 'en', body: bodies().en });
    expect((await admin.get('/api/pages/faq/edit')).json().bodies.ru).toBe('');
  });

  test('HTML is stored and answered as the text it is (the dashboard renders it as text)', async () => {
    const text = 'Write to <b>us</b> <script>alert(1)</script> at help@example.com';
    await admin.put('/api/pages/contacts', { page: { bodies: bodies({ en: text }) } });
    const res = await get('/api/pages/contacts');
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().body).toBe(text);
  });

  test('only admins write; read-only admins read the form; everyone else neither', async () => {
    const ro = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await ro.get('/api/pages/faq/edit')).statusCode).toBe(200);
    expect((await ro.put('/api/pages/faq', { page: { bodies: bodies() } })).statusCode).toBe(403);
    for (const role of ['default', 'defaultreadonly', 'agency', 'agencymember', 'dummy']) {
      const u = as(t.app, (await userWithRole(t, role)).access_token);
      expect((await u.get('/api/pages/faq/edit')).statusCode, role).toBe(403);
      expect(
        (await u.put('/api/pages/faq', { page: { bodies: bodies({ en: 'x' }) } })).statusCode,
        role,
      ).toBe(403);
    }
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: '/api/pages/faq',
      payload: { page: { bodies: bodies() } },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await get('/api/pages/faq')).json().body).toBe(bodies({ ru: '' }).en);
  });

  test('every language is required; over 20,000 characters is a 422 on that field; the message is translated', async () => {
    const { fr: _, ...five } = bodies();
    const missing = await admin.put('/api/pages/faq', { page: { bodies: five } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0].field).toMatch(/fr/);
    const long = await t.app.inject({
      method: 'PUT',
      url: '/api/pages/faq',
      headers: {
        authorization: `Bearer ${(await login(t.app, ADMIN.email, ADMIN.password)).access_token}`,
        'accept-language': 'de',
      },
      payload: { page: { bodies: bodies({ de: 'x'.repeat(20_001) }) } },
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors[0].field).toMatch(/de/);
    expect(long.json().errors[0].detail).toMatch(/20000|20.000/);
    const u = await register(t.app);
    expect((await as(t.app, u.access_token).get('/api/pages/faq')).statusCode).toBe(200);
  });
});
