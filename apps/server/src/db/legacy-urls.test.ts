import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { as, createTestApp, register, type TestApp } from '../test/test-app.ts';
import { banners, campaigns, sites } from './schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const migration = readFileSync(
  new URL('../../drizzle/0006_legacy_non_http_urls.sql', import.meta.url),
  'utf8',
);

test('rows saved with non-http URLs before the http(s) rule are repaired, so reading them never fails', async () => {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: {
        title: 'Old',
        domain: `legacy-${u.user_id}.example`,
        category: 'news',
        parser: { rss_url: 'https://legacy.example/feed', image_prefix: 'https://cdn.example/' },
      },
    })
  ).json();
  const campaign = (
    await api.post('/api/campaigns', { campaign: { title: `Old ${u.user_id}`, clickprice: 1 } })
  ).json();
  const banner = (
    await api.post('/api/banners', {
      banner: { campaign_id: campaign._id, title: 'Old', url: 'https://shop.example/' },
    })
  ).json();
  // what an older version let through
  const { db } = t.database;
  await db
    .update(sites)
    .set({
      defaultAdvertorialUrl: 'javascript:alert(1)',
      parser: sql`jsonb_set(jsonb_set(${sites.parser}, '{rss_url}', '"file:///etc/passwd"'), '{image_prefix}', '"//cdn.example/"')`,
    })
    .where(eq(sites.id, Number(site._id)));
  await db
    .update(campaigns)
    .set({ trackUrls: ['https://track.example/a', 'javascript:alert(2)'] })
    .where(eq(campaigns.id, Number(campaign._id)));
  await db
    .update(banners)
    .set({ url: 'data:text/html,x' })
    .where(eq(banners.id, Number(banner._id)));
  // the answer schema refuses such a row, so the site could not even be read
  expect((await api.get(`/api/sites/${site._id}`)).statusCode).toBe(500);

  for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

  const repaired = await api.get(`/api/sites/${site._id}`);
  expect(repaired.statusCode).toBe(200);
  expect(repaired.json()).toMatchObject({
    default_advertorial_url: null,
    parser: { rss_url: null, image_prefix: 'https://cdn.example/' },
  });
  expect((await api.get(`/api/campaigns/${campaign._id}`)).json().track_urls).toEqual([
    'https://track.example/a',
  ]);
  expect((await api.get(`/api/banners/${banner._id}`)).json()).toMatchObject({
    url: 'https://invalid.invalid/',
    status: 'inactive',
  });
});
