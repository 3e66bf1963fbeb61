import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// Two real server processes on one PostgreSQL database and one Redis, the way instances behind a load
// balancer run: shared daily limits, the balance, and a kill -9 under click load. Runs where
// TEST_DATABASE_URL and TEST_REDIS_URL are set (npm run test:pg, CI).
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Served {
  items: { sponsored: boolean; url: string }[];
  impression_url: string;
}

interface Instance {
  child: ChildProcess;
  base: string;
  port: number;
  exited: Promise<number | null>;
}

describe.skipIf(!pgUrl || !redisUrl)('several instances sharing PostgreSQL and Redis', () => {
  const dbName = `adp_test_${randomBytes(6).toString('hex')}`;
  const keyPrefix = `test:${randomBytes(4).toString('hex')}:`;
  const dataDir = mkdtempSync(join(tmpdir(), 'adp-instances-'));
  let databaseUrl = '';
  let sharedRedisUrl = '';
  let db: pg.Client;
  const running: Instance[] = [];

  async function start(port: number): Promise<Instance> {
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: sharedRedisUrl,
        ADMIN_EMAIL: 'admin@test.local',
        ADMIN_PASSWORD: 'admin-password-1',
        RATE_LIMIT: '0',
        LOG_LEVEL: 'warn',
        JOBS: 'off',
        WEB_DIST: '/nonexistent',
        DELIVERY_FLUSH_MS: '200',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const instance = { child, base, port, exited };
    running.push(instance);
    return instance;
  }
  async function stop(i: Instance, signal: NodeJS.Signals) {
    i.child.kill(signal);
    await i.exited;
    running.splice(running.indexOf(i), 1);
  }

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const target = new URL(pgUrl as string);
    target.pathname = `/${dbName}`;
    databaseUrl = target.toString();
    // every key of these servers under a prefix of its own (ioredis reads keyPrefix from the URL)
    const r = new URL(redisUrl as string);
    r.searchParams.set('keyPrefix', keyPrefix);
    sharedRedisUrl = r.toString();
  });
  afterAll(async () => {
    for (const i of [...running]) await stop(i, 'SIGKILL');
    await db?.end();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    const redis = new Redis(redisUrl as string);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(base: string, method: string, url: string, token?: string, body?: unknown) {
    const res = await fetch(base + url, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }
  let seq = 0;
  const registerUser = async (base: string) =>
    call(base, 'POST', '/api/auth/register', undefined, {
      name: `User ${++seq}`,
      email: `user${seq}-${randomBytes(3).toString('hex')}@test.local`,
      password: 'password-123',
      privacy_policy_agreed: true,
    }) as Promise<{ access_token: string; user_id: string }>;

  /** What one visitor's browser does: the widget's answer, its impression beacon, and the click URL. */
  async function servedToken(base: string, beaconBase: string, widgetId: string): Promise<string> {
    const vid = randomBytes(12).toString('base64url');
    const headers = { 'user-agent': chrome, cookie: `vid=${vid}` };
    const body = (await (await fetch(`${base}/serve/widgets/${widgetId}`, { headers })).json()) as Served;
    const ad = body.items.find((i) => i.sponsored);
    if (!ad) throw new Error(`no ad served: ${JSON.stringify(body)}`);
    const beacon = new URL(body.impression_url);
    expect((await fetch(beaconBase + beacon.pathname, { headers })).status).toBe(204);
    return new URL(ad.url).pathname.split('/click/')[1] as string;
  }
  async function click(base: string, token: string) {
    const res = await fetch(`${base}/click/${token}`, {
      redirect: 'manual',
      headers: { 'user-agent': chrome, cookie: `vid=${randomBytes(12).toString('base64url')}` },
    });
    await res.arrayBuffer();
    return { status: res.status, cid: new URL(res.headers.get('location') ?? 'x:/').searchParams.get('cid') };
  }
  const one = async <T>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows[0] as T;
  const charged = async (campaignId: string) =>
    (
      await one<{ n: number }>(
        `select count(*)::int n from clicks where status = 'charged' and campaign_id = $1`,
        [campaignId],
      )
    ).n;
  const balanceOf = async (campaignId: string) =>
    BigInt((await one<{ b: string }>('select balance::text b from campaigns where id = $1', [campaignId])).b);

  async function expectBooksBalance() {
    const bad = await db.query(
      `select 'user' kind, u.id from users u
         left join (select user_id, sum(sum) s from ledger group by user_id) l on l.user_id = u.id
         where u.balance <> coalesce(l.s, 0)
       union all
       select 'campaign', c.id from campaigns c
         left join (select campaign_id, sum(sum) s from campaign_ledger group by campaign_id) l on l.campaign_id = c.id
         left join (select campaign_id, sum(price) s from clicks where status = 'charged' group by campaign_id) k
           on k.campaign_id = c.id
         left join (select campaign_id, sum(-sum) s from campaign_ledger where type = 'campaign_charge'
                    group by campaign_id) ch on ch.campaign_id = c.id
         where c.balance <> coalesce(l.s, 0) or c.balance < 0 or coalesce(k.s, 0) <> coalesce(ch.s, 0)`,
    );
    expect(bad.rows).toEqual([]);
    const t = await one<Record<string, string>>(
      `select (select coalesce(sum(price), 0)::text from clicks where status = 'charged') price,
              (select coalesce(sum(publisher_earned + agency_earned + referral_earned + platform_earned), 0)::text
                 from clicks where status = 'charged') shares,
              (select coalesce(sum(platform_earned), 0)::text from clicks) platform,
              (select coalesce(sum(sum), 0)::text from platform_ledger) platform_ledger,
              (select count(*)::text from clicks) n,
              (select count(distinct token_key)::text from clicks) tokens`,
    );
    expect(t.shares).toBe(t.price);
    expect(t.platform_ledger).toBe(t.platform);
    expect(t.tokens).toBe(t.n);
  }

  test('daily clicks and balance hold across instances; kill -9 under click load loses and doubles no charge', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    let a = await start(portA); // migrates the fresh database first
    const b = await start(portB);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();

    // a publisher with three sites and widgets; three campaigns, one per site
    const tok = await fetch(`${a.base}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: 'admin@test.local',
        password: 'admin-password-1',
      }),
    });
    const adminToken = ((await tok.json()) as { access_token: string }).access_token;
    const pub = await registerUser(a.base);
    const widgetIds: string[] = [];
    const siteIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const site = await call(a.base, 'POST', '/api/sites', pub.access_token, {
        site: { title: `Mag ${i}`, domain: `mag${i}-${pub.user_id}.example`, category: 'news' },
      });
      await call(a.base, 'POST', `/api/sites/${site._id}/moderate`, adminToken, { decision: 'approve' });
      const w = await call(a.base, 'POST', '/api/widgets', pub.access_token, {
        widget: { title: 'Below article', site_id: site._id, settings: { columns: 1, rows: 1 } },
      });
      await call(a.base, 'POST', `/api/widgets/${w._id}/moderate`, adminToken, { decision: 'approve' });
      siteIds.push(site._id);
      widgetIds.push(w._id);
    }
    const adv = await registerUser(a.base);
    await call(a.base, 'POST', `/api/users/${adv.user_id}/payments`, adminToken, { payment: { sum: 2000 } });
    async function campaign(siteId: string, fund: number, extra: Record<string, unknown> = {}) {
      const c = await call(a.base, 'POST', '/api/campaigns', adv.access_token, {
        campaign: {
          title: `C ${siteId}`,
          clickprice: 0.5,
          click_filter: 'dummy',
          site_id: siteId,
          utm: 'cid={click_id}',
          ...extra,
        },
      });
      await call(a.base, 'POST', `/api/campaigns/${c._id}/payments`, adv.access_token, {
        payment: { sum: fund },
      });
      const bn = await call(a.base, 'POST', '/api/banners', adv.access_token, {
        banner: { campaign_id: c._id, title: 'Shoes', text: 'Half price', url: 'https://shop.example/' },
      });
      await call(a.base, 'POST', `/api/campaigns/${c._id}/moderate`, adminToken, { decision: 'approve' });
      await call(a.base, 'POST', `/api/banners/${bn._id}/moderate`, adminToken, { decision: 'approve' });
      await call(a.base, 'PUT', `/api/campaigns/${c._id}`, adv.access_token, {
        campaign: { status: 'active' },
      });
      return c._id as string;
    }
    const N = 6;
    const limited = await campaign(siteIds[0] as string, 100, { dailyclicks: N });
    const poor = await campaign(siteIds[1] as string, 2.5); // money for 5 clicks
    const busy = await campaign(siteIds[2] as string, 1000);
    await db.query(`update campaigns set pacing = 'asap' where id = $1`, [limited]);

    // both instances see the campaigns (their indexes rebuild on the database's change notices)
    for (const inst of [a, b])
      for (const w of widgetIds)
        for (;;) {
          const body = (await (
            await fetch(`${inst.base}/serve/widgets/${w}`, { headers: { 'user-agent': chrome } })
          ).json()) as Served;
          if (body.items?.some((i) => i.sponsored)) break;
          await new Promise((r) => setTimeout(r, 100));
        }

    // 1. more clicks than the daily limit and than the money, half on each instance, all at once; each
    // token served by one instance, its impression reported to the other
    const tokens = async (widget: string, n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          i % 2 ? servedToken(a.base, b.base, widget) : servedToken(b.base, a.base, widget),
        ),
      );
    const first = [
      ...(await tokens(widgetIds[0] as string, 16)),
      ...(await tokens(widgetIds[1] as string, 16)),
    ];
    const answers = await Promise.all(first.map((tk, i) => click(i % 2 ? a.base : b.base, tk)));
    expect(answers.every((r) => r.status === 302)).toBe(true);
    expect(await charged(limited)).toBe(N);
    expect(await balanceOf(limited)).toBe(100_000_000n - BigInt(N) * 500_000n);
    expect(await charged(poor)).toBe(5);
    expect(await balanceOf(poor)).toBe(0n);
    await expectBooksBalance();

    // 2. kill -9 one instance while clicks stream to both
    const load = await tokens(widgetIds[2] as string, 120);
    const results: { token: string; on: 'a' | 'b'; status: number | 'error'; cid: string | null }[] = [];
    let killed = false;
    let next = 0;
    let answeredByA = 0;
    const worker = async () => {
      while (next < load.length) {
        const token = load[next++] as string;
        const on = !killed && next % 2 ? 'a' : 'b';
        try {
          const r = await click(on === 'a' ? a.base : b.base, token);
          results.push({ token, on, ...r });
          if (on === 'a' && ++answeredByA === 25 && !killed) {
            killed = true;
            a.child.kill('SIGKILL'); // with other clicks to it still in flight
          }
        } catch {
          results.push({ token, on, status: 'error', cid: null });
        }
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
    expect(killed).toBe(true);
    await a.exited;
    running.splice(running.indexOf(a), 1);
    a = await start(portA);

    // every click answered with a redirect has its row, once; nothing was charged twice
    const redirected = results.filter((r) => r.status === 302);
    expect(redirected.length).toBeGreaterThan(60);
    const cids = redirected.map((r) => r.cid);
    const found = await one<{ n: number; charged: number }>(
      `select count(*)::int n, count(*) filter (where status = 'charged')::int charged
         from clicks where click_id = any($1)`,
      [cids],
    );
    expect(found.n).toBe(redirected.length);
    const busyCharged = await charged(busy);
    expect(busyCharged).toBeGreaterThanOrEqual(found.charged);
    expect(await balanceOf(busy)).toBe(1_000_000_000n - BigInt(busyCharged) * 500_000n);
    await expectBooksBalance();

    // replays of every token on both instances: what was answered is never charged again; a click that
    // died with the process before its charge may be charged once now, and never after
    const all = [...first, ...load];
    const errored = results.filter((r) => r.status === 'error').length;
    const before = (await one<{ n: number }>(`select count(*)::int n from clicks where status = 'charged'`))
      .n;
    const replay = async () => {
      const r = await Promise.all(all.map((tk, i) => click(i % 2 ? a.base : b.base, tk)));
      expect(r.every((x) => x.status === 302)).toBe(true);
      return (await one<{ n: number }>(`select count(*)::int n from clicks where status = 'charged'`)).n;
    };
    const afterFirst = await replay();
    expect(afterFirst - before).toBeLessThanOrEqual(errored);
    expect(await replay()).toBe(afterFirst);
    expect(await charged(limited)).toBe(N);
    expect(await charged(poor)).toBe(5);
    await expectBooksBalance();

    await stop(a, 'SIGTERM');
    await stop(b, 'SIGTERM');
  }, 120_000);
});
