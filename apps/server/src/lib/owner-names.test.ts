import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
const people: Record<string, { user_id: string; api: ReturnType<typeof as>; email: string }> = {};
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  for (const [i, name] of ['Anna Karenina', 'Boris 100%_off'].entries()) {
    const u = await register(t.app, { name, email: `owner${i}-${Date.now()}@names.example` });
    const api = as(t.app, u.access_token);
    await api.post('/api/campaigns', { campaign: { title: `${name} sale`, clickprice: 0.3 } });
    await api.post('/api/sites', {
      site: { title: `${name} site`, domain: `owner${i}-${Date.now()}.example`, category: 'news' },
    });
    await api.post('/api/pixels', { pixel: { title: `${name} pixel` } });
    people[name] = { user_id: u.user_id, api, email: u.email };
  }
});
afterAll(() => t.close());

const titles = (res: { json: () => { items: { title: string }[] } }) => res.json().items.map((i) => i.title);

describe("owners' names in lists", () => {
  test('campaign, site and pixel lists carry the owner name of each row', async () => {
    const anna = people['Anna Karenina']!;
    for (const url of ['/api/campaigns', '/api/sites', '/api/pixels']) {
      const res = await admin.get(`${url}?limit=500`);
      expect(res.statusCode).toBe(200);
      const row = res.json().items.find((i: { user_id: string }) => i.user_id === anna.user_id);
      expect(row.user_name).toBe('Anna Karenina');
    }
  });

  test('owner= matches the name or the e-mail, ignoring case; wildcards are taken literally', async () => {
    expect(titles(await admin.get('/api/campaigns?owner=karen'))).toEqual(['Anna Karenina sale']);
    const byMail = await admin.get(
      `/api/sites?owner=${encodeURIComponent(people['Boris 100%_off']!.email.toUpperCase())}`,
    );
    expect(titles(byMail)).toEqual(['Boris 100%_off site']);
    expect(titles(await admin.get(`/api/campaigns?owner=${encodeURIComponent('100%_off')}`))).toEqual([
      'Boris 100%_off sale',
    ]);
    expect(titles(await admin.get(`/api/campaigns?owner=${encodeURIComponent('%')}`))).toEqual([
      'Boris 100%_off sale',
    ]);
    expect((await admin.get('/api/campaigns?owner=nobody-has-this')).json().total).toBe(0);
  });

  test('the owner filter never widens what a user may read', async () => {
    const anna = people['Anna Karenina']!;
    expect(titles(await anna.api.get('/api/campaigns?owner=boris'))).toEqual([]);
    expect(titles(await anna.api.get('/api/sites?owner=anna'))).toEqual(['Anna Karenina site']);
  });
});
