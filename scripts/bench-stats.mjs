// The statistics benchmark (`npm run bench` runs it at its end; BENCH_STATS=only runs it alone, =off skips
// it). In a fresh PostgreSQL database (as scripts/bench.mjs makes one) it loads BENCH_EVENTS raw impression
// and view events (10 million by default) spread over 90 days, 1,000 campaigns and 500 sites through the
// delivery flush writer itself (the repository's `writeBuffered`: the raw rows and their rollups in one
// transaction, as the server writes them), then measures on that database:
//  (a) a 30-day campaign report per day and per country through the statistics store (StatsStore.query of
//      the stats repository, on the rollups) against the same answer computed by scanning the raw events,
//      checks both answers are equal and prints the speed-up;
//  (b) p50/p95 of the dashboard's statistics calls over HTTP against the running server, logged in.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const DAYS = 90;
const CAMPAIGNS = 1000;
const CREATIVES_PER = 3;
const SITES = 500;
const WIDGETS_PER = 2;
/** Sites each campaign runs on (its traffic spread over them by a Zipf law). */
const SITES_PER_CAMPAIGN = 20;
/** Events per flush transaction, and flushes in flight at once. */
const BATCH = 10_000;
const WRITERS = 2;
const REPORT_DAYS = 30;
/** The coarser rollup tables the flush writes with `rollups` (the store reads them first). */
const TIERS = ['rollups_campaign_hours', 'rollups_site_hours', 'rollups_campaign_days', 'rollups_site_days'];
/** HTTP requests per dashboard call. */
const CALLS = Number(process.env.BENCH_STATS_CALLS ?? 100);
const root = new URL('../', import.meta.url);
const server = (path) => new URL(`apps/server/src/${path}`, root).href;
const ms = (v) => `${v.toFixed(1)} ms`;
const int = (n) => n.toLocaleString('en-US');

/** A seeded generator, so every run loads the same traffic. */
function mulberry32(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(42);
/** Picks from `values` by `weights` (one draw, a binary search over the cumulative weights). */
function picker(values, weights) {
  const cum = [];
  let sum = 0;
  for (const w of weights) {
    sum += w;
    cum.push(sum);
  }
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return values[lo];
  };
}
const zipf = (n, s) => Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
const weighted = (table) =>
  picker(
    table.map(([v]) => v),
    table.map(([, w]) => w),
  );

/** A fresh PostgreSQL database, dropped at the end (BENCH_DATABASE_URL: use that one, keep it). */
async function benchDatabase() {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop: async () => {} };
  const admin = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `adp_bench_stats_${randomBytes(6).toString('hex')}`;
  const run = async (sql) => {
    const c = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 3000 });
    try {
      await c.connect();
      await c.query(sql);
    } finally {
      await c.end().catch(() => {});
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

export async function benchStats() {
  const port = 19000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'adp-bench-stats-'));
  let child = null;
  let database = null;
  let sql = null;
  let db = null;
  try {
    database = await benchDatabase();
    // the server from its sources (it migrates the database and creates the admin); idle while loading
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        ADMIN_EMAIL: 'bench@local.test',
        ADMIN_PASSWORD: 'bench-password-1',
        RATE_LIMIT: '0',
        LOG_LEVEL: 'warn',
        JOBS: 'off',
      },
      stdio: 'inherit',
    });
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error('the server exited before answering');
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {}
      if (i > 600) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const api = async (path, init = {}) => {
      const res = await fetch(`${base}${path}`, init);
      if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const user = async (name) => {
      const email = `${name}-${randomBytes(3).toString('hex')}@bench.test`;
      const body = { name, email, password: 'bench-password-1', privacy_policy_agreed: true };
      const r = await api('/api/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { id: Number(r.user_id), email, auth: {} };
    };
    const advertiser = await user('advertiser');
    const publisher = await user('publisher');

    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    // registered long ago: the 24-hour rule does not hide their statistics
    await sql.query(
      `update users set created_at = now() - interval '1 year', stats_available_at = null where id = any($1)`,
      [[advertiser.id, publisher.id]],
    );
    const campaignIds = (
      await sql.query(
        `insert into campaigns (user_id, title) select $1, 'Bench ' || g from generate_series(1, $2::int) g
         returning id`,
        [advertiser.id, CAMPAIGNS],
      )
    ).rows.map((r) => Number(r.id));
    const banners = await sql.query(
      `insert into banners (campaign_id, user_id, title, url)
       select c.id, $1, 'Bench creative ' || g, 'https://advertiser.example/' || g
       from unnest($2::bigint[]) c(id), generate_series(1, $3::int) g returning id, campaign_id`,
      [advertiser.id, campaignIds, CREATIVES_PER],
    );
    const creativesOf = new Map();
    for (const r of banners.rows) {
      const list = creativesOf.get(Number(r.campaign_id)) ?? [];
      list.push(Number(r.id));
      creativesOf.set(Number(r.campaign_id), list);
    }
    const siteIds = (
      await sql.query(
        `insert into sites (user_id, title, domain)
         select $1, 'Bench ' || g, 'site' || g || '.bench.example' from generate_series(1, $2::int) g
         returning id`,
        [publisher.id, SITES],
      )
    ).rows.map((r) => Number(r.id));
    const widgets = await sql.query(
      `insert into widgets (site_id, user_id, title)
       select s.id, $1, 'Bench widget ' || g from unnest($2::bigint[]) s(id), generate_series(1, $3::int) g
       returning id, site_id`,
      [publisher.id, siteIds, WIDGETS_PER],
    );
    const widgetsOf = new Map();
    for (const r of widgets.rows) {
      const list = widgetsOf.get(Number(r.site_id)) ?? [];
      list.push(Number(r.id));
      widgetsOf.set(Number(r.site_id), list);
    }

    // the traffic: campaigns by a Zipf law (s = 0.7: the largest gets 4 %, the median 0.05 %), each on its
    // own 20 sites (Zipf again), a widget of the site (70/30), any of its creatives; most of a campaign's
    // traffic from the 1 to 3 countries it targets, the rest from anywhere (countries skewed as real
    // traffic is); device, system and browser as they come together; visitors from a pool of 200,000; a
    // third of the events are views
    const campaignOf = picker(campaignIds, zipf(CAMPAIGNS, 0.7));
    const campaignSites = new Map(
      campaignIds.map((id) => [
        id,
        picker(
          Array.from({ length: SITES_PER_CAMPAIGN }, () => siteIds[Math.floor(random() * SITES)]),
          zipf(SITES_PER_CAMPAIGN, 1.2),
        ),
      ]),
    );
    const anyCountry = weighted([
      ['US', 30],
      ['DE', 15],
      ['GB', 10],
      ['FR', 8],
      ['BR', 6],
      ['IN', 6],
      ['UA', 4],
      ['RU', 4],
      ['PT', 3],
      ['CA', 3],
      ['PL', 2],
      ['IT', 2],
      ['ES', 2],
      ['NL', 1],
      ['AT', 1],
      ['CH', 1],
      ['SE', 1],
      ['JP', 1],
      ['', 2],
    ]);
    const targeted = new Map(
      campaignIds.map((id) => [id, Array.from({ length: 1 + Math.floor(random() * 3) }, anyCountry)]),
    );
    const country = (campaignId) => {
      const mine = targeted.get(campaignId);
      return random() < 0.9 ? mine[Math.floor(random() * mine.length)] : anyCountry();
    };
    const agent = weighted([
      [['desktop', 'windows', 'chrome'], 25],
      [['desktop', 'windows', 'edge'], 6],
      [['desktop', 'windows', 'firefox'], 4],
      [['desktop', 'macos', 'safari'], 5],
      [['desktop', 'macos', 'chrome'], 5],
      [['desktop', 'linux', 'firefox'], 2],
      [['desktop', 'linux', 'chrome'], 2],
      [['mobile', 'android', 'chrome'], 22],
      [['mobile', 'android', 'samsung'], 4],
      [['mobile', 'ios', 'safari'], 15],
      [['mobile', 'ios', 'chrome'], 3],
      [['tablet', 'ios', 'safari'], 3],
      [['tablet', 'android', 'chrome'], 2],
      [['', '', ''], 2],
    ]);
    const visitors = Array.from({ length: 200_000 }, () => randomBytes(18).toString('base64url'));
    const end = Date.now();
    const start = end - DAYS * 86_400_000;
    const step = (end - start) / EVENTS;
    let made = 0;
    /** The next batch of events, in time order (as the server writes them). */
    const nextBatch = () => {
      const batch = [];
      for (let n = Math.min(BATCH, EVENTS - made); n > 0; n--, made++) {
        const campaignId = campaignOf();
        const siteId = campaignSites.get(campaignId)();
        const siteWidgets = widgetsOf.get(siteId);
        const creatives = creativesOf.get(campaignId);
        const [device, os, browser] = agent();
        batch.push({
          kind: random() < 1 / 3 ? 'view' : 'impression',
          at: new Date(start + (made + random()) * step),
          // a beacon of one item (a raw row is a beacon; the load's unit is the item)
          items: [{ campaignId, bannerId: creatives[Math.floor(random() * creatives.length)] }],
          siteId,
          widgetId: siteWidgets[random() < 0.7 ? 0 : 1],
          country: country(campaignId),
          device,
          os,
          browser,
          visitorId: visitors[Math.floor(random() * visitors.length)],
        });
      }
      return batch;
    };

    const { openPostgres } = await tsImport(server('db/client.ts'), import.meta.url);
    const { createDeliveryRepository } = await tsImport(
      server('delivery/delivery.repository.ts'),
      import.meta.url,
    );
    const { createStatsRepository } = await tsImport(
      server('modules/stats/stats.repository.ts'),
      import.meta.url,
    );
    db = await openPostgres(database.url, WRITERS + 2);
    const repo = createDeliveryRepository(db.db);
    const store = createStatsRepository(db.db);

    console.log(
      `\nstatistics: node ${process.version}, postgres, ${cpus().length} cores, load average ` +
        `${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} before loading`,
    );
    const t0 = performance.now();
    let lastReport = t0;
    const writer = async () => {
      while (made < EVENTS) {
        const batch = nextBatch();
        await repo.writeBuffered(batch);
        if (performance.now() - lastReport > 30_000) {
          lastReport = performance.now();
          const s = (lastReport - t0) / 1000;
          console.log(`  ${int(made)} events in ${s.toFixed(0)} s (${int(Math.round(made / s))}/s)`);
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    const loadS = (performance.now() - t0) / 1000;
    const loadAvg = loadavg();
    const t1 = performance.now();
    await sql.query('vacuum analyze events');
    await sql.query('vacuum analyze rollups');
    for (const table of TIERS) await sql.query(`vacuum analyze ${table}`);
    const vacuumS = (performance.now() - t1) / 1000;
    const { rows: sizes } = await sql.query(
      `select (select count(*) from events)::bigint events, (select count(*) from rollups)::bigint rollups,
              pg_relation_size('events') events_heap, pg_indexes_size('events') events_indexes,
              pg_relation_size('rollups') rollups_heap, pg_indexes_size('rollups') rollups_indexes`,
    );
    const z = sizes[0];
    const mb = (b) => `${(Number(b) / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `loaded ${int(Number(z.events))} events over ${DAYS} days, ${CAMPAIGNS} campaigns, ${SITES} sites through ` +
        `the delivery flush writer (${int(BATCH)} events per transaction, ${WRITERS} at once) in ` +
        `${loadS.toFixed(0)} s: ${int(Math.round(EVENTS / loadS))} events/s (load average at the end ` +
        `${loadAvg.map((l) => l.toFixed(1)).join(' ')}); vacuum analyze ${vacuumS.toFixed(0)} s\n` +
        `events: ${mb(z.events_heap)} + ${mb(z.events_indexes)} index (BRIN on time); rollups: ` +
        `${int(Number(z.rollups))} rows, ${mb(z.rollups_heap)} + ${mb(z.rollups_indexes)} indexes`,
    );
    for (const table of TIERS) {
      const { rows } = await sql.query(
        `select count(*)::bigint n, pg_relation_size($1) heap, pg_indexes_size($1) indexes from ${table}`,
        [table],
      );
      const t = rows[0];
      console.log(`${table}: ${int(Number(t.n))} rows, ${mb(t.heap)} + ${mb(t.indexes)} indexes`);
    }

    // (a) the 30-day report of one campaign, per day and per country: rollups vs raw events
    const to = new Date(Math.floor(end / 86_400_000) * 86_400_000);
    const from = new Date(to.getTime() - REPORT_DAYS * 86_400_000);
    const { rows: ranked } = await sql.query(
      `select c.id, count(*)::int n from events, unnest(campaign_ids) c(id)
       where at >= $1 and at < $2 group by 1 order by 2 desc`,
      [from, to],
    );
    const subjects = [
      ['largest campaign', ranked[0]],
      ['median campaign', ranked[Math.floor(ranked.length / 2)]],
    ];
    const viaStore = async (id) => {
      const spec = { subject: 'campaign', id: Number(id), from, to };
      // whole UTC days: the store answers the days from its daily tables (as the service asks it for the
      // days of a timezone whose days are UTC's), the countries from the same rows
      const [utcDays, countries] = await Promise.all([
        store.query({ ...spec, group: 'day' }),
        store.query({ ...spec, group: 'country' }),
      ]);
      const days = new Map();
      for (const h of utcDays) {
        const day = new Date(Number(h.key) * 1000).toISOString().slice(0, 10);
        const d = days.get(day) ?? [0, 0];
        d[0] += h.impressions;
        d[1] += h.viewable;
        days.set(day, d);
      }
      return {
        days: [...days].sort(),
        countries: countries.map((c) => [c.key, [c.impressions, c.viewable]]).sort(),
        read: utcDays.length,
      };
    };
    const viaEvents = async (id) => {
      const scan = (key) =>
        sql.query(
          `select ${key} k, (count(*) filter (where kind = 1))::int i, (count(*) filter (where kind = 2))::int v
           from events, unnest(campaign_ids) c(id) where c.id = $1 and at >= $2 and at < $3 group by 1`,
          [id, from, to],
        );
      const [days, countries] = await Promise.all([
        scan(`to_char(at at time zone 'UTC', 'YYYY-MM-DD')`),
        scan('country'),
      ]);
      return {
        days: days.rows.map((r) => [r.k, [r.i, r.v]]).sort(),
        countries: countries.rows.map((r) => [r.k, [r.i, r.v]]).sort(),
      };
    };
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const timed = async (fn, n) => {
      const times = [];
      let answer;
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        answer = await fn();
        times.push(performance.now() - t);
      }
      return { answer, ms: median(times) };
    };
    console.log(
      `\n30-day report (${from.toISOString().slice(0, 10)} to ${to.toISOString().slice(0, 10)}), per day and per ` +
        'country, median of 5 runs (the raw scan of 3)',
    );
    console.log(
      `${'campaign'.padEnd(18)} ${'events'.padStart(9)}  rollups (StatsStore)  raw events scan  speed-up`,
    );
    const speedups = [];
    for (const [label, c] of subjects) {
      const rolled = await timed(() => viaStore(c.id), 5);
      const raw = await timed(() => viaEvents(c.id), 3);
      const same =
        JSON.stringify(rolled.answer.days) === JSON.stringify(raw.answer.days) &&
        JSON.stringify(rolled.answer.countries) === JSON.stringify(raw.answer.countries);
      if (!same) throw new Error(`the rollups' and the raw events' answers differ for campaign ${c.id}`);
      speedups.push(raw.ms / rolled.ms);
      console.log(
        `${label.padEnd(18)} ${int(c.n).padStart(9)}  ${ms(rolled.ms).padStart(20)}  ${ms(raw.ms).padStart(15)}  ` +
          `${(raw.ms / rolled.ms).toFixed(0).padStart(7)}x   (answers equal: ${rolled.answer.days.length} days, ` +
          `${rolled.answer.countries.length} countries)`,
      );
    }

    // (b) the dashboard's statistics calls over HTTP, one at a time, as a logged-in owner (logged in now:
    // an access token of before the load may have expired)
    for (const who of [advertiser, publisher]) {
      const token = await api('/api/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          username: who.email,
          password: 'bench-password-1',
        }),
      });
      who.auth = { authorization: `Bearer ${token.access_token}` };
    }
    const day = (d) => d.toISOString().slice(0, 10);
    const range = `from=${day(from)}&to=${day(new Date(to.getTime() - 86_400_000))}&tz=Europe%2FBerlin`;
    // campaigns of every size: every tenth of the ranked list, the largest first
    const sample = ranked.filter((_, i) => i % 10 === 0).map((r) => r.id);
    const widgetIds = widgets.rows.map((r) => r.id);
    const calls = [
      [
        'campaign, group=day',
        advertiser,
        (i) => `/api/stats/campaigns/${sample[i % sample.length]}?${range}`,
      ],
      [
        'campaign, group=country',
        advertiser,
        (i) => `/api/stats/campaigns/${sample[i % sample.length]}?${range}&group=country`,
      ],
      [
        'campaign, group=hour',
        advertiser,
        (i) => `/api/stats/campaigns/${sample[i % sample.length]}?${range}&group=hour`,
      ],
      ['site, group=day', publisher, (i) => `/api/stats/sites/${siteIds[(i * 7) % SITES]}?${range}`],
      [
        'widget, group=day',
        publisher,
        (i) => `/api/stats/widgets/${widgetIds[(i * 13) % widgetIds.length]}?${range}`,
      ],
    ];
    console.log(
      `\n${'GET /api/stats/… (30 days)'.padEnd(30)} requests   p50       p95       max       (load average ` +
        `${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')})`,
    );
    const p95s = [];
    for (const [name, who, path] of calls) {
      await api(path(0), { headers: who.auth }); // warm-up
      const times = [];
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        const res = await fetch(`${base}${path(i)}`, { headers: who.auth });
        const body = await res.json();
        times.push(performance.now() - t);
        if (res.status !== 200 || !Array.isArray(body.rows))
          throw new Error(`${path(i)}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
        if (i === 0 && body.total.impressions === 0 && name.startsWith('campaign'))
          throw new Error(`${path(i)}: no impressions in the answer`);
      }
      times.sort((a, b) => a - b);
      const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
      p95s.push(q(0.95));
      console.log(
        `${name.padEnd(30)} ${String(CALLS).padStart(8)}   ${ms(q(0.5)).padEnd(9)} ${ms(q(0.95)).padEnd(9)} ${ms(times.at(-1))}`,
      );
    }
    console.log(
      `goals: rollups >= 100x faster than the raw scan (${speedups.map((s) => `${s.toFixed(0)}x`).join(', ')}); ` +
        `p95 <= 300 ms (worst ${ms(Math.max(...p95s))})`,
    );
  } finally {
    if (child && child.exitCode === null)
      await new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      });
    await db?.close().catch(() => {});
    await sql?.end().catch(() => {});
    await database?.drop().catch((err) => console.error(`bench database not dropped: ${err.message}`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStats();
