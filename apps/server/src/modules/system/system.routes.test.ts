import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import {
  publisherWithWidget,
  runningCampaign,
  settle,
} from '../../delivery/delivery-fixtures.test-helper.ts';
import { jobOutcome } from '../../lib/job-outcome.ts';
import { ADMIN, as, createTestApp, form, login, type TestApp, userWithRole } from '../../test/test-app.ts';

const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' };
let t: TestApp;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  // with Redis when the run has one (npm run test:pg, CI): its ping is checked too
  const redisUrl = process.env.TEST_REDIS_URL;
  t = await createTestApp(redisUrl ? { REDIS_URL: redisUrl } : {});
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(async () => {
  await t.close();
});

const setMaintenance = (enabled: unknown, api = admin) =>
  api.put('/api/system/maintenance', { maintenance: { enabled } });

describe('GET /api/system', () => {
  test('the parts answer: database ping, Redis, ad index size, buffers, versions', async () => {
    const p = await publisherWithWidget(t, admin);
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    await settle(t);
    // an answer and its impression beacon put events in the buffer; the flush writes them
    const served = await t.app.inject({
      method: 'GET',
      url: `/serve/widgets/${p.widget._id}`,
      headers: browser,
    });
    expect(served.statusCode, served.body).toBe(200);
    const imp = await t.app.inject({ method: 'GET', url: served.json().impression_url, headers: browser });
    expect(imp.statusCode).toBe(204);
    await contextOf(t.app).delivery.engine.flush();

    const res = await admin.get('/api/system');
    expect(res.statusCode, res.body).toBe(200);
    const h = res.json();
    expect(h.database).toMatchObject({
      status: 'ok',
      driver: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
      error: null,
    });
    expect(h.database.ping_ms).toBeGreaterThanOrEqual(0);
    if (process.env.TEST_REDIS_URL) {
      expect(h.redis).toMatchObject({ status: 'ok', error: null });
      expect(h.redis.ping_ms).toBeGreaterThanOrEqual(0);
    } else expect(h.redis).toEqual({ status: 'not_configured', ping_ms: null, error: null });
    expect(h.ad_index.campaigns).toBeGreaterThanOrEqual(1);
    expect(h.ad_index.creatives).toBeGreaterThanOrEqual(1);
    expect(h.ad_index.widgets).toBeGreaterThanOrEqual(1);
    expect(h.ad_index.last_error).toBeNull();
    expect(Date.now() - Date.parse(h.ad_index.built_at)).toBeLessThan(60_000);
    expect(h.buffers.map((b: { name: string }) => b.name)).toEqual([
      'events',
      'traffic',
      'clicks',
      'dsp_stats',
    ]);
    const events = h.buffers.find((b: { name: string }) => b.name === 'events');
    expect(events.queued).toBe(0);
    expect(Date.now() - Date.parse(events.last_flush_at)).toBeLessThan(60_000);
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(h.versions.app).toBe(pkg.version);
    expect(h.versions.node).toBe(process.version);
    expect(h.versions.db).toMatch(process.env.TEST_DATABASE_URL ? /^PostgreSQL \d+/ : /^PGlite \d+/);
    expect(h.maintenance).toEqual({ enabled: false, changed_at: null });
  });

  test('jobs: last run, result and next run; a failed one says so and comes back after its retry time', async () => {
    const { jobs } = contextOf(t.app);
    const HOUR = 3600_000;
    jobs.schedule('system-test-ok', HOUR, async () => 'refreshed 3 sites');
    // a result the dashboard says in its language: its code and values travel with the English text
    jobs.schedule('system-test-outcome', HOUR, async () =>
      jobOutcome('materials', 'stored 4, purged 1', { stored: 4, purged: 1 }),
    );
    jobs.schedule(
      'system-test-failing',
      HOUR,
      async () => {
        throw new Error('feed unreachable');
      },
      { retryMs: 60_000 },
    );
    expect(await jobs.tick('system-test-ok')).toBe(true);
    expect(await jobs.tick('system-test-failing')).toBe(true);
    expect(await jobs.tick('system-test-outcome')).toBe(true);
    const res = await admin.get('/api/system');
    const list = res.json().jobs as {
      name: string;
      last_run_at: string;
      next_run_at: string;
      last_result: string;
      failed: boolean;
      every_ms: number;
    }[];
    const ok = list.find((j) => j.name === 'system-test-ok');
    const failing = list.find((j) => j.name === 'system-test-failing');
    expect(ok).toMatchObject({
      last_result: 'refreshed 3 sites',
      failed: false,
      every_ms: HOUR,
      kind: 'shared',
    });
    expect(Math.abs(Date.now() - Date.parse(ok!.last_run_at))).toBeLessThan(30_000);
    expect(Date.parse(ok!.next_run_at) - Date.parse(ok!.last_run_at)).toBe(HOUR);
    expect(failing).toMatchObject({ last_result: 'failed: feed unreachable', failed: true });
    expect(ok).toMatchObject({ last_result_code: null, last_result_values: null });
    expect(list.find((j) => j.name === 'system-test-outcome')).toMatchObject({
      last_result: 'stored 4, purged 1',
      last_result_code: 'materials',
      last_result_values: { stored: 4, purged: 1 },
    });
    // the run was now (not an hour ago) and the next one comes after the retry time, not a whole period
    expect(Math.abs(Date.now() - Date.parse(failing!.last_run_at))).toBeLessThan(30_000);
    const retryIn = Date.parse(failing!.next_run_at) - Date.now();
    expect(retryIn).toBeGreaterThan(0);
    expect(retryIn).toBeLessThanOrEqual(60_000);
  });

  test('admins and read-only admins read it; other roles are refused, anonymous callers must log in', async () => {
    const readonly = await userWithRole(t, 'adminreadonly');
    expect((await as(t.app, readonly.access_token).get('/api/system')).statusCode).toBe(200);
    for (const role of ['default', 'defaultreadonly', 'agency', 'agencymember', 'dummy']) {
      const u = await userWithRole(t, role);
      expect((await as(t.app, u.access_token).get('/api/system')).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/system' })).statusCode).toBe(401);
  });
});

describe('the maintenance switch', () => {
  test('only admins switch it; a bad value is a 422 on the field', async () => {
    const readonly = await userWithRole(t, 'adminreadonly');
    const user = await userWithRole(t, 'default');
    expect((await setMaintenance(true, as(t.app, readonly.access_token))).statusCode).toBe(403);
    expect((await setMaintenance(true, as(t.app, user.access_token))).statusCode).toBe(403);
    const bad = await setMaintenance('yes');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].field).toBe('enabled');
    expect((await t.app.inject({ method: 'GET', url: '/api/system/maintenance' })).json().enabled).toBe(
      false,
    );
  });

  test('on: non-admins get 503 with the translated message, admins and delivery keep working; off: back', async () => {
    const p = await publisherWithWidget(t, admin);
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    await settle(t);
    const advertiser = await userWithRole(t, 'default');
    const readonly = await userWithRole(t, 'adminreadonly');
    const agency = await userWithRole(t, 'agency');

    const on = await setMaintenance(true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().enabled).toBe(true);
    expect(Date.now() - Date.parse(on.json().changed_at)).toBeLessThan(60_000);
    // anyone may ask, logged in or not: the dashboard decides what to show before login
    const state = await t.app.inject({ method: 'GET', url: '/api/system/maintenance' });
    expect(state.json()).toEqual(on.json());

    for (const u of [advertiser, agency]) {
      const me = await as(t.app, u.access_token).get('/api/auth/me');
      expect(me.statusCode).toBe(503);
      expect(me.json()).toEqual({
        error: 'maintenance',
        message: 'The platform is under maintenance. Please try again a little later',
      });
      expect((await as(t.app, u.access_token).get('/api/campaigns')).statusCode).toBe(503);
    }
    const german = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${advertiser.access_token}`, 'accept-language': 'de' },
    });
    expect(german.json().message).toBe(
      'Die Plattform wird gerade gewartet. Bitte versuchen Sie es etwas später noch einmal',
    );
    // a non-admin cannot log in or refresh (and the session the refusal made is gone); nobody registers
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      ...form({ grant_type: 'password', username: advertiser.email, password: advertiser.password }),
    });
    expect(refused.statusCode).toBe(503);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      ...form({ grant_type: 'refresh_token', refresh_token: advertiser.refresh_token }),
    });
    expect(refresh.statusCode).toBe(503);
    // refused before it was spent: the session outlives the maintenance
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'N',
        email: 'new-in-maintenance@test.local',
        password: 'password-123',
        privacy_policy_agreed: true,
      },
    });
    expect(registered.statusCode).toBe(503);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          payload: { email: advertiser.email },
        })
      ).statusCode,
    ).toBe(503);

    // admins keep working, read-only admins too, and an admin still logs in
    expect((await admin.get('/api/campaigns')).statusCode).toBe(200);
    expect((await as(t.app, readonly.access_token).get('/api/system')).statusCode).toBe(200);
    const again = await login(t.app, ADMIN.email, ADMIN.password);
    expect(again.role).toBe('admin');

    // ad serving never stops: the answer, its beacon, the click and its redirect
    const served = await t.app.inject({
      method: 'GET',
      url: `/serve/widgets/${p.widget._id}`,
      headers: browser,
    });
    expect(served.statusCode).toBe(200);
    const sponsored = served.json().items.find((i: { sponsored: boolean }) => i.sponsored);
    expect(
      (await t.app.inject({ method: 'GET', url: served.json().impression_url, headers: browser })).statusCode,
    ).toBe(204);
    const click = await t.app.inject({
      method: 'GET',
      url: new URL(sponsored.url).pathname,
      headers: browser,
    });
    expect(click.statusCode).toBe(302);

    const off = await setMaintenance(false);
    expect(off.json().enabled).toBe(false);
    expect((await as(t.app, advertiser.access_token).get('/api/auth/me')).statusCode).toBe(200);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      ...form({ grant_type: 'refresh_token', refresh_token: advertiser.refresh_token }),
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect((await login(t.app, advertiser.email, advertiser.password)).role).toBe('default');
  });

  test('the public answer may be kept for 30 s by a browser or a proxy; the switch itself is never cached', async () => {
    // every anonymous page load asks: the answer is the same for everyone, so a shared cache may keep it
    const state = await t.app.inject({ method: 'GET', url: '/api/system/maintenance' });
    expect(state.statusCode).toBe(200);
    expect(state.headers['cache-control']).toBe('public, max-age=30');
    expect(state.headers.vary ?? '').not.toMatch(/authorization|cookie/i);
    const on = await setMaintenance(true);
    expect(on.headers['cache-control'] ?? 'no-store').not.toMatch(/max-age=[1-9]|public/);
    // the server's own answer follows the switch at once (the web app's re-check asks past the browser's cache)
    const now = await t.app.inject({ method: 'GET', url: '/api/system/maintenance' });
    expect(now.json().enabled).toBe(true);
    expect((await setMaintenance(false)).json().enabled).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/system/maintenance' })).json().enabled).toBe(
      false,
    );
  });
});
