import { and, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../app.ts';
import { events, rollups } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { type EventWrite, mergeDeltas, type RollupDelta } from './delivery.repository.ts';
import { chrome, publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';
import { pruneRawEvents } from './events-retention.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

const repo = () => contextOf(t.app).delivery.repo;

/** The events of some campaigns counted per rollup key, and the rollups' impressions and views. */
async function compare(campaignIds: number[]) {
  // a raw row is a beacon: each of its items one impression (or view)
  const result = await t.database.db.execute(sql`
    select date_trunc('hour', e.at)::text as hour, i.campaign::int as campaign, i.banner::int as banner,
      e.site_id::int as site, e.widget_id::int as widget, e.country, e.device, e.os, e.browser,
      (count(*) filter (where e.kind = 1))::int as impressions,
      (count(*) filter (where e.kind = 2))::int as viewable
    from ${events} e cross join lateral unnest(e.campaign_ids, e.banner_ids) as i(campaign, banner)
    where i.campaign = any(${sql.param(campaignIds)}::bigint[])
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9
    order by 1, 2, 3, 4, 5, 6, 7, 8, 9`);
  const raw = (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({ ...r }));
  const rolled = await t.database.db
    .select({
      hour: sql<string>`${rollups.hour}::text`,
      campaign: rollups.campaignId,
      banner: rollups.bannerId,
      site: rollups.siteId,
      widget: rollups.widgetId,
      country: rollups.country,
      device: rollups.device,
      os: rollups.os,
      browser: rollups.browser,
      impressions: sql<number>`sum(${rollups.impressions})::int`,
      viewable: sql<number>`sum(${rollups.viewable})::int`,
    })
    .from(rollups)
    .where(
      and(inArray(rollups.campaignId, campaignIds), sql`${rollups.impressions} + ${rollups.viewable} > 0`),
    )
    .groupBy(sql`1, 2, 3, 4, 5, 6, 7, 8, 9`)
    .orderBy(sql`1, 2, 3, 4, 5, 6, 7, 8, 9`);
  return { raw, rolled };
}

describe('raw events', () => {
  test('a counted beacon is written as raw events with its visitor, in the flush with its rollups', async () => {
    const p = await publisherWithWidget(t, admin);
    const a = await runningCampaign(t, admin);
    await settle(t);
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'GET',
        url: url.replace('http://localhost:8080', ''),
        headers: { ...chrome, ...headers },
      });
    const served = await get(`/serve/widgets/${p.widget._id}`);
    const vid = /^vid=([\w-]+)/.exec(String(served.headers['set-cookie']))?.[1];
    expect(vid).toBeTruthy();
    const body = served.json();
    expect((await get(body.impression_url)).statusCode).toBe(204);
    expect((await get(body.impression_url)).statusCode).toBe(204); // a replay: counted once
    expect((await get(body.viewable_url)).statusCode).toBe(204);
    const campaignId = Number(a.campaign._id);
    const ofCampaign = sql`${campaignId} = any(${events.campaignIds})`;
    expect(await t.database.db.select().from(events).where(ofCampaign)).toEqual([]);
    await contextOf(t.app).delivery.engine.flush();
    const rows = await t.database.db
      .select({
        kind: events.kind,
        visitorId: events.visitorId,
        widgetId: events.widgetId,
        browser: events.browser,
        campaignIds: events.campaignIds,
      })
      .from(events)
      .where(ofCampaign)
      .orderBy(events.kind);
    const widgetId = Number(p.widget._id);
    // one row per beacon, its items in it
    expect(rows).toEqual([
      { kind: 1, visitorId: vid, widgetId, browser: 'chrome', campaignIds: [campaignId] },
      { kind: 2, visitorId: vid, widgetId, browser: 'chrome', campaignIds: [campaignId] },
    ]);
    const { raw, rolled } = await compare([campaignId]);
    expect(raw).toEqual(rolled);
    expect(rolled.map((r) => [r.impressions, r.viewable])).toEqual([[1, 1]]);
  });

  // 12,000 beacons of one to four items: more than two of the flush's INSERT statements (5,000 rows each),
  // one transaction
  test('a flush batch writes events and rollups that agree, over hours, keys and a delta without event', async () => {
    // after the retention test's moment (June 2026), so that test deletes none of them
    const base = Date.UTC(2026, 6, 10, 8);
    const context = (i: number) => ({
      siteId: 920_000 + (i % 2),
      widgetId: 930_000 + (i % 2),
      country: ['DE', 'US', ''][i % 3] as string,
      device: i % 4 === 0 ? 'mobile' : 'desktop',
      os: 'linux',
      browser: 'firefox',
    });
    const item = (i: number) => ({ campaignId: 900_001 + (i % 3), bannerId: 910_000 + (i % 3) });
    const batch: EventWrite[] = Array.from({ length: 12_000 }, (_, i) => ({
      ...context(i),
      kind: i % 5 === 0 ? 'view' : 'impression',
      at: new Date(base + (i % 7) * 1_700_000 + i * 1000),
      visitorId: `visitor-${i % 11}`,
      items: Array.from({ length: 1 + (i % 4) }, (_, k) => item(i + k)),
    }));
    await repo().writeBuffered([
      ...batch,
      // a replayed click's rollup increment has no raw event
      { ...context(0), ...item(0), hour: new Date(base), invalidClicks: 1 },
    ]);
    const { raw, rolled } = await compare([900_001, 900_002, 900_003]);
    expect(raw.reduce((n, r) => n + Number(r.impressions) + Number(r.viewable), 0)).toBe(
      batch.reduce((n, b) => n + b.items.length, 0),
    );
    expect(raw.length).toBeGreaterThan(10);
    expect(rolled).toEqual(raw);
    const [written] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(sql`${events.siteId} in (920000, 920001)`);
    expect(written?.n).toBe(12_000);
    const [invalid] = await t.database.db
      .select({ n: sql<number>`sum(${rollups.invalidClicks})::int` })
      .from(rollups)
      .where(inArray(rollups.campaignId, [900_001]));
    expect(invalid?.n).toBe(1);
  });

  test('retention deletes in chunks only the events older than RAW_EVENTS_DAYS', async () => {
    const now = new Date(Date.UTC(2026, 5, 1, 12));
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
    const ev = (daysAgo: number, i: number): EventWrite => ({
      kind: 'impression',
      at: at(daysAgo),
      items: [{ campaignId: 800_000 + i, bannerId: 1 }],
      siteId: 1,
      widgetId: 1,
      country: 'DE',
      device: 'desktop',
      os: 'linux',
      browser: 'firefox',
      visitorId: 'v',
    });
    const ages = [400, 120, 100, 95, 90.01, 89.99, 30, 0];
    await repo().writeBuffered(ages.map(ev));
    const left = async () =>
      (
        await t.database.db
          .select({ campaignId: sql<number>`${events.campaignIds}[1]::int` })
          .from(events)
          .where(sql`${events.campaignIds}[1] between 800000 and 800099`)
          .orderBy(sql`1`)
      ).map((r) => r.campaignId - 800_000);
    expect((await pruneRawEvents(repo(), 0, now, 2)).text).toBe('kept (RAW_EVENTS_DAYS=0)');
    expect(await left()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const result = await pruneRawEvents(repo(), 90, now, 2);
    // in chunks of 2: the five older events (the other tests' events are newer than `now`)
    expect(result).toEqual({
      code: 'events_deleted',
      text: 'deleted 5 events before 2026-03-03T12:00:00.000Z',
      values: { deleted: 5, before: '2026-03-03T12:00:00.000Z' },
    });
    expect(await left()).toEqual([5, 6, 7]);
    // the rollups stay
    const [kept] = await t.database.db
      .select({ n: sql<number>`sum(${rollups.impressions})::int` })
      .from(rollups)
      .where(sql`${rollups.campaignId} between 800000 and 800099`);
    expect(kept?.n).toBe(8);
    expect((await pruneRawEvents(repo(), 90, now, 2)).text).toMatch(/^deleted 0 events/);
  });
});

describe('merging rollup increments', () => {
  test('increments of one key are summed field by field, money included; other keys and the inputs stay as they were', () => {
    const hour = new Date(Date.UTC(2026, 0, 10, 8));
    const key = {
      hour,
      campaignId: 1,
      bannerId: 2,
      siteId: 3,
      widgetId: 4,
      country: 'DE',
      device: 'mobile',
      os: 'android',
      browser: 'chrome',
    };
    const input: RollupDelta[] = [
      { ...key, impressions: 1 },
      { ...key, clicks: 1, spent: 500_000n, earned: 250_000n },
      { ...key, viewable: 1 },
      { ...key, city: 'Berlin', impressions: 1 },
      { ...key, clicks: 1, spent: 300_000n, earned: 0n },
      { ...key, invalidClicks: 1 },
      { ...key, conversions: 1 },
      { ...key, impressions: 2 },
    ];
    const copy = structuredClone(input);
    const merged = mergeDeltas(input);
    expect(merged).toEqual([
      {
        ...key,
        impressions: 3,
        viewable: 1,
        clicks: 2,
        invalidClicks: 1,
        conversions: 1,
        spent: 800_000n,
        earned: 250_000n,
      },
      { ...key, city: 'Berlin', impressions: 1 },
    ]);
    expect(input).toEqual(copy);
  });

  test("a beacon's items are one impression (or view) each, merged with increments of the same key", () => {
    const at = new Date(Date.UTC(2026, 0, 10, 8, 42));
    const hour = new Date(Date.UTC(2026, 0, 10, 8));
    const context = {
      siteId: 3,
      widgetId: 4,
      country: 'DE',
      device: 'mobile',
      os: 'android',
      browser: 'chrome',
    };
    const beacon = (kind: EventWrite['kind'], ids: number[]): EventWrite => ({
      ...context,
      kind,
      at,
      visitorId: 'v',
      items: ids.map((id) => ({ campaignId: id, bannerId: id * 10 })),
    });
    const merged = mergeDeltas([
      beacon('impression', [1, 2]),
      { ...context, city: '', hour, campaignId: 1, bannerId: 10, clicks: 1, spent: 5n, earned: 3n },
      beacon('view', [1]),
      beacon('impression', [1]),
      { ...beacon('impression', [2]), city: 'Berlin' },
    ]);
    const key = (id: number, city = '') => ({ ...context, city, hour, campaignId: id, bannerId: id * 10 });
    expect(merged).toEqual([
      { ...key(1), impressions: 2, viewable: 1, clicks: 1, spent: 5n, earned: 3n },
      { ...key(2), impressions: 1 },
      { ...key(2, 'Berlin'), impressions: 1 },
    ]);
  });
});
