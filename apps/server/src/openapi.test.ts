import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './test/test-app.ts';

// The OpenAPI document (/api/openapi.json) against what the server does: a client generated from it sends
// the token where the server asks for one, and knows the error answers and the file of an upload.
let t: TestApp;
type Op = {
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
};
let paths: Record<string, Record<string, Op>>;
beforeAll(async () => {
  t = await createTestApp();
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  expect(doc.security).toEqual([{ bearer: [] }]);
  paths = doc.paths;
});
afterAll(() => t.close());

test('an operation needs the bearer token exactly when the document says so', async () => {
  const wrong: string[] = [];
  const open: string[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const url = path.replace(/\{[^}]+\}/g, '1');
      const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url });
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (isPublic) open.push(`${method} ${path}`);
      if ((res.statusCode === 401) === isPublic) wrong.push(`${method} ${path}: ${res.statusCode}`);
    }
  }
  expect(wrong).toEqual([]);
  expect(open).toContain('post /api/auth/token');
  expect(open).toContain('get /api/health');
  expect(open.length).toBeLessThan(12);
});

test('error answers, deletes without a body and uploads are described', () => {
  const del = paths['/api/campaigns/{id}']?.delete;
  expect(Object.keys(del?.responses ?? {}).sort()).toEqual(['204', '401', '403', '404', '422', '429', '503']);
  // a JSON body may be refused as such (415); a top-up without a provider is a 409
  const topup = paths['/api/users/{id}/topups']?.post?.responses ?? {};
  expect(Object.keys(topup)).toEqual(expect.arrayContaining(['201', '409', '415', '422', '503']));
  expect(paths['/api/payments/providers']?.get?.responses['200']?.content).toBeDefined();
  // the token endpoint: OAuth's 400 for wrong credentials or an unreadable body, 422 for a refused field
  const token = paths['/api/auth/token']?.post?.responses ?? {};
  expect(Object.keys(token)).toEqual(expect.arrayContaining(['400', '422']));
  const put = paths['/api/campaigns/{id}']?.put;
  expect(put?.responses['422']?.content?.['application/json']?.schema.$ref).toBe(
    '#/components/schemas/ValidationErrors',
  );
  expect(put?.responses['404']?.content?.['application/json']?.schema.$ref).toBe(
    '#/components/schemas/Error',
  );
  // a delete that answers with a body keeps its 200
  expect(paths['/api/sites/{id}/materials']?.delete?.responses['200']).toBeDefined();
  for (const path of ['/api/adsense/upload', '/api/campaigns/{id}/import-ips', '/api/banners/{id}']) {
    const body = paths[path]?.post?.requestBody?.content['multipart/form-data'];
    expect(body?.schema.properties, path).toHaveProperty('file');
  }
});
