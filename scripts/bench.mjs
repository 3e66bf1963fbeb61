// `npm run bench`: in one run, on this machine and with one client (scripts/bench-client.mjs), measures a
// bare node:http server, a bare Fastify server and our server's delivery routes, and prints each as a
// ratio to the bare node:http server; then the API's hot paths. The server runs on loopback with a fresh
// PostgreSQL database created on 127.0.0.1:5432 (BENCH_DATABASE_URL to use another; with none reachable,
// the embedded database and no rows that need 5,000 creatives or the durable click charge). Results go to
// stdout; the README keeps the latest. Then the statistics benchmark (scripts/bench-stats.mjs: 10 million
// raw events, rollups against a raw scan, the dashboard's stats calls; BENCH_STATS=off skips it, =only
// runs it alone; not with BENCH_ONLY).
import { execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { load } from './bench-client.mjs';
import { benchStats } from './bench-stats.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1000);
/** BENCH_ONLY: a regular expression of the target names to measure (the bare node:http row always runs). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const STATS = process.env.BENCH_STATS ?? (ONLY ? 'off' : 'on');
if (STATS === 'only') {
  await benchStats();
  process.exit(0);
}
const CONNECTIONS = 32;
/** The connections of the busy click row and its bare reference. */
const BUSY = 256;
const basePort = 18000 + Math.floor(Math.random() * 1000);
const ports = {
  node: basePort,
  fastify: basePort + 1,
  server: basePort + 2,
  nodeScript: basePort + 3,
  serveEcho: basePort + 4,
  bidEcho: basePort + 5,
};
const base = `http://127.0.0.1:${ports.server}`;
const dataDir = mkdtempSync(join(tmpdir(), 'adp-bench-'));
const children = [];
const serverDir = new URL('../apps/server/', import.meta.url);
/** The ad index of the delivery rows: this many campaigns of CREATIVES_PER creatives each. */
const CAMPAIGNS = 250;
const CREATIVES_PER = 20;

/** What a browser sends with a script or an ad request, so every target parses the same headers. */
const browser = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'de-DE,de;q=0.9,en;q=0.8',
  referer: 'https://publisher.example/article/1',
};

/** The process that answers on each port: its CPU time is read around every round. */
const pidOf = new Map();

/**
 * The CPU time (user + system, all threads) a process has used so far, in microseconds, from
 * /proc/<pid>/stat (Linux); null where it cannot be read.
 */
function cpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux)
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return null;
  }
}

function startBare(kind, port) {
  const child = fork(new URL('./bench-bare.mjs', import.meta.url), [kind, String(port)], {
    stdio: 'inherit',
  });
  children.push(child);
  pidOf.set(port, child.pid);
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${kind} reference server exited (${code})`)));
  });
}

/**
 * A bare node:http server on `port` answering what our server answered to `request` (status, the header
 * fields that describe the body, the body), after reading the request's body: the ceiling of that row, what
 * its bytes alone cost without any of our work. Returns the answer's size.
 */
async function echoOf(port, request) {
  const res = await fetch(`${base}${request.path}`, {
    method: request.method ?? 'GET',
    headers: { ...browser, ...request.extra, 'accept-encoding': 'identity' },
    body: request.body,
  });
  const body = await res.text();
  const headers = {};
  for (const [k, v] of res.headers)
    if (!['content-length', 'connection', 'keep-alive', 'date', 'transfer-encoding'].includes(k))
      headers[k] = v;
  const child = await startBare('node-echo', port);
  await new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ status: res.status, headers, body });
  });
  return Buffer.byteLength(body);
}

/** A fresh PostgreSQL database (dropped at the end), or null when none is reachable. */
async function benchDatabase() {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop: async () => {} };
  const admin = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `adp_bench_${randomBytes(6).toString('hex')}`;
  const run = async (sql) => {
    const c = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 3000 });
    try {
      await c.connect();
      await c.query(sql);
    } finally {
      await c.end().catch(() => {});
    }
  };
  try {
    await run(`create database ${name}`);
  } catch (err) {
    console.log(
      `PostgreSQL not reachable at ${admin} (${err.message}): embedded database, and the rows with 5,000 ` +
        'creatives and the durable click charge are skipped',
    );
    return null;
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * 5,000 active, approved creatives in CAMPAIGNS funded campaigns (click filter `dummy`, pacing asap, no
 * daily limit), written straight into the tables in one transaction: most untargeted, a tenth by country,
 * a fifth by device. Returns when the transaction committed.
 */
async function seedCreatives(sql, ownerEmail) {
  const {
    rows: [owner],
  } = await sql.query('select id from users where email = $1', [ownerEmail]);
  const tag = randomBytes(3).toString('hex');
  await sql.query('begin');
  const { rows } = await sql.query(
    `insert into campaigns (user_id, title, status, balance, clickprice, pacing, click_filter, utm, moderation)
     select $1, $2 || g, 'active', 1000000000000000, 10000, 'asap', 'dummy',
            'utm_source=adp&cid={click_id}', 'approved'
     from generate_series(1, $3::int) g returning id`,
    [owner.id, `Bench ${tag} `, CAMPAIGNS],
  );
  await sql.query(
    `insert into banners (campaign_id, user_id, title, text, url, status, targeting, images, moderation)
     select c.id, $1, 'Bench creative ' || c.id || '-' || g, 'A sponsored story worth a click',
            'https://advertiser.example/landing/' || g, 'active',
            case g % 10
              when 1 then '{"countries":{"state":"active","values":["DE","US","FR"]}}'
              when 2 then '{"devices":{"state":"active","values":["mobile","tablet"]}}'
              when 3 then '{"devices":{"state":"active","values":["desktop"]}}'
              else '{}' end::jsonb,
            jsonb_build_object('landscape', 'bench/' || g || '-l.webp', 'square', 'bench/' || g || '-s.webp',
              'wide', 'bench/' || g || '-w.webp', 'thumb', 'bench/' || g || '-t.webp'), 'approved'
     from unnest($2::bigint[]) c(id), generate_series(1, $3::int) g`,
    [owner.id, rows.map((r) => r.id), CREATIVES_PER],
  );
  await sql.query('commit');
  return rows.map((r) => r.id);
}

function startServer(databaseUrl) {
  // the built server, as `npm start` runs it (built here from the current sources)
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'ignore' });
  // BENCH_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the server under this load
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'dist/main.js'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(ports.server),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      ADMIN_EMAIL: 'bench@local.test',
      ADMIN_PASSWORD: 'bench-password-1',
      RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      JOBS: 'off',
      // the outbound auction's row asks DSP servers on loopback
      OUTBOUND_ALLOW_LOOPBACK: '1',
    },
    stdio: 'inherit',
  });
  children.push(child);
  pidOf.set(ports.server, child.pid);
}

async function waitUp() {
  for (let i = 0; i < 300; i++) {
    if (children.some((c) => c.exitCode !== null)) throw new Error('a server exited before answering');
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function api(path, init = {}) {
  const res = await fetch(`${base}${path}`, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** An approved widget on an active site, asked for once so its answer sits in the delivery cache. */
async function servingWidget(auth, domain = 'bench.example') {
  const json = (method, body) => ({
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const site = await api('/api/sites', json('POST', { site: { title: 'Bench', domain, category: 'news' } }));
  const widget = await api('/api/widgets', json('POST', { widget: { title: 'Bench', site_id: site._id } }));
  await api(`/api/widgets/${widget._id}/moderate`, json('POST', { decision: 'approve' }));
  // the index picks the approval up on its NOTIFY, a moment later
  for (let i = 0; (await fetch(`${base}/serve/widgets/${widget._id}`)).status !== 200; i++) {
    if (i > 500) throw new Error('the widget is not served');
    await new Promise((r) => setTimeout(r, 20));
  }
  return domain === 'bench.example' ? widget._id : { widgetId: widget._id, siteId: site._id };
}

/** The DSPs' max request time in the outbound row; the slow one answers after twice as long. */
const DSP_MAX_MS = 50;
const dspServers = [];

/**
 * The outbound auction's row: three local DSP servers (node:http, ephemeral ports) whitelisted for a widget
 * of its own site: one bids, one answers 204, one answers after its max request time (cut off). Each
 * widget request asks all three in parallel and compares their bids with our own campaigns.
 */
async function dspTarget(auth) {
  const adm = JSON.stringify({
    native: {
      assets: [
        { id: 1, title: { text: 'Ad from the DSP' } },
        { id: 2, img: { url: 'https://cdn.dsp.example/a.jpg' } },
      ],
      link: { url: 'https://landing.dsp.example/x' },
    },
  });
  const listen = (handler) =>
    new Promise((resolve) => {
      const server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => handler(body, res));
      });
      dspServers.push(server);
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/rtb`));
    });
  const answer = (id, price) =>
    JSON.stringify({ id, cur: 'USD', seatbid: [{ seat: 's', bid: [{ id: 'b', impid: '1', price, adm }] }] });
  const endpoints = {
    bidder: await listen((body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer(JSON.parse(body).id, 9));
    }),
    nobid: await listen((_body, res) => res.writeHead(204).end()),
    slow: await listen((body, res) =>
      setTimeout(() => {
        if (!res.destroyed)
          res.writeHead(200, { 'content-type': 'application/json' }).end(answer(JSON.parse(body).id, 99));
      }, DSP_MAX_MS * 2),
    ),
  };
  const { widgetId, siteId } = await servingWidget(auth, 'dsp-bench.example');
  for (const [name, endpoint] of Object.entries(endpoints))
    await api('/api/dsppartners', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        dsppartner: {
          name: `Bench DSP ${name} ${randomBytes(3).toString('hex')}`,
          endpoint,
          max_request_time: DSP_MAX_MS,
          openrtb_version: '2.6',
          whitelist: [siteId],
        },
      }),
    });
  const path = `/serve/widgets/${widgetId}?url=https://dsp-bench.example/a`;
  // the partners reach the exchange on the index's NOTIFY: wait for a DSP's ad in the answer
  for (let i = 0; ; i++) {
    const a = await api(path, { headers: browser });
    if (JSON.stringify(a).includes('Ad from the DSP')) break;
    if (i > 500) throw new Error('the DSP partners are not asked');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { name: 'GET /serve (3 DSPs, 1 slow)', port: ports.server, path };
}

/**
 * The inbound bidder's rows: an RTB partner, every seeded campaign bidding over OpenRTB (eCPM 1 to 5), and
 * conformance bid requests (a site banner, an app native 1.2) posted to its endpoint; each answer a bid.
 */
async function rtbTargets(auth) {
  const partner = await api('/api/rtbpartners', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      rtbpartner: { name: `Bench SSP ${randomBytes(3).toString('hex')}`, max_request_ms: 1000 },
    }),
  });
  await sql.query(
    `update campaigns set openrtb = jsonb_build_object('enabled', true, 'ecpm_bid', 1 + id % 5) where title like 'Bench %'`,
  );
  const dir = new URL('../../shared/conformance/openrtb/requests/', import.meta.url);
  const requests = [
    ['banner', '2.6-iab-spec-ex1-banner-simple-site.json'],
    ['native', '2.5-pbs-bluesea-native1.2-app-recommendation-tmax-test.json'],
  ].filter(([, f]) => existsSync(new URL(f, dir)));
  const path = `/rtb/openrtb2/${partner.key}`;
  const targets = requests.map(([kind, f]) => ({
    name: `POST /rtb/openrtb2 (${kind})`,
    port: ports.server,
    path,
    method: 'POST',
    body: readFileSync(new URL(f, dir)),
    extra: { 'content-type': 'application/json', 'x-openrtb-version': f.startsWith('2.6') ? '2.6' : '2.5' },
  }));
  // the index picks the OpenRTB settings up on its NOTIFY, a moment later
  for (const t of targets) {
    for (let i = 0; ; i++) {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: t.extra, body: t.body });
      if (res.status === 200) break;
      if (i > 500) throw new Error(`${t.name}: no bid (${res.status} ${res.headers.get('x-nobid-reason')})`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return targets;
}

const ms = (v) => `${v.toFixed(1)} ms`;
let database = null;
let sql = null;

/** Serve answers as the widget script reads them: the beacon path and the click paths of their ads. */
function answerPool(widgetPath) {
  const fresh = []; // answers whose impression beacon was not sent yet
  const clickable = []; // click paths of answers whose impression beacon was sent (and counted)
  let lastBeacons = 0; // when beacons were last sent
  const fetchAnswers = async (n) => {
    await load({
      port: ports.server,
      path: widgetPath,
      headers: { ...browser, 'accept-encoding': 'identity' },
      connections: CONNECTIONS,
      maxRequests: n,
      maxMs: 120_000,
      onBody: (status, _head, body) => {
        if (status !== 200) return;
        const a = JSON.parse(body);
        if (!a.impression_url) return;
        fresh.push({
          beacon: new URL(a.impression_url).pathname,
          clicks: a.items.filter((i) => i.sponsored).map((i) => new URL(i.url).pathname),
        });
      },
    });
  };
  /** At least `n` answers never beaconed: their beacon paths, and what to call once `used` were sent. */
  const beacons = async (n) => {
    while (fresh.length < n) await fetchAnswers(n - fresh.length);
    const taken = fresh.slice(0, n);
    return {
      paths: taken.map((a) => a.beacon),
      used: (k) => {
        if (k > 0) lastBeacons = Date.now();
        fresh.splice(0, k);
        for (const a of taken.slice(0, k)) clickable.push(...a.clicks);
      },
    };
  };
  /**
   * At least `n` click paths, each of an answer whose impression beacon counted, each never clicked. The
   * server's next flush of buffered impressions (once a second) after the last beacons sent (for these
   * tokens, or by the beacon row's round) is waited out, so its writes to PostgreSQL are not timed with the
   * clicks.
   */
  const clicks = async (n) => {
    if (clickable.length < n) await prepareClicks(n);
    const flushed = lastBeacons + 1200 - Date.now();
    if (flushed > 0) await new Promise((r) => setTimeout(r, flushed));
    return { paths: clickable.slice(0, n), used: (k) => clickable.splice(0, k) };
  };
  const prepareClicks = async (n) => {
    while (clickable.length < n) {
      const b = await beacons(Math.ceil((n - clickable.length) / 3) + 100);
      const r = await load({
        port: ports.server,
        paths: b.paths,
        headers: browser,
        connections: CONNECTIONS,
        maxMs: 120_000,
      });
      b.used(r.sent);
    }
  };
  return { beacons, clicks };
}

try {
  // the server answers /widget.js from the built embed script
  if (!existsSync(new URL('../packages/widget/dist/widget.js', import.meta.url)))
    execFileSync(process.execPath, ['build.mjs'], { cwd: new URL('../packages/widget/', import.meta.url) });
  database = await benchDatabase();
  startServer(database?.url);
  await Promise.all([
    startBare('node', ports.node),
    startBare('node-script', ports.nodeScript),
    startBare('fastify', ports.fastify),
    waitUp(),
  ]);
  const token = await api('/api/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: 'bench@local.test',
      password: 'bench-password-1',
    }),
  });
  const auth = { authorization: `Bearer ${token.access_token}` };
  const widgetId = await servingWidget(auth);
  const widgetPath = `/serve/widgets/${widgetId}`;
  const etag = (await fetch(`${base}/widget.js`)).headers.get('etag');

  const sponsoredShown = async (want) => {
    const a = await api(widgetPath, { headers: browser });
    return a.items.some((i) => i.sponsored) === want;
  };
  /** How long after `since` the widget's answers reflect the change (polled every 10 ms). */
  const visibleAfter = async (since, want) => {
    while (!(await sponsoredShown(want))) {
      if (performance.now() - since > 60_000) throw new Error('the ad index did not pick the change up');
      await new Promise((r) => setTimeout(r, 10));
    }
    return performance.now() - since;
  };
  if (database) {
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    const t0 = performance.now();
    const ids = await seedCreatives(sql, 'bench@local.test');
    const seeded = performance.now() - t0;
    const first = await visibleAfter(performance.now(), true);
    // a second full rebuild: all campaigns paused, then on again (each a NOTIFY, a 50 ms debounce, a rebuild)
    await sql.query(`update campaigns set status = 'inactive' where id = any($1)`, [ids]);
    await visibleAfter(performance.now(), false);
    const t1 = performance.now();
    await sql.query(`update campaigns set status = 'active' where id = any($1)`, [ids]);
    const again = await visibleAfter(t1, true);
    console.log(
      `seeded ${CAMPAIGNS * CREATIVES_PER} creatives in ${CAMPAIGNS} campaigns by SQL in ${ms(seeded)}; ` +
        `answers served them ${ms(first)} after the commit (NOTIFY, 50 ms debounce, index rebuild), ` +
        `${ms(again)} after re-activating all`,
    );
  }
  const pool = answerPool(widgetPath);

  const targets = [
    { name: 'bare node:http', port: ports.node, path: '/' },
    { name: 'bare Fastify', port: ports.fastify, path: '/' },
    // the same bytes /widget.js sends, from node:http: what the 5 KB cost without any framework
    { name: 'bare node:http, 5 KB br', port: ports.nodeScript, path: '/' },
    { name: 'GET /widget.js', port: ports.server, path: '/widget.js' },
    // our widget answer's bytes (and header fields) from node:http: the serve row's ceiling
    {
      name: `bare node:http, serve answer`,
      port: ports.serveEcho,
      path: '/',
      setup: async (t) => {
        t.name = `${t.name} ${((await echoOf(ports.serveEcho, { path: widgetPath })) / 1024).toFixed(1)} KB`;
      },
    },
    {
      name: sql ? 'GET /serve/widgets/:id (5k)' : 'GET /serve/widgets/:id',
      port: ports.server,
      path: widgetPath,
    },
    // what a returning visitor's browser does once max-age passed: revalidate, 304 without a body
    {
      name: 'GET /widget.js (304)',
      port: ports.server,
      path: '/widget.js',
      extra: { 'if-none-match': etag },
      status: 304,
    },
  ];
  if (sql)
    targets.push(
      // every request a fresh impression token, its first use: it counts
      { name: 'GET /serve/i/<token>', port: ports.server, status: 204, tokens: pool.beacons, perMs: 6 },
      // every request a fresh click token whose impression counted: charged in PostgreSQL before the 302
      { name: 'GET /click/<token>', port: ports.server, status: 302, tokens: pool.clicks, perMs: 5 },
      // the same with as many visitors clicking at once as a busy site has: a durable charge's rate is
      // bound by how many clicks wait for one commit (group commit), which 32 connections cap at 32; its
      // ratio is to bare node:http at the same 256 connections
      { name: `bare node:http, ${BUSY} connections`, port: ports.node, path: '/', connections: BUSY },
      {
        name: `GET /click/<token>, ${BUSY} connections`,
        port: ports.server,
        status: 302,
        tokens: pool.clicks,
        perMs: 10,
        connections: BUSY,
        baseline: `bare node:http, ${BUSY} connections`,
      },
    );
  if (sql && (!ONLY || ONLY.test('POST /rtb/openrtb2'))) {
    const bids = await rtbTargets(auth);
    // the banner bid's answer from node:http, after reading the same request: the bidder rows' ceiling
    if (bids[0]) {
      const size = await echoOf(ports.bidEcho, bids[0]);
      const name = `bare node:http, openrtb2 bid ${(size / 1024).toFixed(1)} KB`;
      targets.push({ ...bids[0], name, port: ports.bidEcho, path: '/' });
    }
    targets.push(...bids);
  }
  // the outbound auction needs the server to call loopback DSPs (OUTBOUND_ALLOW_LOOPBACK)
  if (!ONLY || ONLY.test('GET /serve (3 DSPs, 1 slow)')) targets.push(await dspTarget(auth));
  // with BENCH_ONLY, the bare node:http row and every reference a kept row names stay
  if (ONLY) {
    const keep = (t) => ONLY.test(t.name);
    const references = new Set(targets.filter(keep).map((t) => t.baseline));
    targets.splice(
      0,
      targets.length,
      ...targets.filter((t, i) => i === 0 || keep(t) || references.has(t.name)),
    );
  }
  for (const t of targets) await t.setup?.(t);
  console.log(
    `node ${process.version}, ${sql ? 'postgres' : 'pglite'}, loopback, ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_MS} ms per target (best round shown)`,
  );
  /** One round of a target; a target of single-use tokens gets enough fresh ones first (not timed). */
  const round = async (t, opts) => {
    let tokens = null;
    if (t.tokens) {
      const rate = Math.max(rates.get(t.name) ?? 0, t.perMs * 1000) / 1000;
      tokens = await t.tokens(Math.ceil(rate * opts.maxMs * 2) + 500);
    }
    const pid = pidOf.get(t.port);
    const cpuBefore = pid ? cpuMicros(pid) : null;
    const r = await load({
      ...t,
      ...opts,
      ...(tokens ? { paths: tokens.paths } : {}),
      headers: { ...browser, ...t.extra },
      connections: t.connections ?? CONNECTIONS,
    });
    const cpuAfter = pid ? cpuMicros(pid) : null;
    // the answering process's CPU per answer: what a request costs it, whatever else slows the machine
    r.cpu =
      cpuBefore !== null && cpuAfter !== null && r.requests ? (cpuAfter - cpuBefore) / r.requests : null;
    tokens?.used(r.sent);
    rates.set(t.name, Math.max(rates.get(t.name) ?? 0, r.rps));
    // the warm-up's token supply is a guess (no rate known yet): only a measured round that ran dry is told
    if (tokens && !opts.warmUp && r.sent === tokens.paths.length)
      console.log(`(${t.name}: the round ran out of tokens)`);
    return r;
  };
  const runs = new Map(targets.map((t) => [t.name, []]));
  const rates = new Map(); // the best req/s of each target so far, warm-up included
  // warm-up: JIT and caches, not measured
  for (const t of targets) await round(t, { maxMs: 500, warmUp: true });
  const clicksBefore = sql ? (await sql.query('select count(*)::int n from clicks')).rows[0].n : 0;
  // rounds alternate the targets, so a neighbour's load on the machine falls on all of them alike
  for (let r = 0; r < ROUNDS; r++) {
    for (const t of targets)
      runs.get(t.name).push(await round(t, { maxRequests: 1_000_000, maxMs: ROUND_MS }));
  }
  // the best round of each: other work on the machine only ever slows a round down
  const best = (name) => runs.get(name).reduce((a, b) => (b.rps > a.rps ? b : a));
  const bare = best('bare node:http').rps;
  /** The median over the measured rounds of the answering process's CPU per answer (µs), or null. */
  const cpuOf = (name) => {
    const values = runs
      .get(name)
      .map((x) => x.cpu)
      .filter((v) => v !== null && v !== undefined)
      .sort((a, b) => a - b);
    return values.length ? values[Math.floor(values.length / 2)] : null;
  };
  console.log(
    `\n${'target'.padEnd(40)} ${'req/s'.padStart(7)} ${'ratio'.padStart(6)}   p50       p99       cpu/req  cpu ratio  errors`,
  );
  for (const t of targets) {
    const mid = best(t.name);
    const { rps } = mid;
    const reference = t.baseline ? best(t.baseline).rps : bare;
    // an answer of another status than the target's (200, or 304 for the revalidation) counts as an error
    const expected = String(t.status ?? 200);
    const unexpected = (x) =>
      Object.entries(x.statuses).reduce((n, [s, c]) => n + (s !== expected && Number(s) < 400 ? c : 0), 0);
    const errors = runs.get(t.name).reduce((n, x) => n + x.errors + unexpected(x), 0);
    // CPU per answer of the answering process (median round), and the reference's CPU per answer over it:
    // the ratio a machine's other load disturbs least (the click rows' PostgreSQL work is not in it)
    const cpu = cpuOf(t.name);
    const cpuReference = cpuOf(t.baseline ?? 'bare node:http');
    const cpuText = cpu === null ? '-' : `${cpu.toFixed(1)} µs`;
    const cpuRatio = cpu && cpuReference ? `${(cpuReference / cpu).toFixed(2)}x` : '-';
    console.log(
      `${t.name.padEnd(40)} ${rps.toFixed(0).padStart(7)} ${`${(rps / reference).toFixed(2)}x`.padStart(6)}   ${ms(mid.p50).padEnd(9)} ${ms(mid.p99).padEnd(9)} ${cpuText.padEnd(8)} ${cpuRatio.padEnd(10)} ${errors}${errors ? ` ${JSON.stringify(mid.statuses)}` : ''}`,
    );
  }
  if (sql && runs.has('GET /click/<token>')) {
    // what the click rounds did in PostgreSQL: a 302 is charged or not; the clicks table says which
    const redirects = [...runs]
      .filter(([name]) => name.startsWith('GET /click/'))
      .reduce((n, [, rounds]) => n + rounds.reduce((k, x) => k + (x.statuses[302] ?? 0), 0), 0);
    const { rows } = await sql.query(
      `select status, coalesce(reason, '') reason, count(*)::int n from clicks group by 1, 2 order by 3 desc`,
    );
    const total = rows.reduce((n, r) => n + r.n, 0);
    const charged = rows.filter((r) => r.status === 'charged').reduce((n, r) => n + r.n, 0);
    const { rows: batches } = await sql.query(
      `select count(*)::int n, avg(split_part(ref, ':', 2)::int)::float avg, max(split_part(ref, ':', 2)::int) max
       from ledger where type = 'publisher_earning' and ref like 'clicks:%'`,
    );
    const b = batches[0];
    console.log(
      `clicks: ${redirects} redirects in the measured rounds; ${total - clicksBefore} clicks in them, ` +
        `${total} in all, ${charged} charged (${rows.map((r) => `${r.status}${r.reason ? `/${r.reason}` : ''} ${r.n}`).join(', ')}); ` +
        `${b.n} charge transactions, ${(b.avg ?? 0).toFixed(1)} clicks each on average, ${b.max ?? 0} at most`,
    );
  }

  // the API's hot paths (not with BENCH_ONLY)
  if (!ONLY) {
    console.log(`\n${'API call'.padEnd(40)} requests   req/s   p50       p99       errors`);
    const apiRow = async (name, opts) => {
      // a warm-up first (JIT, the pool's connections, caches), as the delivery rows have; not measured
      await load({ port: ports.server, connections: 32, ...opts, maxRequests: 500, maxMs: 2_000 });
      const r = await load({ port: ports.server, connections: 32, ...opts });
      console.log(
        `${name.padEnd(40)} ${String(r.requests).padStart(8)} ${r.rps.toFixed(0).padStart(7)}   ${ms(r.p50).padEnd(9)} ${ms(r.p99).padEnd(9)} ${r.errors}`,
      );
    };
    await apiRow('GET /api/health', { path: '/api/health', maxRequests: 5000, maxMs: 10_000 });
    await apiRow('GET /api/auth/me', {
      path: '/api/auth/me',
      headers: auth,
      maxRequests: 5000,
      maxMs: 10_000,
    });
    await apiRow('POST /api/auth/token (argon2)', {
      path: '/api/auth/token',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=bench%40local.test&password=bench-password-1',
      connections: 8,
      maxRequests: 200,
      maxMs: 10_000,
    });
  }
} finally {
  await Promise.all(
    children.map((child) =>
      child.exitCode === null
        ? new Promise((r) => {
            child.once('exit', r);
            child.kill('SIGTERM');
          })
        : undefined,
    ),
  );
  for (const server of dspServers) {
    server.closeAllConnections();
    server.close();
  }
  await sql?.end().catch(() => {});
  await database?.drop().catch((err) => console.error(`bench database not dropped: ${err.message}`));
  rmSync(dataDir, { recursive: true, force: true });
}

if (STATS !== 'off') await benchStats();
