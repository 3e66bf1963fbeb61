import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { targeting } from '@adp/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { banners, campaigns } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../test/test-app.ts';
import { settle } from './delivery-fixtures.test-helper.ts';
import { cityTestDatabase } from './visitor/test-mmdb.ts';
import { userAgents } from './visitor/test-user-agents.ts';

/**
 * Every targeting dimension of a creative in its three states, and the campaign's own rules, seen the way
 * a visitor sees them: through `GET /serve/widgets/:id`. One app for the file; every creative is in its own
 * campaign (an answer holds one creative per campaign) and the widgets have room for all of them, so one
 * answer tells which creatives this visitor may see.
 */

let t: TestApp;
let dir: string;
let admin: ReturnType<typeof as>;
let advertiser: ReturnType<typeof as>;

// MaxMind's test networks (see test-mmdb.ts): London, GB and Milton, US
const LONDON = { ip: '81.2.69.142', country: 'GB', city: 2643743 };
const MILTON = { ip: '216.160.83.58', country: 'US', city: 5803556 };

/** What the setup made: the two widgets (sites), the two pixels' audience cookies, and creatives by key. */
const s = {
  widget1: '',
  widget2: '',
  site1: '',
  site2: '',
  pixel1: '',
  pixel2: '',
  aud1: '',
  aud2: '',
  advertiserToken: '',
  banners: new Map<string, string>(),
};

interface Visitor {
  widget?: 1 | 2;
  ip?: string;
  ua?: string;
  lang?: string;
  /** Which pixel's audience the visitor joined (the `aud` cookie). */
  aud?: 1 | 2 | null;
  vid?: string;
}

/** The visitor of the "listed" requests: London, Chrome on Windows, German, in pixel 1's audience. */
const base: Required<Omit<Visitor, 'vid'>> = {
  widget: 1,
  ip: LONDON.ip,
  ua: userAgents.chromeWindows,
  lang: 'de-DE,de;q=0.9,en;q=0.5',
  aud: 1,
};

/** The banner ids of the sponsored items this visitor is shown, and the answer. */
async function serve(v: Visitor = {}) {
  const o = { ...base, ...v };
  const cookies = [o.aud ? (o.aud === 1 ? s.aud1 : s.aud2) : '', v.vid ? `vid=${v.vid}` : ''].filter(Boolean);
  const res = await t.app.inject({
    method: 'GET',
    url: `/serve/widgets/${o.widget === 1 ? s.widget1 : s.widget2}`,
    remoteAddress: o.ip,
    headers: {
      'user-agent': o.ua,
      'accept-language': o.lang,
      ...(cookies.length ? { cookie: cookies.join('; ') } : {}),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as {
    items: { id: string; url: string; sponsored: boolean }[];
    impression_url: string | null;
  };
  const ads = body.items.filter((i) => i.sponsored);
  return { ids: new Set(ads.map((i) => i.id.slice(1))), ads, body };
}

/** For each key, whether its creative is in the answer. */
async function shown(keys: string[], v: Visitor = {}) {
  const { ids } = await serve(v);
  return Object.fromEntries(keys.map((k) => [k, ids.has(s.banners.get(k) ?? 'missing')]));
}

const local = (url: string) => url.replace('http://localhost:8080', '');

/** A site (with its language) and a widget with room for every creative of this file. */
async function publisher(language: string, type: 'default' | 'infinite') {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'Mag', domain: `mag-${u.user_id}.example`, category: 'news', language },
    })
  ).json();
  expect(site._id, JSON.stringify(site)).toBeTruthy();
  await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
  const w = (
    await api.post('/api/widgets', {
      widget: { title: 'Below article', site_id: site._id, settings: { type, columns: 8, rows: 20 } },
    })
  ).json();
  expect(w._id, JSON.stringify(w)).toBeTruthy();
  await admin.post(`/api/widgets/${w._id}/moderate`, { decision: 'approve' });
  return { site: site._id as string, widget: w._id as string };
}

/** A pixel of the advertiser, and the `aud` cookie a browser gets from visiting a page that loads it. */
async function pixel() {
  const p = (await advertiser.post('/api/pixels', { pixel: { title: 'Checkout' } })).json();
  expect(p._id, JSON.stringify(p)).toBeTruthy();
  const visit = await t.app.inject({
    method: 'GET',
    url: `/px/${p._id}.gif?u=${encodeURIComponent('https://shop.example/checkout')}`,
    headers: { 'user-agent': base.ua },
  });
  const aud = ([] as string[])
    .concat(visit.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0] as string)
    .find((c) => c.startsWith('aud='));
  expect(aud, `the pixel visit sets the audience cookie: ${JSON.stringify(visit.headers)}`).toBe(
    `aud=${p._id}`,
  );
  return { id: p._id as string, cookie: aud as string };
}

/**
 * A campaign of the advertiser with one creative: funded, approved and active unless told otherwise.
 * Records the creative's id under `key`.
 */
async function creative(
  key: string,
  o: {
    campaign?: Record<string, unknown>;
    fund?: number;
    approve?: boolean;
    pause?: boolean;
    ips?: string;
  } = {},
) {
  const c = (
    await advertiser.post('/api/campaigns', {
      campaign: { title: key, clickprice: 0.5, click_filter: 'dummy', ...o.campaign },
    })
  ).json();
  expect(c._id, JSON.stringify(c)).toBeTruthy();
  const paid = await advertiser.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: o.fund ?? 10 } });
  expect(paid.statusCode, paid.body).toBe(201);
  if (o.ips !== undefined) {
    const boundary = 'b0undary';
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${c._id}/import-ips`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ips.csv"\r\nContent-Type: text/csv\r\n\r\n${o.ips}\r\n--${boundary}--\r\n`,
      headers: {
        authorization: `Bearer ${s.advertiserToken}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const b = (
    await advertiser.post('/api/banners', {
      banner: { campaign_id: c._id, title: key.slice(0, 60), url: 'https://shop.example/' },
    })
  ).json();
  expect(b._id, `${key}: ${JSON.stringify(b)}`).toBeTruthy();
  await admin.post(`/api/campaigns/${c._id}/moderate`, { decision: 'approve' });
  if (o.approve !== false) await admin.post(`/api/banners/${b._id}/moderate`, { decision: 'approve' });
  const on = await advertiser.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
  expect(on.statusCode, on.body).toBe(200);
  if (o.pause) await advertiser.put(`/api/campaigns/${c._id}`, { campaign: { status: 'inactive' } });
  s.banners.set(key, b._id);
}

// --- time: values around the real current UTC time (listed: now and the next unit, so a boundary crossed
// during the run changes nothing; unlisted: neither) -----------------------------------------------------
const now = new Date();
const dayOf = (offsetDays: number) =>
  new Date(now.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const hhmm = (offsetMinutes: number) =>
  new Date(now.getTime() + offsetMinutes * 60_000).toISOString().slice(11, 16);
const hour = now.getUTCHours();
const weekday = ((now.getUTCDay() + 6) % 7) + 1;
const nextWeekday = (weekday % 7) + 1;
const dom = now.getUTCDate();
const nextDom = new Date(now.getTime() + 86_400_000).getUTCDate();

interface Dimension {
  dim: string;
  /** Values that hold the "listed" visitor's (values that hold the other visitor's, when there is one). */
  listed: () => unknown[];
  unlisted: () => unknown[];
  /** The visitor whose value is in `unlisted`; time dimensions have none (the server's clock decides). */
  other?: Visitor;
}

const dimensions: Dimension[] = [
  {
    dim: 'dates',
    listed: () => [{ from: dayOf(-1), to: dayOf(1) }],
    unlisted: () => [
      { from: '2001-01-01', to: '2001-12-31' },
      { from: dayOf(3), to: dayOf(30) },
    ],
  },
  {
    dim: 'time',
    listed: () => [{ from: hhmm(-60), to: hhmm(120) }],
    unlisted: () => [{ from: hhmm(180), to: hhmm(300) }],
  },
  { dim: 'hours', listed: () => [hour, (hour + 1) % 24], unlisted: () => [(hour + 2) % 24, (hour + 3) % 24] },
  {
    dim: 'weekdays',
    listed: () => [weekday, nextWeekday],
    unlisted: () => [1, 2, 3, 4, 5, 6, 7].filter((d) => d !== weekday && d !== nextWeekday),
  },
  {
    dim: 'days_of_month',
    listed: () => [dom, nextDom],
    unlisted: () => Array.from({ length: 31 }, (_, i) => i + 1).filter((d) => d !== dom && d !== nextDom),
  },
  {
    dim: 'devices',
    listed: () => ['desktop'],
    unlisted: () => ['mobile'],
    other: { ua: userAgents.androidPhone },
  },
  { dim: 'os', listed: () => ['windows'], unlisted: () => ['linux'], other: { ua: userAgents.firefoxLinux } },
  {
    dim: 'browsers',
    listed: () => ['chrome'],
    unlisted: () => ['firefox'],
    other: { ua: userAgents.firefoxLinux },
  },
  {
    dim: 'browser_languages',
    listed: () => ['de'],
    unlisted: () => ['fr'],
    other: { lang: 'fr-FR,fr;q=0.9' },
  },
  { dim: 'user_languages', listed: () => ['de'], unlisted: () => ['fr'], other: { lang: 'fr-FR,fr;q=0.9' } },
  {
    dim: 'countries',
    listed: () => [LONDON.country],
    unlisted: () => [MILTON.country],
    other: { ip: MILTON.ip },
  },
  { dim: 'cities', listed: () => [LONDON.city], unlisted: () => [MILTON.city], other: { ip: MILTON.ip } },
  { dim: 'sites', listed: () => [s.site1], unlisted: () => [s.site2], other: { widget: 2 } },
  { dim: 'widget_types', listed: () => ['default'], unlisted: () => ['infinite'], other: { widget: 2 } },
  { dim: 'site_languages', listed: () => ['de'], unlisted: () => ['fr'], other: { widget: 2 } },
  {
    dim: 'ips',
    listed: () => ['81.2.69.0/24', '2001:db8::/32'],
    unlisted: () => ['216.160.83.56/29'],
    other: { ip: MILTON.ip },
  },
  { dim: 'pixels', listed: () => [s.pixel1], unlisted: () => [s.pixel2], other: { aud: 2 } },
];

/** Per dimension: off (with values that would not match), "only these" and "all but these" of each list. */
const variants = ['inactive', 'active listed', 'active unlisted', 'negative listed', 'negative unlisted'];
const keysOf = (dim: string) => variants.map((v) => `${dim}: ${v}`);

const partners = ['dsp_partners', 'prebid_partners'];
const dateRules: [string, Record<string, unknown>, boolean][] = [
  ['start_date yesterday', { start_date: dayOf(-1) }, true],
  ['start_date tomorrow', { start_date: dayOf(1) }, false],
  ['end_date tomorrow', { end_date: dayOf(1) }, true],
  ['end_date yesterday', { end_date: dayOf(-1) }, false],
  ['start_date and end_date today', { start_date: dayOf(0), end_date: dayOf(0) }, true],
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'targeting-serving-'));
  writeFileSync(join(dir, 'city.mmdb'), cityTestDatabase());
  t = await createTestApp({ GEOIP_DB: join(dir, 'city.mmdb') });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const a = await register(t.app);
  s.advertiserToken = a.access_token;
  advertiser = as(t.app, a.access_token);
  await admin.post(`/api/users/${a.user_id}/payments`, { payment: { sum: 10_000 } });
  const p1 = await publisher('de', 'default');
  const p2 = await publisher('fr', 'infinite');
  Object.assign(s, { widget1: p1.widget, site1: p1.site, widget2: p2.widget, site2: p2.site });
  const [x1, x2] = [await pixel(), await pixel()];
  Object.assign(s, { pixel1: x1.id, aud1: x1.cookie, pixel2: x2.id, aud2: x2.cookie });

  // the creatives of the targeting dimensions, written straight to the tables (a hundred campaigns through
  // the API would take most of a minute); each rule set is parsed by the contract's schema first, as the API
  // does, so a typo here fails loudly instead of hiding a creative (the index drops rule sets it cannot read).
  // Their balances have no ledger rows: this file checks what is shown, never money (serving.test.ts does)
  const direct: [string, Record<string, unknown>][] = [];
  for (const d of dimensions) {
    const listed = d.listed();
    const unlisted = d.unlisted();
    const [off, activeL, activeU, negativeL, negativeU] = keysOf(d.dim) as [
      string,
      string,
      string,
      string,
      string,
    ];
    direct.push(
      [off, { [d.dim]: { state: 'inactive', values: unlisted } }],
      [activeL, { [d.dim]: { state: 'active', values: listed } }],
      [activeU, { [d.dim]: { state: 'active', values: unlisted } }],
      [negativeL, { [d.dim]: { state: 'negative', values: listed } }],
      [negativeU, { [d.dim]: { state: 'negative', values: unlisted } }],
    );
  }
  for (const dim of partners)
    for (const state of ['inactive', 'active', 'negative'])
      direct.push([`${dim}: ${state}`, { [dim]: { state, values: ['7'] } }]);
  for (const [key, rules] of dateRules) direct.push([key, rules]);
  direct.push(
    ['capping impressions', { capping: { state: 'active', impressions: 1 } }],
    ['capping clicks', { capping: { state: 'active', clicks: 1 } }],
    ['capping inactive', { capping: { state: 'inactive', impressions: 1, clicks: 1 } }],
  );
  const rows = await t.database.db
    .insert(campaigns)
    .values(
      direct.map(([key]) => ({
        userId: Number(a.user_id),
        title: key,
        status: 'active',
        moderation: 'approved',
        clickprice: 500_000n,
        balance: 10_000_000n,
        clickFilter: 'dummy',
      })),
    )
    .returning({ id: campaigns.id, title: campaigns.title });
  const campaignOf = new Map(rows.map((r) => [r.title, r.id]));
  const made = await t.database.db
    .insert(banners)
    .values(
      direct.map(([key, rules]) => ({
        campaignId: campaignOf.get(key) as number,
        userId: Number(a.user_id),
        title: key.slice(0, 60),
        url: 'https://shop.example/',
        moderation: 'approved',
        targeting: targeting.parse(rules) as Record<string, unknown>,
      })),
    )
    .returning({ id: banners.id, campaignId: banners.campaignId });
  const keyOf = new Map(rows.map((r) => [r.id, r.title]));
  for (const b of made) s.banners.set(keyOf.get(b.campaignId) as string, String(b.id));

  // the campaign's own rules through the API, as an advertiser and a moderator set them
  const jobs: (() => Promise<void>)[] = [];
  jobs.push(
    () => creative('campaign site 1', { campaign: { site_id: s.site1 } }),
    () => creative('campaign site 2', { campaign: { site_id: s.site2 } }),
    () => creative('campaign widget 1', { campaign: { widgets: [s.widget1] } }),
    () => creative('campaign widget 2', { campaign: { widgets: [s.widget2] } }),
    () => creative('campaign IPs London', { ips: 'ip\n81.2.69.0/24\n2001:db8::/32\n' }),
    () => creative('campaign IPs Milton', { ips: 'ip\n216.160.83.58\n' }),
    () => creative('campaign paused', { pause: true }),
    () => creative('campaign funded for one click', { fund: 0.5 }),
    () => creative('creative not approved', { approve: false }),
  );
  // a few at a time: PostgreSQL overlaps them, PGlite takes them in turn
  for (let i = 0; i < jobs.length; i += 6) await Promise.all(jobs.slice(i, i + 6).map((j) => j()));
  await settle(t);
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('each targeting dimension of a creative, through the widget answer', () => {
  test.each(dimensions)(
    '$dim: inactive shows, active only for a listed value, negative only for an unlisted one',
    async (d) => {
      const keys = keysOf(d.dim);
      const listedVisitor = {
        inactive: true,
        'active listed': true,
        'active unlisted': false,
        'negative listed': false,
        'negative unlisted': true,
      };
      const name = (o: Record<string, boolean>) =>
        Object.fromEntries(Object.entries(o).map(([k, v]) => [`${d.dim}: ${k}`, v]));
      expect(await shown(keys)).toEqual(name(listedVisitor));
      if (d.other) {
        // a visitor whose value is the other list's: the roles swap, "off" still shows
        expect(await shown(keys, d.other)).toEqual(
          name({
            inactive: true,
            'active listed': false,
            'active unlisted': true,
            'negative listed': true,
            'negative unlisted': false,
          }),
        );
      }
    },
  );

  test.each(partners)(
    '%s: a direct widget request comes from no partner, so only "active" hides',
    async (dim) => {
      const keys = ['inactive', 'active', 'negative'].map((state) => `${dim}: ${state}`);
      expect(await shown(keys)).toEqual({ [keys[0]!]: true, [keys[1]!]: false, [keys[2]!]: true });
    },
  );

  test.each(dateRules)('%s: shown %s', async (key, _rules, visible) => {
    expect(await shown([key])).toEqual({ [key]: visible });
  });

  test('capping: per visitor (the vid cookie), impressions counted by the beacon, clicks by the click', async () => {
    const keys = ['capping impressions', 'capping clicks', 'capping inactive'];
    const ann = 'annVisitor-000000001';
    const bob = 'bobVisitor-000000001';
    const id = (k: string) => s.banners.get(k);
    expect(await shown(keys, { vid: ann })).toEqual({
      'capping impressions': true,
      'capping clicks': true,
      'capping inactive': true,
    });
    // served but not yet reported as seen: no impression counted
    const first = await serve({ vid: ann });
    expect(first.ids.has(id('capping impressions')!)).toBe(true);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: local(first.body.impression_url!),
          headers: { 'user-agent': base.ua },
        })
      ).statusCode,
    ).toBe(204);

    const second = await serve({ vid: ann });
    expect(Object.fromEntries(keys.map((k) => [k, second.ids.has(id(k)!)]))).toEqual({
      'capping impressions': false,
      'capping clicks': true,
      'capping inactive': true,
    });
    // another visitor is not capped by Ann's impression
    expect((await shown(keys, { vid: bob }))['capping impressions']).toBe(true);

    // Ann sees the second answer and clicks the click-capped creative: charged, then capped
    await t.app.inject({
      method: 'GET',
      url: local(second.body.impression_url!),
      headers: { 'user-agent': base.ua },
    });
    const ad = second.ads.find((i) => i.id === `b${id('capping clicks')}`)!;
    const click = await t.app.inject({
      method: 'GET',
      url: local(ad.url),
      remoteAddress: base.ip,
      headers: { 'user-agent': base.ua, cookie: `vid=${ann}` },
    });
    expect(click.statusCode).toBe(302);
    expect(await shown(keys, { vid: ann })).toEqual({
      'capping impressions': false,
      'capping clicks': false,
      'capping inactive': true,
    });
    expect(await shown(keys, { vid: bob })).toEqual({
      'capping impressions': true,
      'capping clicks': true,
      'capping inactive': true,
    });
  });
});

describe("the campaign's own rules", () => {
  const cases: [string, boolean, boolean, Visitor][] = [
    // key, shown to the base visitor on widget 1, shown to the other visitor
    ['campaign site 1', true, false, { widget: 2 }],
    ['campaign site 2', false, true, { widget: 2 }],
    ['campaign widget 1', true, false, { widget: 2 }],
    ['campaign widget 2', false, true, { widget: 2 }],
    ['campaign IPs London', true, false, { ip: MILTON.ip }],
    ['campaign IPs Milton', false, true, { ip: MILTON.ip }],
    ['campaign paused', false, false, { widget: 2 }],
    ['creative not approved', false, false, { widget: 2 }],
  ];
  test.each(cases)('%s: shown %s, to the other visitor %s', async (key, here, there, other) => {
    expect(await shown([key])).toEqual({ [key]: here });
    expect(await shown([key], other)).toEqual({ [key]: there });
  });

  test('a campaign whose balance falls below its click price by a click is no longer served', async () => {
    const key = 'campaign funded for one click';
    const id = s.banners.get(key);
    const answer = await serve();
    expect(answer.ids.has(id as string)).toBe(true);
    const ua = { 'user-agent': base.ua };
    expect(
      (await t.app.inject({ method: 'GET', url: local(answer.body.impression_url as string), headers: ua }))
        .statusCode,
    ).toBe(204);
    const ad = answer.ads.find((i) => i.id === `b${id}`) as { url: string };
    expect(
      (await t.app.inject({ method: 'GET', url: local(ad.url), remoteAddress: base.ip, headers: ua }))
        .statusCode,
    ).toBe(302);
    const [row] = await t.database.db
      .select({ balance: campaigns.balance })
      .from(campaigns)
      .where(eq(campaigns.title, key));
    expect(row?.balance).toBe(0n);
    await settle(t);
    expect(await shown([key])).toEqual({ [key]: false });
    expect(await shown([key], { widget: 2 })).toEqual({ [key]: false });
  });
});
