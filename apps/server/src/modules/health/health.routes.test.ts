import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('health answers ok and names the database driver', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'ok', db: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' });
});

test('the OpenAPI document lists the auth routes and the docs page is served', async () => {
  const spec = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(spec.statusCode).toBe(200);
  expect(Object.keys(spec.json().paths)).toContain('/api/auth/token');
  const docs = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect([200, 302]).toContain(docs.statusCode);
});

test('unknown API paths answer a JSON 404', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toMatchObject({ error: 'not_found' });
});
