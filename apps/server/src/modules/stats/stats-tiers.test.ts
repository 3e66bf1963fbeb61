import { dayEnd, dayStart } from '@adp/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDeliveryRepository, type EventWrite, hourOf } from '../../delivery/delivery.repository.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import {
  createStatsRepository,
  type StatsDimension,
  type StatsStore,
  type StatsSubject,
  type StatsSums,
} from './stats.repository.ts';
import { createStatsService } from './stats.service.ts';

/*
 * The store reads the coarser rollup tables (hourly per campaign or site, daily per dimension) where they
 * can answer, and `rollups` for the rest and for the hours of a range outside whole UTC days. Whatever it
 * reads, the answer must be the one `rollups` alone gives: checked here for every group, every kind of
 * filter and owner, over ranges of days in timezones with whole-hour, half-hour and changing offsets.
 */

let t: TestApp;
let store: StatsStore;
const ids = {
  campaigns: [] as number[],
  banners: [] as number[],
  sites: [] as number[],
  widgets: [] as number[],
};
let advertiserId = 0;

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A seeded generator: the same traffic every run. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [admin] = rows<{ id: string }>(await db.execute(sql`select id from users order by id limit 1`));
  advertiserId = Number(admin?.id);
  const campaigns = rows<{ id: string }>(
    await db.execute(sql`insert into campaigns (user_id, title)
      select ${advertiserId}, 'Tiers ' || g from generate_series(1, 3) g returning id`),
  );
  ids.campaigns = campaigns.map((r) => Number(r.id));
  for (const c of ids.campaigns) {
    const b = rows<{ id: string }>(
      await db.execute(sql`insert into banners (campaign_id, user_id, title, url)
        select ${c}, ${advertiserId}, 'Creative ' || g, 'https://a.example/' || g from generate_series(1, 2) g
        returning id`),
    );
    ids.banners.push(...b.map((r) => Number(r.id)));
  }
  const sites = rows<{ id: string }>(
    await db.execute(sql`insert into sites (user_id, title, domain)
      select ${advertiserId}, 'Site ' || g, 's' || g || '.example' from generate_series(1, 2) g returning id`),
  );
  ids.sites = sites.map((r) => Number(r.id));
  const widgetOf = new Map<number, number[]>();
  for (const s of ids.sites) {
    const w = rows<{ id: string }>(
      await db.execute(sql`insert into widgets (site_id, user_id, title)
        select ${s}, ${advertiserId}, 'Widget ' || g from generate_series(1, 2) g returning id`),
    );
    widgetOf.set(
      s,
      w.map((r) => Number(r.id)),
    );
    ids.widgets.push(...w.map((r) => Number(r.id)));
  }

  // events every few minutes over 2026-03-05 to 2026-03-11 (New York's clock goes forward on 03-08) and
  // 2026-10-23 to 2026-10-27 (Berlin's goes back on 10-25), through the flush writer; clicks with money as
  // buffered increments without an event, as the engine writes them
  const random = seeded(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const repo = createDeliveryRepository(db);
  for (const [from, to] of [
    ['2026-03-05T00:00:00Z', '2026-03-12T00:00:00Z'],
    ['2026-10-23T00:00:00Z', '2026-10-28T00:00:00Z'],
  ] as const) {
    const batch: Parameters<typeof repo.writeBuffered>[0] = [];
    for (let at = Date.parse(from); at < Date.parse(to); at += 7 * 60_000 + Math.floor(random() * 600_000)) {
      const c = pick(ids.campaigns);
      const site = pick(ids.sites);
      const event: EventWrite = {
        kind: random() < 0.3 ? 'view' : 'impression',
        at: new Date(at),
        items: [
          {
            campaignId: random() < 0.05 ? 0 : c,
            bannerId: ids.banners[ids.campaigns.indexOf(c) * 2 + (random() < 0.5 ? 0 : 1)] as number,
          },
        ],
        siteId: site,
        widgetId: pick(widgetOf.get(site) ?? []),
        country: pick(['US', 'DE', 'IN', '']),
        city: pick(['', 'Berlin', 'Pune']),
        device: pick(['desktop', 'mobile', '']),
        os: pick(['windows', 'android', 'ios']),
        browser: pick(['chrome', 'safari', '']),
        visitorId: 'v',
      };
      batch.push(event);
      if (random() < 0.2) {
        const { kind: _, at: when, visitorId: __, items, ...key } = event;
        batch.push({
          ...key,
          ...(items[0] as EventWrite['items'][number]),
          city: key.city ?? '',
          hour: hourOf(when),
          clicks: 1,
          invalidClicks: random() < 0.1 ? 1 : 0,
          spent: 150_000n,
          earned: 90_000n,
        });
      }
      if (batch.length >= 300) await repo.writeBuffered(batch.splice(0));
    }
    await repo.writeBuffered(batch);
  }
  store = createStatsRepository(db);
});

afterAll(async () => {
  await t?.close();
});

const keyColumn: Record<StatsDimension, string> = {
  hour: 'extract(epoch from hour)::bigint::text',
  day: "extract(epoch from date_trunc('day', hour at time zone 'UTC'))::bigint::text",
  country: 'country',
  city: 'city',
  device: 'device',
  os: 'os',
  browser: 'browser',
  site: 'site_id::text',
  widget: 'widget_id::text',
  creative: 'banner_id::text',
  campaign: 'campaign_id::text',
  geo: "country || '|' || city",
};
const idColumn: Record<StatsSubject, string> = {
  campaign: 'campaign_id',
  banner: 'banner_id',
  site: 'site_id',
  widget: 'widget_id',
};

/** The answer of `rollups` alone: the hours starting from `from` (included) to `to` (excluded). */
async function fromRollups(where: string, group: StatsDimension, from: Date, to: Date) {
  const result = await t.database.db.execute(
    sql.raw(`select ${keyColumn[group]} as key, sum(impressions)::text i, sum(viewable)::text v,
      sum(clicks)::text c, sum(invalid_clicks)::text ic, sum(conversions)::text cv, sum(spent)::text s,
      sum(earned)::text e
    from rollups where ${where} and hour >= to_timestamp(${from.getTime() / 1000})
      and hour < to_timestamp(${to.getTime() / 1000})
    group by 1`),
  );
  return rows<Record<string, string>>(result)
    .map((r) => [r.key, [r.i, r.v, r.c, r.ic, r.cv, r.s, r.e].map(Number)] as const)
    .sort(([a], [b]) => String(a).localeCompare(String(b)));
}

const shape = (sums: StatsSums[]) =>
  sums
    .map(
      (s) =>
        [
          s.key,
          [
            s.impressions,
            s.viewable,
            s.clicks,
            s.invalidClicks,
            s.conversions,
            Number(s.spent),
            Number(s.earned),
          ],
        ] as const,
    )
    .sort(([a], [b]) => a.localeCompare(b));

const groups: StatsDimension[] = [
  'geo',
  'hour',
  'day',
  'country',
  'city',
  'device',
  'os',
  'browser',
  'site',
  'widget',
  'creative',
  'campaign',
];

/** Ranges of days of a timezone: one day, the clock-change day, a week, and days that have no traffic. */
const ranges: [string, string, string][] = [
  ['UTC', '2026-03-05', '2026-03-11'],
  ['UTC', '2026-03-07', '2026-03-07'],
  ['Europe/Berlin', '2026-03-05', '2026-03-11'],
  ['Europe/Berlin', '2026-10-25', '2026-10-25'],
  ['Europe/Berlin', '2026-10-23', '2026-10-27'],
  ['America/New_York', '2026-03-08', '2026-03-08'],
  ['America/New_York', '2026-03-06', '2026-03-10'],
  ['Asia/Kolkata', '2026-03-05', '2026-03-11'],
  ['Asia/Kolkata', '2026-03-09', '2026-03-09'],
  ['Asia/Kolkata', '2026-10-24', '2026-10-26'],
  ['Pacific/Chatham', '2026-03-06', '2026-03-09'],
  ['UTC', '2026-06-01', '2026-06-03'],
];

describe('the coarser rollup tables', () => {
  test('every increment is in each table: their totals are those of rollups', async () => {
    const total = async (table: string, extra = '') =>
      rows<{ n: string }>(
        await t.database.db.execute(
          sql.raw(`select (sum(impressions) + sum(viewable) * 1000 + sum(clicks) * 1000000 + sum(spent))::text n
            from ${table} ${extra}`),
        ),
      )[0]?.n;
    const expected = await total('rollups');
    expect(Number(expected)).toBeGreaterThan(0);
    expect(await total('rollups_campaign_hours')).toBe(expected);
    expect(await total('rollups_site_hours')).toBe(expected);
    for (const dim of [1]) {
      expect(await total('rollups_campaign_days', `where dim = ${dim}`)).toBe(expected);
      expect(await total('rollups_site_days', `where dim = ${dim}`)).toBe(expected);
    }
  });

  test.each(ranges)(
    'in %s from %s to %s every query answers what rollups alone answer',
    async (tz, day1, day2) => {
      const from = dayStart(day1, tz);
      const to = dayEnd(day2, tz);
      const subjects: [StatsSubject, number][] = [
        ['campaign', ids.campaigns[0] as number],
        ['banner', ids.banners[3] as number],
        ['site', ids.sites[1] as number],
        ['widget', ids.widgets[2] as number],
      ];
      for (const group of groups) {
        for (const [subject, id] of subjects) {
          const got = shape(await store.query({ subject, id, from, to, group }));
          expect(got, `${subject} ${id} by ${group}`).toEqual(
            await fromRollups(`${idColumn[subject]} = ${id}`, group, from, to),
          );
        }
        // several ids of one kind, ids of two kinds, everything, an owner's campaigns or sites
        const cases: [Parameters<StatsStore['sum']>[0], string][] = [
          [{ filter: { campaign: ids.campaigns.slice(0, 2) }, from, to, group }, 'campaign_id in (ids0)'],
          [{ filter: { site: ids.sites, widget: ids.widgets.slice(1) }, from, to, group }, 'both'],
          [
            {
              filter: { campaign: [ids.campaigns[1] as number], site: [ids.sites[0] as number] },
              from,
              to,
              group,
            },
            'cs',
          ],
          [{ filter: {}, from, to, group }, 'true'],
          [{ filter: {}, owner: { userId: advertiserId, side: 'advertiser' }, from, to, group }, 'adv'],
          [{ filter: {}, owner: { userId: advertiserId, side: 'publisher' }, from, to, group }, 'pub'],
        ];
        const where: Record<string, string> = {
          'campaign_id in (ids0)': `campaign_id in (${ids.campaigns.slice(0, 2).join(',')})`,
          both: `site_id in (${ids.sites.join(',')}) and widget_id in (${ids.widgets.slice(1).join(',')})`,
          cs: `campaign_id = ${ids.campaigns[1]} and site_id = ${ids.sites[0]}`,
          true: 'true',
          adv: `campaign_id in (select id from campaigns where user_id = ${advertiserId})`,
          pub: `site_id in (select id from sites where user_id = ${advertiserId})`,
        };
        for (const [spec, name] of cases) {
          const got = shape(await store.sum(spec));
          expect(got, `${name} by ${group}`).toEqual(
            await fromRollups(where[name] as string, group, from, to),
          );
        }
      }
    },
  );
  test('time series and whole UTC days by country are read from the coarser tables', async () => {
    const from = new Date('2026-03-05T00:00:00Z');
    const to = new Date('2026-03-12T00:00:00Z');
    const id = ids.campaigns[0] as number;
    const site = ids.sites[0] as number;
    const queries: Parameters<StatsStore['query']>[0][] = [
      { subject: 'campaign', id, from, to, group: 'hour' },
      { subject: 'campaign', id, from, to, group: 'creative' },
      { subject: 'campaign', id, from, to, group: 'country' },
      { subject: 'site', id: site, from, to, group: 'hour' },
      { subject: 'site', id: site, from, to, group: 'widget' },
      { subject: 'site', id: site, from, to, group: 'country' },
    ];
    const before = await Promise.all(queries.map((q) => store.query(q)));
    // without the hourly rollups they answer the same (so they do not read them)
    await t.database.db.execute(sql`delete from rollups`);
    const after = await Promise.all(queries.map((q) => store.query(q)));
    expect(after).toEqual(before);
    expect(before.every((answer) => answer.length > 0)).toBe(true);
  });

  test('whole UTC days are read from the daily tables; the hours around them from the hourly ones', async () => {
    const id = ids.campaigns[0] as number;
    const site = ids.sites[0] as number;
    const whole = { from: new Date('2026-03-05T00:00:00Z'), to: new Date('2026-03-12T00:00:00Z') };
    // a Berlin week: 23 hours before the first whole UTC day, one after the last
    const berlin = {
      from: dayStart('2026-03-05', 'Europe/Berlin'),
      to: dayEnd('2026-03-11', 'Europe/Berlin'),
    };
    const queries: Parameters<StatsStore['query']>[0][] = [
      { subject: 'campaign', id, ...whole, group: 'day' },
      { subject: 'site', id: site, ...whole, group: 'day' },
      { subject: 'campaign', id, ...berlin, group: 'day' },
      { subject: 'site', id: site, ...berlin, group: 'day' },
    ];
    const before = await Promise.all(queries.map((q) => store.query(q)));
    expect(before.map((a) => a.length)).toEqual([7, 7, 7, 7]);
    // the Berlin week is the UTC days 03-05 to 03-10 and 23 hours of 03-11 (and the 4th's last hour, which
    // has no traffic)
    // the hourly tables' rows of the whole days go: the answers over whole days stay, the edges change
    await t.database.db.execute(
      sql`delete from rollups_campaign_hours where hour >= '2026-03-05T00:00:00Z' and hour < '2026-03-12T00:00:00Z'`,
    );
    await t.database.db.execute(
      sql`delete from rollups_site_hours where hour >= '2026-03-05T00:00:00Z' and hour < '2026-03-12T00:00:00Z'`,
    );
    const after = await Promise.all(queries.map((q) => store.query(q)));
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    // the Berlin week's whole UTC days stay (daily tables), its 23 hours of 03-11 are gone (hourly ones)
    expect(after.slice(2)).toEqual(before.slice(2).map((a) => a.filter((d) => d.key !== '1773187200')));
    expect(after.slice(2).map((a) => a.length)).toEqual([6, 6]);
  });
});

describe('the days of a timezone', () => {
  /** A store that records the groups it is asked for and answers nothing. */
  function spy() {
    const asked: string[] = [];
    const none = async () => [];
    const store = {
      query: none,
      income: none,
      report: none,
      reportCount: async () => 0,
      sum: async (spec: { group: string }) => {
        asked.push(spec.group);
        return [];
      },
    } as unknown as StatsStore;
    return { asked, service: createStatsService(store) };
  }

  test.each([
    ['UTC', '2026-03-01', '2026-03-31', 'day'],
    ['Europe/London', '2026-01-01', '2026-01-31', 'day'],
    // London's summer time starts on 03-29: its days from then are not UTC's
    ['Europe/London', '2026-03-01', '2026-03-31', 'hour'],
    ['Europe/Berlin', '2026-03-01', '2026-03-31', 'hour'],
    ['America/New_York', '2026-03-08', '2026-03-08', 'hour'],
    ['Asia/Kolkata', '2026-03-01', '2026-03-02', 'hour'],
    ['Pacific/Chatham', '2026-03-01', '2026-03-02', 'hour'],
  ])('in %s from %s to %s the store is asked for %s groups', async (tz, from, to, expected) => {
    const { asked, service } = spy();
    await service.query('campaign', 1, { from, to, tz, group: 'day' });
    expect(asked).toEqual([expected]);
  });
});
