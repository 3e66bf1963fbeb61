import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

// These tests run the real server process on the embedded database, the way `npm start` does.
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'adp-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function start(
  port: number,
  logLevel = 'warn',
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; base: string; exited: Promise<number | null>; stdout: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL: 'admin@test.local',
      ADMIN_PASSWORD: 'admin-password-1',
      RATE_LIMIT: '0',
      LOG_LEVEL: logLevel,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { child, base, exited, stdout: () => stdout };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const registerUser = (base: string, i: number) =>
  fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Durable ${i}`,
      email: `durable${i}@test.local`,
      password: 'password-123',
      privacy_policy_agreed: true,
    }),
  });

async function adminUsers(base: string): Promise<string[]> {
  const tok = await fetch(`${base}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: 'admin@test.local',
      password: 'admin-password-1',
    }),
  });
  const { access_token } = (await tok.json()) as { access_token: string };
  const res = await fetch(`${base}/api/users?limit=500`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  const body = (await res.json()) as { items: { email: string }[] };
  return body.items.map((u) => u.email);
}

test('every committed row survives SIGKILL of the server', async () => {
  const port = await freePort();
  const first = await start(port);
  const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => registerUser(first.base, i)));
  expect(answers.map((r) => r.status)).toEqual(Array(15).fill(201));
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await start(port);
  const emails = await adminUsers(second.base);
  for (let i = 0; i < 15; i++) expect(emails).toContain(`durable${i}@test.local`);
  second.child.kill('SIGTERM');
  await second.exited;
}, 180_000);

test('SIGTERM finishes the request in flight, closes cleanly, and the next start keeps the data', async () => {
  const port = await freePort();
  const server = await start(port, 'info');
  const pending = registerUser(server.base, 100);
  // SIGTERM only once the server has taken the request in (its request log line), not after a guessed delay
  const deadline = Date.now() + 30_000;
  while (!/"url":"\/api\/auth\/register"/.test(server.stdout()) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 1));
  expect(server.stdout()).toContain('"url":"/api/auth/register"');
  server.child.kill('SIGTERM');
  const res = await pending;
  expect(res.status).toBe(201);
  expect(await server.exited).toBe(0);

  const again = await start(port);
  expect(await adminUsers(again.base)).toContain('durable100@test.local');
  again.child.kill('SIGTERM');
  expect(await again.exited).toBe(0);
}, 180_000);

test('without Redis, what the in-process store counts survives a graceful restart (failed logins here)', async () => {
  const port = await freePort();
  const env = { LOGIN_MAX_FAILURES: '2', REDIS_URL: '' };
  const login = (base: string) =>
    fetch(`${base}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: 'admin@test.local',
        password: 'wrong-one',
      }),
    });
  const first = await start(port, 'warn', env);
  expect((await login(first.base)).status).toBe(400);
  expect((await login(first.base)).status).toBe(400);
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);

  const second = await start(port, 'warn', env);
  // the two failures before the restart still count: the third attempt is refused
  expect((await login(second.base)).status).toBe(429);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
}, 180_000);
