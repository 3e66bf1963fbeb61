import { afterAll, beforeAll, expect, test } from 'vitest';
import { as, createTestApp, register, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let api: ReturnType<typeof as>;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await register(t.app)).access_token;
  api = as(t.app, token);
});
afterAll(() => t.close());

interface Country {
  code: string;
  name: string;
}
interface City {
  id: number;
  name: string;
  country: string;
  population: number;
}

const BERLIN = 2950159;
const MOSCOW = 524901;

test('countries: every ISO 3166-1 code, named in the asked language and sorted by name', async () => {
  const res = await api.get('/api/geo/countries?lang=ru');
  expect(res.statusCode).toBe(200);
  const list = res.json() as Country[];
  expect(list.length).toBeGreaterThanOrEqual(249);
  expect(new Set(list.map((c) => c.code)).size).toBe(list.length);
  expect(list.every((c) => /^[A-Z]{2}$/.test(c.code) && c.name.length > 0)).toBe(true);
  expect(list.find((c) => c.code === 'DE')?.name).toBe('Германия');
  expect(list.find((c) => c.code === 'UA')?.name).toBe('Украина');
  const names = list.map((c) => c.name);
  expect(names).toEqual([...names].sort(new Intl.Collator('ru', { sensitivity: 'base' }).compare));
  expect(names[0]?.startsWith('А')).toBe(true);
});

test.each([
  ['en', 'Germany'],
  ['uk', 'Німеччина'],
  ['de', 'Deutschland'],
  ['fr', 'Allemagne'],
  ['pt', 'Alemanha'],
])('countries in %s name DE %s', async (lang, name) => {
  const list = (await api.get(`/api/geo/countries?lang=${lang}`)).json() as Country[];
  expect(list.find((c) => c.code === 'DE')?.name).toBe(name);
});

test("countries default to the caller's language", async () => {
  const headers = { authorization: `Bearer ${token}` };
  const de = await t.app.inject({
    method: 'GET',
    url: '/api/geo/countries',
    headers: { ...headers, 'accept-language': 'de-DE,de;q=0.9' },
  });
  expect(de.statusCode).toBe(200);
  expect((de.json() as Country[]).find((c) => c.code === 'FR')?.name).toBe('Frankreich');
  const none = await t.app.inject({ method: 'GET', url: '/api/geo/countries', headers });
  expect((none.json() as Country[]).find((c) => c.code === 'FR')?.name).toBe('France');
});

test('countries refuse a language the dashboard does not speak', async () => {
  const res = await api.get('/api/geo/countries?lang=xx');
  expect(res.statusCode).toBe(422);
});

test('cities: a prefix in one country finds the largest first', async () => {
  const res = await api.get('/api/geo/cities?q=berl&country=DE');
  expect(res.statusCode).toBe(200);
  const list = res.json() as City[];
  expect(list[0]).toEqual({ id: BERLIN, name: 'Berlin', country: 'DE', population: expect.any(Number) });
  expect(list.length).toBeGreaterThan(1);
  for (const c of list) {
    expect(c.country).toBe('DE');
    expect(c.name.toLowerCase().startsWith('berl')).toBe(true);
  }
  const populations = list.map((c) => c.population);
  expect(populations).toEqual([...populations].sort((a, b) => b - a));
});

test('cities: the prefix matches from the start, in any case, in every country when none is given', async () => {
  const upper = (await api.get('/api/geo/cities?q=BERLIN')).json() as City[];
  expect(upper[0]?.id).toBe(BERLIN);
  expect(new Set(upper.map((c) => c.country)).size).toBeGreaterThan(1);
  // 'erlin' is inside Berlin, not at its start
  const inner = (await api.get('/api/geo/cities?q=erlin&country=DE')).json() as City[];
  expect(inner.some((c) => c.id === BERLIN)).toBe(false);
  const moscow = (await api.get('/api/geo/cities?q=mosc&country=RU')).json() as City[];
  expect(moscow[0]?.id).toBe(MOSCOW);
});

test('cities: accents are ignored', async () => {
  const zurich = (await api.get('/api/geo/cities?q=zurich&country=CH')).json() as City[];
  expect(zurich[0]?.name).toBe('Zürich');
  const koeln = (await api.get(`/api/geo/cities?q=${encodeURIComponent('KÖL')}&country=DE`)).json() as City[];
  expect(koeln[0]?.name).toBe('Köln');
  const krakow = (await api.get('/api/geo/cities?q=krakow&country=PL')).json() as City[];
  expect(krakow[0]?.name).toBe('Kraków');
});

test("cities: the package's altName (an alternative country code) is not searched as a name", async () => {
  // the towns of Åland (AX) carry altName 'FI'; no Åland town name starts with 'fi'
  const list = (await api.get('/api/geo/cities?q=fi&country=AX')).json() as City[];
  expect(list.every((c) => c.name.toLowerCase().startsWith('fi'))).toBe(true);
  expect(list.map((c) => c.name)).toEqual(['Finström']);
});

test('cities: at most 50, sorted by population', async () => {
  const list = (await api.get('/api/geo/cities?q=san')).json() as City[];
  expect(list).toHaveLength(50);
  const populations = list.map((c) => c.population);
  expect(populations).toEqual([...populations].sort((a, b) => b - a));
  const country = (await api.get('/api/geo/cities?country=FR')).json() as City[];
  expect(country).toHaveLength(50);
  expect(country[0]?.name).toBe('Paris');
});

test('cities: a prefix nothing starts with finds nothing', async () => {
  const res = await api.get('/api/geo/cities?q=zzzzqqq');
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual([]);
});

test('cities: ids return those exact cities for a saved targeting, unknown ids left out', async () => {
  const res = await api.get(`/api/geo/cities?ids=${MOSCOW},${BERLIN},999999999`);
  expect(res.statusCode).toBe(200);
  expect((res.json() as City[]).map((c) => [c.id, c.name, c.country])).toEqual([
    [MOSCOW, 'Moscow', 'RU'],
    [BERLIN, 'Berlin', 'DE'],
  ]);
  const one = (await api.get(`/api/geo/cities?ids=${BERLIN}`)).json() as City[];
  expect(one).toHaveLength(1);
});

test.each([
  ['a three-letter country', '/api/geo/cities?q=berl&country=DEU'],
  ['a lower-case country', '/api/geo/cities?q=berl&country=de'],
  ['ids that are not numbers', '/api/geo/cities?ids=1,abc'],
  ['an empty id', '/api/geo/cities?ids=1,,2'],
  ['too many ids', `/api/geo/cities?ids=${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}`],
  ['a very long prefix', `/api/geo/cities?q=${'a'.repeat(101)}`],
])('cities refuse %s with 422', async (_, url) => {
  const res = await api.get(url);
  expect(res.statusCode).toBe(422);
  expect(res.json().errors.length).toBeGreaterThan(0);
});

test.each([
  '/api/geo/countries',
  '/api/geo/countries?lang=ru',
  '/api/geo/cities?q=berl',
  '/api/geo/cities?ids=1',
])('%s needs a logged-in caller', async (url) => {
  expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  const bad = await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nonsense' } });
  expect(bad.statusCode).toBe(401);
});
