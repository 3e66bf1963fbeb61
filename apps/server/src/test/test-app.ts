import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openPglite, openPostgres } from '../db/client.ts';

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** The migrated PGlite the run's global setup left (global-setup.ts), read once per test file. */
let snapshot: Blob | undefined;

/**
 * A fresh database for one test file: in-memory PGlite started from the migrated snapshot, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL (the CI's second pass), dropped afterwards.
 */
export async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    snapshot ??= new Blob([readFileSync(inject('pgliteSnapshot'))]);
    const database = await openPglite(undefined, snapshot);
    return { database, drop: async () => {} };
  }
  const name = `adp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres(target.toString(), 5);
  return {
    database,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  close: () => Promise<void>;
  /** The sum of a user's ledger in currency units, read straight from the database. */
  ctxLedgerSum: (userId: string) => Promise<number>;
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { database, drop } = await freshDatabase();
  const config = loadConfig({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT: '0',
    PUBLIC_URL: 'http://localhost:8080',
    WEB_DIST: '/nonexistent',
    JOBS: 'off',
    // many test apps at once: none keeps its store in DATA_DIR
    STORE_FILE: '',
    ...env,
  });
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, database, logger: false });
    await app.ready();
  } catch (err) {
    // a start that fails (a test of it) leaves no database behind
    await drop();
    throw err;
  }
  return {
    app,
    config,
    database,
    ctxLedgerSum: async (userId: string) => {
      const { createLedger } = await import('../modules/ledger/ledger.service.ts');
      const { fromMicros } = await import('@adp/contract');
      return fromMicros(await createLedger(database.db).sumOf(Number(userId)));
    },
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/** Logs in through the real token endpoint and returns the token answer. */
export async function login(app: FastifyInstance, email: string, password: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    payload: new URLSearchParams({ grant_type: 'password', username: email, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string; user_id: string; role: string };
}

export function form(values: Record<string, string>) {
  return {
    payload: new URLSearchParams(values).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

let seq = 0;
/** Registers a new user through the API and returns its tokens and account. */
export async function register(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  seq += 1;
  const body = {
    name: `User ${seq}`,
    email: `user${seq}-${randomBytes(3).toString('hex')}@test.local`,
    password: 'password-123',
    privacy_policy_agreed: true,
    ...overrides,
  };
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return {
    ...(res.json() as {
      access_token: string;
      refresh_token: string;
      user_id: string;
      account: { _id: string };
    }),
    email: body.email,
    password: body.password,
  };
}

/** Inject helper bound to one bearer token. */
export function as(app: FastifyInstance, accessToken: string) {
  const headers = { authorization: `Bearer ${accessToken}` };
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload?: unknown) =>
      app.inject({
        method: 'POST',
        url,
        headers,
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    put: (url: string, payload: unknown) =>
      app.inject({ method: 'PUT', url, headers, payload: payload as object }),
    del: (url: string) => app.inject({ method: 'DELETE', url, headers }),
  };
}

/**
 * Ends a self-registered user's first 24 hours at once (the 24-hour rule of statistics, see statsAnswer in
 * the contract): for tests that read their own statistics right after registering.
 */
export async function liftStatsDelay(t: TestApp, userId: string | number) {
  const { users } = await import('../db/schema/index.ts');
  const { eq } = await import('drizzle-orm');
  await t.database.db
    .update(users)
    .set({ statsAvailableAt: null })
    .where(eq(users.id, Number(userId)));
}

/** Registers a user and gives it a role directly in the database (roles are admin-set). */
export async function userWithRole(t: TestApp, role: string) {
  const u = await register(t.app);
  const { users } = await import('../db/schema/index.ts');
  const { eq } = await import('drizzle-orm');
  await t.database.db
    .update(users)
    .set({ role })
    .where(eq(users.id, Number(u.user_id)));
  return u;
}
