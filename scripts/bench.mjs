// `npm run bench`: starts the server on loopback with a fresh embedded database and measures the API's
// hot auth paths with a bounded number of requests. Results go to stdout; the README keeps the latest.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = 18000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'adp-bench-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: new URL('../apps/server/', import.meta.url),
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
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

async function waitUp() {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function run(name, total, concurrency, makeRequest) {
  const latencies = [];
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const s = performance.now();
        const res = await makeRequest();
        await res.arrayBuffer();
        if (!res.ok) failed += 1;
        latencies.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
  console.log(
    `${name.padEnd(28)} ${String(total).padStart(6)} req  ${(total / secs).toFixed(0).padStart(6)} req/s  p50 ${pct(0.5)} ms  p99 ${pct(0.99)} ms  failed ${failed}`,
  );
}

try {
  await waitUp();
  const form = (o) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(o),
  });
  const login = await (
    await fetch(
      `${base}/api/auth/token`,
      form({ grant_type: 'password', username: 'bench@local.test', password: 'bench-password-1' }),
    )
  ).json();
  const auth = { headers: { authorization: `Bearer ${login.access_token}` } };
  console.log(`node ${process.version}, ${process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite'}, loopback`);
  await run('GET /api/health', 5000, 32, () => fetch(`${base}/api/health`));
  await run('GET /api/auth/me', 5000, 32, () => fetch(`${base}/api/auth/me`, auth));
  const json = (method, body) => ({
    method,
    headers: { ...auth.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const site = await (
    await fetch(
      `${base}/api/sites`,
      json('POST', { site: { title: 'Bench', domain: 'bench.example', category: 'news' } }),
    )
  ).json();
  const widget = await (
    await fetch(`${base}/api/widgets`, json('POST', { widget: { title: 'Bench', site_id: site._id } }))
  ).json();
  await run('GET /serve/widgets/:id', 5000, 32, () => fetch(`${base}/serve/widgets/${widget._id}`));
  await run('GET /widget.js', 2000, 32, () => fetch(`${base}/widget.js`));
  await run('POST /api/auth/token (argon2)', 200, 8, () =>
    fetch(
      `${base}/api/auth/token`,
      form({ grant_type: 'password', username: 'bench@local.test', password: 'bench-password-1' }),
    ),
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
