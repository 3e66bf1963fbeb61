import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { currencies, jobs, users } from '../../db/schema/index.ts';
import { createJobRunner, readResult } from '../../lib/jobs.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';
import { createCurrenciesRepository } from './currencies.repository.ts';
import {
  CURRENCY_RATES_JOB,
  createCurrenciesService,
  defaultCurrencies,
  scheduleCurrencyJobs,
} from './currencies.service.ts';
import { ecbRateSource } from './rate-sources.ts';
import { createRatesCache } from './rates.ts';

const fixture = readFileSync(new URL('./fixtures/eurofxref-daily.xml', import.meta.url));

/** A stand-in for the ECB: serves the saved file, or fails / stalls / floods when told to. */
let feed: Server;
let feedUrl: string;
let feedMode: 'ok' | 'error' | 'huge' | 'stall' = 'ok';
let feedHits = 0;

let t: TestApp;
let admin: ReturnType<typeof as>;
let adminToken: string;

beforeAll(async () => {
  feed = createServer((_req, res) => {
    feedHits += 1;
    if (feedMode === 'stall') return; // never answers
    if (feedMode === 'error') {
      res.writeHead(503).end('maintenance');
      return;
    }
    if (feedMode === 'huge') {
      res.writeHead(200, { 'content-type': 'text/xml' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let i = 0; i < 40; i++) res.write(chunk);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/xml' }).end(fixture);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/stats/eurofxref/eurofxref-daily.xml`;
  t = await createTestApp({ CURRENCY_RATES_URL: feedUrl });
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).access_token;
  admin = as(t.app, adminToken);
});
afterAll(async () => {
  await t.close();
  feed.closeAllConnections();
  await new Promise((resolve) => feed.close(resolve));
});

const byCode = async (code: string) =>
  (await t.database.db.select().from(currencies).where(eq(currencies.code, code)))[0]!;

describe('reading', () => {
  test('every logged-in role with rights reads the paged list of seeded currencies', async () => {
    for (const role of ['admin', 'adminreadonly', 'default', 'defaultreadonly', 'agency', 'agencymember']) {
      const u = await userWithRole(t, role);
      const res = await as(t.app, u.access_token).get('/api/currencies?limit=500');
      expect(res.statusCode, role).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ page: 1, limit: 500, total: defaultCurrencies.length });
      expect(body.items.map((c: { code: string }) => c.code)).toEqual(defaultCurrencies.map((c) => c.code));
    }
  });

  test('the seed has USD at 1 and the others unknown until loaded', async () => {
    const res = await admin.get('/api/currencies?limit=3');
    expect(res.json()).toMatchObject({ total: defaultCurrencies.length, limit: 3 });
    const [usd, eur, gbp] = res.json().items;
    expect(usd).toMatchObject({ code: 'USD', symbol: '$', rate: 1, rate_source: 'platform' });
    expect(eur).toMatchObject({ code: 'EUR', name: 'Euro', symbol: '€' });
    expect(gbp).toMatchObject({ code: 'GBP', symbol: '£' });
    const rub = await byCode('RUB');
    expect(rub).toMatchObject({ symbol: '₽', rate: null, rateSource: null, updatedAt: null });
    const page2 = await admin.get('/api/currencies?page=2&limit=3');
    expect(page2.json().items[0].code).toBe('CHF');
  });

  test('a dummy user gets 403, no token 401', async () => {
    const d = await userWithRole(t, 'dummy');
    expect((await as(t.app, d.access_token).get('/api/currencies')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/currencies' })).statusCode).toBe(401);
  });

  test('one currency by id; unknown or malformed id 404', async () => {
    const u = await register(t.app);
    const gbp = await byCode('GBP');
    const res = await as(t.app, u.access_token).get(`/api/currencies/${gbp.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: String(gbp.id), code: 'GBP', name: 'Pound sterling' });
    expect((await admin.get('/api/currencies/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/currencies/GBP')).statusCode).toBe(404);
  });

  test('seeding again keeps what is there', async () => {
    const repo = createCurrenciesRepository(t.database.db);
    await t.database.db.update(currencies).set({ name: 'Renamed' }).where(eq(currencies.code, 'CZK'));
    await repo.seed(defaultCurrencies);
    expect((await byCode('CZK')).name).toBe('Renamed');
    expect((await admin.get('/api/currencies')).json().total).toBe(defaultCurrencies.length);
  });
});

describe('editing', () => {
  test('an admin sets a manual rate: source manual, dated now', async () => {
    const rub = await byCode('RUB');
    const before = Date.now();
    const res = await admin.put(`/api/currencies/${rub.id}`, { currency: { rate: 81.25, symbol: '₽' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'RUB', rate: 81.25, rate_source: 'manual' });
    expect(Date.parse(res.json().last_update)).toBeGreaterThanOrEqual(before - 1000);
    expect((await byCode('RUB')).rate).toBe('81.2500000000');
  });

  test('name and symbol change without touching the rate', async () => {
    const chf = await byCode('CHF');
    const res = await admin.put(`/api/currencies/${chf.id}`, { currency: { name: 'Franc', symbol: 'Fr.' } });
    expect(res.json()).toMatchObject({ name: 'Franc', symbol: 'Fr.', rate: null, rate_source: null });
  });

  test('a readonly admin and the other roles cannot edit', async () => {
    const gbp = await byCode('GBP');
    for (const role of ['adminreadonly', 'default', 'defaultreadonly', 'agency', 'agencymember']) {
      const u = await userWithRole(t, role);
      const res = await as(t.app, u.access_token).put(`/api/currencies/${gbp.id}`, { currency: { rate: 2 } });
      expect(res.statusCode, role).toBe(403);
    }
    expect((await byCode('GBP')).rate).toBeNull();
  });

  test('bad input is 422 with a translated detail', async () => {
    const gbp = await byCode('GBP');
    const neg = await admin.put(`/api/currencies/${gbp.id}`, { currency: { rate: -1 } });
    expect(neg.statusCode).toBe(422);
    expect(neg.json().errors[0]).toMatchObject({ field: 'rate', code: 'positive' });
    expect(neg.json().errors[0].detail).toMatch(/Rate/);
    const blank = await t.app.inject({
      method: 'PUT',
      url: `/api/currencies/${gbp.id}`,
      headers: { authorization: `Bearer ${adminToken}`, 'accept-language': 'de' },
      payload: { currency: { symbol: ' ', extra: 1 } },
    });
    expect(blank.statusCode).toBe(422);
    expect(
      blank
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['extra', 'symbol']);
    expect(blank.json().errors.find((e: { field: string }) => e.field === 'symbol').detail).toBe(
      'Symbol darf nicht leer sein',
    );
    expect((await admin.put(`/api/currencies/${gbp.id}`, { rate: 2 })).statusCode).toBe(422);
    expect((await admin.put(`/api/currencies/${gbp.id}`, { currency: {}, junk: 1 })).statusCode).toBe(422);
    // a rate that 10 decimals would store as 0
    const tiny = await admin.put(`/api/currencies/${gbp.id}`, { currency: { rate: 1e-11 } });
    expect(tiny.statusCode).toBe(422);
    expect(tiny.json().errors).toHaveLength(1);
    expect(neg.json().errors).toHaveLength(1);
    // nothing sent: nothing changes (it answered 500)
    const before = (await admin.get(`/api/currencies/${gbp.id}`)).json();
    const empty = await admin.put(`/api/currencies/${gbp.id}`, { currency: {} });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual(before);
    expect((await admin.put('/api/currencies/999999', { currency: { rate: 2 } })).statusCode).toBe(404);
  });

  test('the platform currency keeps rate 1', async () => {
    const usd = await byCode('USD');
    const res = await admin.put(`/api/currencies/${usd.id}`, { currency: { rate: 2 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'rate', code: 'platform_rate_fixed' });
    expect(res.json().errors[0].detail).not.toBe('platform_rate_fixed');
    expect((await byCode('USD')).rate).toBe('1.0000000000');
  });
});

describe('automatic rates', () => {
  test('an admin loads the daily feed: ECB currencies are updated, RUB and UAH keep theirs', async () => {
    const uah = await byCode('UAH');
    await admin.put(`/api/currencies/${uah.id}`, { currency: { rate: 41.5 } });
    feedMode = 'ok';
    const res = await admin.post('/api/currencies/refresh');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ source: 'ecb', date: '2026-11-20' });
    expect(res.json().updated).toContain('EUR');
    expect(res.json().updated).not.toContain('RUB');
    expect(await byCode('EUR')).toMatchObject({ rate: '0.8634832916', rateSource: 'ecb' });
    expect(await byCode('GBP')).toMatchObject({ rate: '0.7608583024', rateSource: 'ecb' });
    expect(await byCode('JPY')).toMatchObject({ rate: '156.6617735947' });
    expect(await byCode('RUB')).toMatchObject({ rate: '81.2500000000', rateSource: 'manual' });
    expect(await byCode('UAH')).toMatchObject({ rate: '41.5000000000', rateSource: 'manual' });
    expect(await byCode('USD')).toMatchObject({ rate: '1.0000000000', rateSource: 'platform' });
    const list = (await admin.get('/api/currencies?limit=500')).json().items;
    expect(list.find((c: { code: string }) => c.code === 'EUR')).toMatchObject({ rate: 0.8634832916 });
  });

  test('the refresh is admin-only; a failing feed is 502 and changes nothing', async () => {
    const ro = await userWithRole(t, 'adminreadonly');
    expect((await as(t.app, ro.access_token).post('/api/currencies/refresh')).statusCode).toBe(403);
    feedMode = 'error';
    const res = await admin.post('/api/currencies/refresh');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      error: 'rates_unavailable',
      message: 'Exchange rates could not be loaded',
    });
    expect((await byCode('EUR')).rate).toBe('0.8634832916');
    feedMode = 'ok';
  });

  test('the scheduled job updates the rates once per period and records its result', async () => {
    await t.database.db.update(currencies).set({ rate: null }).where(eq(currencies.code, 'PLN'));
    const service = createCurrenciesService({
      repo: createCurrenciesRepository(t.database.db),
      rates: createRatesCache(),
      source: ecbRateSource(feedUrl),
    });
    const runner = createJobRunner(t.database.db, t.app.log, { timers: false });
    scheduleCurrencyJobs(runner, service);
    const hits = feedHits;
    expect(await runner.tick(CURRENCY_RATES_JOB)).toBe(true);
    expect(await runner.tick(CURRENCY_RATES_JOB)).toBe(false);
    expect(feedHits).toBe(hits + 1);
    expect((await byCode('PLN')).rate).toBe('3.6598739314');
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.name, CURRENCY_RATES_JOB));
    // kept as a result the System page translates: its English text, code and values
    const kept = readResult(job?.lastResult);
    expect(kept.text).toMatch(/^ecb 2026-11-20: \d+ rates/);
    expect(kept).toMatchObject({ code: 'currency_rates', values: { source: 'ecb', date: '2026-11-20' } });
    await runner.stop();
  });

  test('the fetch gives up on a huge or stalled answer', async () => {
    feedMode = 'huge';
    await expect(ecbRateSource(feedUrl, { maxBytes: 1024 * 1024 }).fetchRates()).rejects.toThrow(/larger/);
    feedMode = 'stall';
    await expect(ecbRateSource(feedUrl, { timeoutMs: 300 }).fetchRates()).rejects.toThrow();
    feedMode = 'ok';
  });
});

describe('display balance', () => {
  test("an account shows its balance in the user's currency; null while the rate is unknown", async () => {
    const u = await register(t.app);
    const id = Number(u.user_id);
    // 123.456789 USD
    await t.database.db.update(users).set({ balance: 123_456_789n, currency: 'EUR' }).where(eq(users.id, id));
    const me = as(t.app, u.access_token);
    // 123.456789 × 0.8634832916 = 106.6028749…, rounded half up to micros
    expect((await me.get(`/api/users/${u.user_id}`)).json()).toMatchObject({
      balance: 123.456789,
      currency: 'EUR',
      display_balance: 106.602875,
    });
    expect((await me.get('/api/auth/me')).json().account.display_balance).toBe(106.602875);
    await t.database.db.update(users).set({ currency: 'MXN' }).where(eq(users.id, id));
    await t.database.db.update(currencies).set({ rate: null }).where(eq(currencies.code, 'MXN'));
    const mxn = await byCode('MXN');
    // a rate changed through the API reloads the in-memory rates at once
    await admin.put(`/api/currencies/${mxn.id}`, { currency: { rate: 17.5 } });
    expect((await me.get(`/api/users/${u.user_id}`)).json().display_balance).toBe(2160.493808);
    await t.database.db.update(users).set({ currency: 'XXX' }).where(eq(users.id, id));
    expect((await me.get(`/api/users/${u.user_id}`)).json().display_balance).toBeNull();
    await t.database.db.update(users).set({ currency: 'USD' }).where(eq(users.id, id));
    expect((await me.get(`/api/users/${u.user_id}`)).json().display_balance).toBe(123.456789);
  });
});

describe('jobs wiring', () => {
  test('with jobs on, the app loads the rates shortly after start and stops its timers on close', async () => {
    feedMode = 'ok';
    const live = await createTestApp({ JOBS: 'on', CURRENCY_RATES_URL: feedUrl });
    try {
      const eurRate = async () =>
        (await live.database.db.select().from(currencies).where(eq(currencies.code, 'EUR')))[0]?.rate;
      expect(await eurRate()).toBeNull();
      const deadline = Date.now() + 10_000;
      while ((await eurRate()) === null && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(await eurRate()).toBe('0.8634832916');
      // the runner records the job's result after the run has written the rates: wait for it as well
      const result = async () =>
        (await live.database.db.select().from(jobs).where(eq(jobs.name, CURRENCY_RATES_JOB)))[0]
          ?.lastResult ?? null;
      const text = async () => readResult(await result()).text;
      while ((await result()) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await text()).toMatch(/^ecb 2026-11-20/);
    } finally {
      const started = Date.now();
      await live.close();
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });
});
