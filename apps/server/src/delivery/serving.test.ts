import { fromMicros } from '@adp/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { campaignLedger, campaigns, clicks, ledger, rollups, users } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
const chrome = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'de-DE,de;q=0.9',
};

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: url.replace('http://localhost:8080', ''),
    headers: { ...chrome, ...headers },
  });
const path = (url: string) => url.replace('http://localhost:8080', '');

async function balanceOf(userId: string) {
  const [u] = await t.database.db
    .select({ b: users.balance })
    .from(users)
    .where(eq(users.id, Number(userId)));
  return fromMicros(u!.b);
}
async function campaignBalance(id: string) {
  const [c] = await t.database.db
    .select({ b: campaigns.balance })
    .from(campaigns)
    .where(eq(campaigns.id, Number(id)));
  return fromMicros(c!.b);
}

describe('serving, tracking and charging', () => {
  test('a widget shows a sponsored creative; impression, click and the money split follow', async () => {
    const p = await publisherWithWidget(t, admin);
    const a = await runningCampaign(t, admin);
    await settle(t);

    const served = await get(`/serve/widgets/${p.widget._id}?url=https://mag.example/article`, {
      origin: 'https://mag.example',
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['access-control-allow-origin']).toBe('https://mag.example');
    expect(served.headers['access-control-allow-credentials']).toBe('true');
    expect(served.headers['cache-control']).toBe('no-store');
    expect(String(served.headers['set-cookie'])).toMatch(/^vid=[\w-]{16,64}; /);
    const body = served.json();
    const ad = body.items.find((i: { sponsored: boolean }) => i.sponsored);
    expect(ad).toMatchObject({
      id: `b${a.banner._id}`,
      title: 'Great shoes',
      text: 'Half price',
      sponsored: true,
    });
    expect(ad.url).toMatch(/^http:\/\/localhost:8080\/click\/[\w-]+\.0$/);
    // every item has the fields of DESIGN.md's shape, brand too ('' when the campaign names none)
    for (const item of body.items)
      expect(Object.keys(item)).toEqual(
        expect.arrayContaining(['id', 'title', 'text', 'image', 'url', 'brand', 'sponsored']),
      );
    expect(typeof ad.brand).toBe('string');
    expect(body.impression_url).toMatch(/^http:\/\/localhost:8080\/serve\/i\//);
    expect(body.viewable_url).toMatch(/^http:\/\/localhost:8080\/serve\/v\//);

    // a click before the impression was reported is too fast: the visitor still goes, nothing is charged
    const early = await get(path(ad.url));
    expect(early.statusCode).toBe(302);
    expect(await campaignBalance(a.campaign._id)).toBe(100);

    // a second answer: impression, view, then the click
    const again = (await get(`/serve/widgets/${p.widget._id}`)).json();
    const ad2 = again.items.find((i: { sponsored: boolean }) => i.sponsored);
    expect((await get(path(again.impression_url))).statusCode).toBe(204);
    expect((await get(path(again.impression_url))).statusCode).toBe(204); // counts once
    expect((await get(path(again.viewable_url))).statusCode).toBe(204);
    const click = await get(path(ad2.url));
    expect(click.statusCode).toBe(302);
    const location = new URL(String(click.headers.location));
    expect(location.origin + location.pathname).toBe('https://shop.example/shoes');
    expect(location.searchParams.get('utm_source')).toBe('adp');
    expect(location.searchParams.get('utm_campaign')).toBe(a.campaign._id);
    expect(location.searchParams.get('w')).toBe(p.widget._id);
    const clickId = location.searchParams.get('cid')!;
    expect(clickId).toMatch(/^[\w-]{16}$/);

    const all = await t.database.db.select().from(clicks);
    expect(all.map((r) => r.reason)).toEqual(['too_fast', null]);
    // charged before the answer: campaign -0.50, publisher +50 % (the default earn), platform the rest
    expect(await campaignBalance(a.campaign._id)).toBe(99.5);
    expect(await balanceOf(p.user_id)).toBe(0.25);
    // a replay redirects too but is not charged
    expect((await get(path(ad2.url))).statusCode).toBe(302);
    expect(await campaignBalance(a.campaign._id)).toBe(99.5);
    // a forged token goes nowhere
    const forged = `${path(ad2.url).slice(0, -3)}${ad2.url.endsWith('A') ? 'BBB' : 'AAA'}`;
    expect((await get(forged)).statusCode).toBe(400);

    const [row] = await t.database.db.select().from(clicks).where(eq(clicks.clickId, clickId));
    expect(row).toMatchObject({
      status: 'charged',
      price: 500_000n,
      publisherEarned: 250_000n,
      platformEarned: 250_000n,
    });
    const invalid = await t.database.db.select().from(clicks).where(eq(clicks.status, 'invalid'));
    expect(invalid.map((r) => r.reason)).toEqual(['too_fast']);

    // balances equal their ledgers
    const [{ sum } = { sum: '0' }] = await t.database.db
      .select({ sum: sql<string>`sum(${ledger.sum})::text` })
      .from(ledger)
      .where(eq(ledger.userId, Number(p.user_id)));
    expect(fromMicros(BigInt(sum))).toBe(0.25);
    const [last] = await t.database.db
      .select()
      .from(campaignLedger)
      .where(eq(campaignLedger.campaignId, Number(a.campaign._id)))
      .orderBy(sql`${campaignLedger.id} desc`)
      .limit(1);
    expect(last).toMatchObject({ type: 'campaign_charge', sum: -500_000n, balanceAfter: 99_500_000n });

    // postback: counted once; an unknown click is a 404; a HEAD (a link checker) records nothing
    const head = (url: string) => t.app.inject({ method: 'HEAD', url });
    expect((await head(`/postback?click_id=${clickId}&sum=1&status=probe`)).statusCode).toBe(204);
    expect((await head('/postback?click_id=nobody-clicked-this')).statusCode).toBe(404);
    const [probed] = await t.database.db.select().from(clicks).where(eq(clicks.clickId, clickId));
    expect(probed?.convertedAt).toBeNull();
    expect((await get(`/postback?click_id=${clickId}&sum=12.5&status=sale`)).statusCode).toBe(204);
    expect((await get(`/postback?click_id=${clickId}&sum=99`)).statusCode).toBe(204);
    expect((await get('/postback?click_id=nobody-clicked-this')).statusCode).toBe(404);
    expect((await get('/postback?click_id=x')).statusCode).toBe(400);
    const [converted] = await t.database.db.select().from(clicks).where(eq(clicks.clickId, clickId));
    expect(converted).toMatchObject({ conversionSum: 12_500_000n, conversionStatus: 'sale' });

    // rollups after the buffered impressions are written
    await (await import('../app.ts')).contextOf(t.app).delivery.engine.flush();
    const [totals] = await t.database.db
      .select({
        impressions: sql<number>`sum(${rollups.impressions})::int`,
        viewable: sql<number>`sum(${rollups.viewable})::int`,
        clicks: sql<number>`sum(${rollups.clicks})::int`,
        invalid: sql<number>`sum(${rollups.invalidClicks})::int`,
        conversions: sql<number>`sum(${rollups.conversions})::int`,
        spent: sql<string>`sum(${rollups.spent})::text`,
        earned: sql<string>`sum(${rollups.earned})::text`,
      })
      .from(rollups)
      .where(eq(rollups.campaignId, Number(a.campaign._id)));
    expect(totals).toEqual({
      impressions: 1,
      viewable: 1,
      clicks: 1,
      invalid: 2,
      conversions: 1,
      spent: '500000',
      earned: '250000',
    });
  });

  test('bots get no ads; a bot click on a real token is not charged', async () => {
    const p = await publisherWithWidget(t, admin);
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    await settle(t);
    const bot = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
    const served = (await get(`/serve/widgets/${p.widget._id}`, bot)).json();
    expect(served.items.filter((i: { sponsored: boolean }) => i.sponsored)).toEqual([]);
    expect(served.impression_url).toBeNull();
    const human = (await get(`/serve/widgets/${p.widget._id}`)).json();
    const ad = human.items.find((i: { sponsored: boolean }) => i.sponsored);
    await get(path(human.impression_url));
    const before = await balanceOf(p.user_id);
    expect((await get(path(ad.url), bot)).statusCode).toBe(302);
    expect(await balanceOf(p.user_id)).toBe(before);
  });
});

test('a landing URL and UTM values beyond ASCII reach the visitor percent-encoded, not as a failed redirect', async () => {
  const p = await publisherWithWidget(t, admin);
  const c = await runningCampaign(t, admin, {
    campaign: { site_id: p.site._id, utm: 'utm_term=зима&w={widget_id}' },
    banner: { url: 'https://shop.example/обувь' },
  });
  await settle(t);
  const answer = (await get(`/serve/widgets/${p.widget._id}`)).json();
  await get(path(answer.impression_url));
  const click = await get(path(answer.items.find((i: { id: string }) => i.id === `b${c.banner._id}`).url));
  expect(click.statusCode).toBe(302);
  expect(click.headers.location).toBe(
    `https://shop.example/%D0%BE%D0%B1%D1%83%D0%B2%D1%8C?utm_term=%D0%B7%D0%B8%D0%BC%D0%B0&w=${p.widget._id}`,
  );
});

describe('loading more', () => {
  test.each(['default', 'articlerelevant'])(
    '/more brings creatives the widget does not show yet (seen), and repeats only when none is left (%s)',
    async (processor) => {
      const p = await publisherWithWidget(t, admin, { settings: { columns: 1, rows: 1 }, processor });
      const ids: string[] = [];
      const own: number[] = [];
      for (let i = 0; i < 3; i++) {
        const a = await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
        ids.push(a.banner._id);
        own.push(Number(a.campaign._id));
      }
      // the earlier tests' campaigns serve everywhere: only these three here
      await t.database.db.execute(
        sql`update campaigns set status = 'inactive' where id not in (${sql.join(own, sql`, `)})`,
      );
      await settle(t);
      const sponsoredOf = async (seen: string[]) => {
        const res = await get(
          `/serve/widgets/${p.widget._id}/more?offset=1&seen=${seen.map((id) => `b${id}`).join(',')}`,
        );
        expect(res.statusCode, res.body).toBe(200);
        return res
          .json()
          .items.filter((i: { sponsored: boolean }) => i.sponsored)
          .map((i: { id: string }) => i.id.slice(1));
      };
      for (let round = 0; round < 10; round++) {
        const [a, b, c] = [...ids].sort(() => Math.random() - 0.5) as [string, string, string];
        expect(await sponsoredOf([a])).not.toContain(a);
        expect(await sponsoredOf([a, b])).toEqual([c]);
      }
      // everything shown already: one of them again, not an empty answer
      expect(ids).toContain((await sponsoredOf(ids))[0]);
      const bad = await get(`/serve/widgets/${p.widget._id}/more?seen=1,x`);
      expect(bad.statusCode).toBe(400);
    },
  );
});
