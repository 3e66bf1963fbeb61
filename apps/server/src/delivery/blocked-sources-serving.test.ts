import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
const chrome = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

/** A widget with room for every campaign of this file (the first test's widgets have two places, for two). */
const wide8 = { settings: { columns: 4, rows: 2 } };

/** The creatives a widget shows now (ids of the sponsored items). */
async function shown(widgetId: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/serve/widgets/${widgetId}?url=https://mag.example/article`,
    headers: chrome,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json()
    .items.filter((i: { sponsored: boolean }) => i.sponsored)
    .map((i: { id: string }) => i.id);
}

test('a blocked site stops receiving the campaign; after the amnesty it receives it again', async () => {
  const p = await publisherWithWidget(t, admin);
  const other = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin);
  const b = await runningCampaign(t, admin);
  await settle(t);
  const ad = `b${a.banner._id}`;
  expect(await shown(p.widget._id)).toContain(ad);

  const block = (
    await a.api.post(`/api/campaigns/${a.campaign._id}/blocked-sources`, {
      blocked_source: { site_id: p.site._id, reason: 'Bot traffic' },
    })
  ).json();
  await settle(t);
  for (let i = 0; i < 5; i++) {
    const items = await shown(p.widget._id);
    expect(items).not.toContain(ad);
    expect(items).toContain(`b${b.banner._id}`); // the other campaign still serves there
  }
  expect(await shown(other.widget._id)).toContain(ad); // and the campaign still serves elsewhere

  // a block that ended no longer holds
  await a.api.put(`/api/blocked-sources/${block._id}`, { blocked_source: { until: '2001-01-01' } });
  await settle(t);
  expect(await shown(p.widget._id)).toContain(ad);
  await a.api.put(`/api/blocked-sources/${block._id}`, { blocked_source: { until: '2099-01-01' } });
  await settle(t);
  expect(await shown(p.widget._id)).not.toContain(ad);

  expect((await a.api.del(`/api/blocked-sources/${block._id}`)).statusCode).toBe(204);
  await settle(t);
  expect(await shown(p.widget._id)).toContain(ad);
});

test('an admin blocks a widget, or a site, for every campaign: it does not serve (404) until the amnesty', async () => {
  const p = await publisherWithWidget(t, admin, wide8);
  const a = await runningCampaign(t, admin);
  await settle(t);
  expect(await shown(p.widget._id)).toContain(`b${a.banner._id}`);
  const serve = () => t.app.inject({ method: 'GET', url: `/serve/widgets/${p.widget._id}`, headers: chrome });
  const wide = (
    await admin.post('/api/blocked-sources', { blocked_source: { widget_id: p.widget._id, reason: 'Fraud' } })
  ).json();
  await settle(t);
  expect((await serve()).statusCode).toBe(404);
  await admin.del(`/api/blocked-sources/${wide._id}`);
  await settle(t);
  expect(await shown(p.widget._id)).toContain(`b${a.banner._id}`);

  // the whole site, for a while: its widgets stop, and serve again once the block has ended
  const site = (
    await admin.post('/api/blocked-sources', { blocked_source: { site_id: p.site._id, reason: 'Fraud' } })
  ).json();
  await settle(t);
  expect((await serve()).statusCode).toBe(404);
  await admin.put(`/api/blocked-sources/${site._id}`, { blocked_source: { until: '2001-01-01' } });
  await settle(t);
  expect(await shown(p.widget._id)).toContain(`b${a.banner._id}`);
});

test('the block reaches delivery by the change notice, without an explicit rebuild', async () => {
  const p = await publisherWithWidget(t, admin, wide8);
  const a = await runningCampaign(t, admin);
  await settle(t);
  expect(await shown(p.widget._id)).toContain(`b${a.banner._id}`);
  await a.api.post(`/api/campaigns/${a.campaign._id}/blocked-sources`, {
    blocked_source: { widget_id: p.widget._id },
  });
  await vi.waitFor(async () => expect(await shown(p.widget._id)).not.toContain(`b${a.banner._id}`), {
    timeout: 10_000,
    interval: 50,
  });
});
