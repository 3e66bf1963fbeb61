import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { clicks } from '../../db/schema/index.ts';
import {
  chrome,
  publisherWithWidget,
  runningCampaign,
  settle,
} from '../../delivery/delivery-fixtures.test-helper.ts';
import { cityTestDatabase } from '../../delivery/visitor/test-mmdb.ts';
import { ADMIN, as, createTestApp, liftStatsDelay, login, type TestApp } from '../../test/test-app.ts';

/**
 * The city of statistics comes from delivery: a GeoIP City database names the visitor's city, the answer's
 * token carries it, and the impression, view and click rollups (and the click row) are keyed by it.
 */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stats-city-'));
  writeFileSync(join(dir, 'city.mmdb'), cityTestDatabase());
  t = await createTestApp({ GEOIP_DB: join(dir, 'city.mmdb') });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, ip: string) =>
  t.app.inject({
    method: 'GET',
    url: url.replace('http://localhost:8080', ''),
    remoteAddress: ip,
    headers: chrome,
  });

test("delivery keys impressions, views and clicks by the visitor's city; group=city reads them", async () => {
  const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const p = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin);
  await liftStatsDelay(t, a.user_id);
  await settle(t);
  // London, Prague (IPv6) and an address the test database does not know
  for (const ip of ['81.2.69.142', '81.2.69.142', '2a02:d280::7', '8.8.8.8']) {
    const answer = (await get(`/serve/widgets/${p.widget._id}`, ip)).json();
    expect(answer.impression_url, JSON.stringify(answer)).toBeTruthy();
    expect((await get(answer.impression_url, ip)).statusCode).toBe(204);
    if (ip === '2a02:d280::7') {
      expect((await get(answer.viewable_url, ip)).statusCode).toBe(204);
      const ad = answer.items.find((i: { sponsored: boolean }) => i.sponsored);
      expect((await get(ad.url, ip)).statusCode).toBe(302);
    }
  }
  await contextOf(t.app).delivery.engine.flush();

  const [click] = await t.database.db.select({ city: clicks.city, status: clicks.status }).from(clicks);
  expect(click).toEqual({ city: 'Prague', status: 'charged' });
  const res = await a.api.get(`/api/stats/campaigns/${a.campaign._id}?group=city`);
  expect(res.statusCode).toBe(200);
  expect(
    res
      .json()
      .rows.map((r: { key: string; impressions: number; viewable: number; clicks: number }) => [
        r.key,
        r.impressions,
        r.viewable,
        r.clicks,
      ]),
  ).toEqual([
    ['London', 2, 0, 0],
    ['Prague', 1, 1, 1],
    ['unknown', 1, 0, 0],
  ]);
});
