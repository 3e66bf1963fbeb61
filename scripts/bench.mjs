// `npm run bench`: in one run, on this machine and with one client (scripts/bench-client.mjs), measures a
// bare node:http server, a bare Fastify server and our server's delivery routes, and prints each as a
// ratio to the bare node:http server; then the API's hot paths. The server runs on loopback with a fresh
// embedded database (BENCH_DATABASE_URL for PostgreSQL). Results go to stdout; the README keeps the latest.
import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './bench-client.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1000);
const CONNECTIONS = 32;
const basePort = 18000 + Math.floor(Math.random() * 1000);
const ports = { node: basePort, fastify: basePort + 1, server: basePort + 2, nodeScript: basePort + 3 };
const base = `http://127.0.0.1:${ports.server}`;
const dataDir = mkdtempSync(join(tmpdir(), 'adp-bench-'));
const children = [];
const serverDir = new URL('../apps/server/', import.meta.url);

/** What a browser sends with a script or an ad request, so every target parses the same headers. */
const browser = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'de-DE,de;q=0.9,en;q=0.8',
  referer: 'https://publisher.example/article/1',
};

function startBare(kind, port) {
  const child = fork(new URL('./bench-bare.mjs', import.meta.url), [kind, String(port)], {
    stdio: 'inherit',
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${kind} reference server exited (${code})`)));
  });
}

function startServer() {
  // the built server, as `npm start` runs it (built here from the current sources)
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'ignore' });
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(ports.server),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      ADMIN_EMAIL: 'bench@local.test',
      ADMIN_PASSWORD: 'bench-password-1',
      RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      JOBS: 'off',
    },
    stdio: 'inherit',
  });
  children.push(child);
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
async function servingWidget(auth) {
  const json = (method, body) => ({
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const site = await api(
    '/api/sites',
    json('POST', { site: { title: 'Bench', domain: 'bench.example', category: 'news' } }),
  );
  const widget = await api('/api/widgets', json('POST', { widget: { title: 'Bench', site_id: site._id } }));
  await api(`/api/widgets/${widget._id}/moderate`, json('POST', { decision: 'approve' }));
  await api(`/serve/widgets/${widget._id}`);
  return widget._id;
}

const ms = (v) => `${v.toFixed(1)} ms`;

try {
  // the server answers /widget.js from the built embed script
  if (!existsSync(new URL('../packages/widget/dist/widget.js', import.meta.url)))
    execFileSync(process.execPath, ['build.mjs'], { cwd: new URL('../packages/widget/', import.meta.url) });
  startServer();
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
  const etag = (await fetch(`${base}/widget.js`)).headers.get('etag');

  const targets = [
    { name: 'bare node:http', port: ports.node, path: '/' },
    { name: 'bare Fastify', port: ports.fastify, path: '/' },
    // the same bytes /widget.js sends, from node:http: what the 5 KB cost without any framework
    { name: 'bare node:http, 5 KB br', port: ports.nodeScript, path: '/' },
    { name: 'GET /widget.js', port: ports.server, path: '/widget.js' },
    { name: 'GET /serve/widgets/:id', port: ports.server, path: `/serve/widgets/${widgetId}` },
    // what a returning visitor's browser does once max-age passed: revalidate, 304 without a body
    {
      name: 'GET /widget.js (304)',
      port: ports.server,
      path: '/widget.js',
      extra: { 'if-none-match': etag },
      status: 304,
    },
  ];
  console.log(
    `node ${process.version}, ${process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite'}, loopback, ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_MS} ms per target (best round shown)`,
  );
  // warm-up: JIT and caches, not measured
  for (const t of targets)
    await load({ ...t, headers: { ...browser, ...t.extra }, connections: CONNECTIONS, maxMs: 500 });
  // rounds alternate the targets, so a neighbour's load on the machine falls on all of them alike
  const runs = new Map(targets.map((t) => [t.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const t of targets) {
      runs.get(t.name).push(
        await load({
          ...t,
          headers: { ...browser, ...t.extra },
          connections: CONNECTIONS,
          maxRequests: 1_000_000,
          maxMs: ROUND_MS,
        }),
      );
    }
  }
  // the best round of each: other work on the machine only ever slows a round down
  const best = (name) => runs.get(name).reduce((a, b) => (b.rps > a.rps ? b : a));
  const bare = best('bare node:http').rps;
  console.log(
    `\n${'target'.padEnd(26)} ${'req/s'.padStart(7)} ${'ratio'.padStart(6)}   p50       p99       errors`,
  );
  for (const t of targets) {
    const mid = best(t.name);
    const { rps } = mid;
    // an answer of another status than the target's (200, or 304 for the revalidation) counts as an error
    const expected = String(t.status ?? 200);
    const unexpected = (x) =>
      Object.entries(x.statuses).reduce((n, [s, c]) => n + (s !== expected && Number(s) < 400 ? c : 0), 0);
    const errors = runs.get(t.name).reduce((n, x) => n + x.errors + unexpected(x), 0);
    console.log(
      `${t.name.padEnd(26)} ${rps.toFixed(0).padStart(7)} ${`${(rps / bare).toFixed(2)}x`.padStart(6)}   ${ms(mid.p50).padEnd(9)} ${ms(mid.p99).padEnd(9)} ${errors}${errors ? ` ${JSON.stringify(mid.statuses)}` : ''}`,
    );
  }

  console.log(`\n${'API call'.padEnd(30)} requests   req/s   p50       p99       errors`);
  const apiRow = async (name, opts) => {
    const r = await load({ port: ports.server, connections: 32, ...opts });
    console.log(
      `${name.padEnd(30)} ${String(r.requests).padStart(8)} ${r.rps.toFixed(0).padStart(7)}   ${ms(r.p50).padEnd(9)} ${ms(r.p99).padEnd(9)} ${r.errors}`,
    );
  };
  await apiRow('GET /api/health', { path: '/api/health', maxRequests: 5000, maxMs: 10_000 });
  await apiRow('GET /api/auth/me', { path: '/api/auth/me', headers: auth, maxRequests: 5000, maxMs: 10_000 });
  await apiRow('POST /api/auth/token (argon2)', {
    path: '/api/auth/token',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=password&username=bench%40local.test&password=bench-password-1',
    connections: 8,
    maxRequests: 200,
    maxMs: 10_000,
  });
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
  rmSync(dataDir, { recursive: true, force: true });
}
