import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker (E2E_WORKERS): a worker's files use `baseURLs[VITEST_POOL_ID - 1]`. */
    baseURLs: string[];
    adminEmail: string;
    adminPassword: string;
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));
const serverEntry = join(root, 'apps/server/dist/main.js');
const adminEmail = 'e2e-admin@example.com';
const adminPassword = 'e2e-admin-password-1';

/** A port nothing listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not answer ${url}/api/health within ${timeoutMs} ms`);
}

/**
 * The number of files run at once, each worker with its own server and database (vitest.config.ts). Two by
 * default: on 2 cores they take about half the time of one at a time. The load they make brought out three
 * timing races in the flows (all fixed); `E2E_WORKERS=1` runs one file at a time, to tell a race from a bug.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);

/** The built server on a free port with its own data directory (embedded database); resolves once healthy. */
async function startServer() {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'adp-e2e-'));
  const output: string[] = [];
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // the publisher flows serve RSS feeds from a local HTTP server
      OUTBOUND_ALLOW_LOOPBACK: '1',
      // the account flow tops up through the sandbox payment page, which is off unless asked for
      PAYMENT_SANDBOX: 'on',
      // the flows look at the statistics of users they just registered: no 24-hour wait
      STATS_DELAY_HOURS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseURL, child, 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output.join('')}`);
  }
  return { baseURL, stop };
}

/**
 * One server per worker: the files share a server only with the files of their own worker, which run one
 * after another, so a file's campaigns, DSP partners or maintenance mode never meet a file running beside it.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run \`npm run build\` first`);
  if (!existsSync(join(root, 'apps/web/dist/index.html')))
    throw new Error('apps/web/dist is missing: run `npm run build` first');
  const started = await Promise.allSettled(Array.from({ length: E2E_WORKERS }, () => startServer()));
  const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failed.reason;
  }
  project.provide(
    'baseURLs',
    servers.map((s) => s.baseURL),
  );
  project.provide('adminEmail', adminEmail);
  project.provide('adminPassword', adminPassword);

  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}
