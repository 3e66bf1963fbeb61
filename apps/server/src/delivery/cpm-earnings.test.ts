import { fromMicros } from '@adp/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sites, users } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { creditCpmEarnings } from './cpm-earnings.ts';
import { publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';
import { dspSplit, splitCharge } from './money-split.ts';

/**
 * A site's payment method: per click (revshare, cpc: the widget's earn processor), per thousand
 * impressions (cpm: this job), or a flat fee (fixed: nothing automatic).
 */

let t: TestApp;
let admin: ReturnType<typeof as>;
const HOUR = 3_600_000;
const chrome = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const balanceOf = async (id: string) =>
  fromMicros(
    (
      await t.database.db
        .select()
        .from(users)
        .where(eq(users.id, Number(id)))
    )[0]!.balance,
  );
const path = (url: string) => url.replace('http://localhost:8080', '');
const get = (url: string) => t.app.inject({ method: 'GET', url: path(url), headers: chrome });

/**
 * A publisher whose site is paid by `method` (at `rate` per thousand when cpm) since `since`; its widget
 * keeps the default earnings (50 % per click).
 */
async function siteWith(method: string, rate = 0, since = new Date(Date.now() - 3 * HOUR)) {
  const p = await publisherWithWidget(t, admin);
  const put = await admin.put(`/api/sites/${p.site._id}`, {
    site: { payment_method: method, cpm_rate: rate },
  });
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json()).toMatchObject({ payment_method: method, cpm_rate: rate });
  await admin.post(`/api/sites/${p.site._id}/moderate`, { decision: 'approve' });
  await t.database.db
    .update(sites)
    .set({ paymentMethodChangedAt: since })
    .where(eq(sites.id, Number(p.site._id)));
  return p;
}

/** One served answer, its impression and a click on its ad: the click's row. */
async function clickOnce(widgetId: string) {
  const answer = (await get(`/serve/widgets/${widgetId}`)).json();
  const ad = answer.items.find((i: { sponsored: boolean }) => i.sponsored);
  expect(ad, JSON.stringify(answer)).toBeTruthy();
  await get(answer.impression_url);
  const res = await get(ad.url);
  const cid = new URL(String(res.headers.location)).searchParams.get('cid');
  const [row] = await rows<{ status: string; publisher_earned: string; platform_earned: string }>(
    sql`select status, publisher_earned::text, platform_earned::text from clicks where click_id = ${cid}`,
  );
  return row;
}

test('a CPM or fixed site earns nothing per click from the hour after its switch: the platform keeps the price', async () => {
  for (const method of ['cpm', 'fixed']) {
    const p = await siteWith(method, 2);
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id, clickprice: 0.5 } });
    await settle(t);
    expect(await clickOnce(p.widget._id)).toEqual({
      status: 'charged',
      publisher_earned: '0',
      platform_earned: '500000',
    });
    expect(await balanceOf(p.user_id)).toBe(0);
  }
  // switched this very hour: its clicks still pay per click until the hour ends (CPM pays from the next)
  const fresh = await siteWith('cpm', 2, new Date());
  await runningCampaign(t, admin, { campaign: { site_id: fresh.site._id, clickprice: 0.5 } });
  await settle(t);
  expect(await clickOnce(fresh.widget._id)).toMatchObject({ status: 'charged', publisher_earned: '250000' });
  // a revshare site earns its percent (the widget's default 50 %) of the same click
  const r = await siteWith('revshare');
  await runningCampaign(t, admin, { campaign: { site_id: r.site._id, clickprice: 0.5 } });
  await settle(t);
  expect(await clickOnce(r.widget._id)).toMatchObject({ status: 'charged', publisher_earned: '250000' });
});

test('a CPM site is paid its rate per thousand ad impressions of each closed hour since its switch, once, late counts too', async () => {
  const now = new Date('2026-11-29T12:10:00Z');
  // switched to CPM at 06:20: the hours from 07:00 on are CPM's
  const p = await siteWith('cpm', 2, new Date('2026-11-29T06:20:00Z'));
  // a CPM site without a rate (a row from before the rule that asks for one) earns nothing
  const unpaid = await siteWith('cpm', 1, new Date('2026-11-29T06:20:00Z'));
  await t.database.db
    .update(sites)
    .set({ cpmRate: 0n })
    .where(eq(sites.id, Number(unpaid.site._id)));
  const at = (hoursAgo: number) => new Date(Math.floor(now.getTime() / HOUR) * HOUR - hoursAgo * HOUR);
  const impressions = async (siteId: string, widgetId: string, hour: Date, n: number) =>
    t.database.db.execute(sql`
      insert into rollups_site_hours (hour, site_id, widget_id, impressions)
      values (${hour.toISOString()}::timestamptz, ${siteId}, ${widgetId}, ${n})
      on conflict (site_id, hour, widget_id) do update
        set impressions = rollups_site_hours.impressions + excluded.impressions`);
  for (const [hour, n] of [
    [at(6), 9000], // 06:00, the hour of the switch: still paid per click
    [at(5), 1500], // 07:00
    [at(1), 500], // 11:00
    [at(0), 7000], // 12:00: not closed yet
  ] as const) {
    await impressions(p.site._id, p.widget._id, hour, n);
    await impressions(unpaid.site._id, unpaid.widget._id, hour, n); // no rate set: nothing
  }

  // 1,500 and 500 ad impressions at 2.00 per thousand
  expect(await creditCpmEarnings(t.database.db, now)).toEqual({ hours: 2, earned: 4_000_000n });
  expect(await balanceOf(p.user_id)).toBe(4);
  expect(await balanceOf(unpaid.user_id)).toBe(0);
  expect(
    await rows(
      sql`select type, sum::text, balance_after::text, source from ledger where user_id = ${p.user_id}`,
    ),
  ).toEqual([{ type: 'publisher_earning', sum: '4000000', balance_after: '4000000', source: 'cpm' }]);
  expect(await rows(sql`select type, sum::text from platform_ledger where type = 'cpm_payout'`)).toEqual([
    { type: 'cpm_payout', sum: '-4000000' },
  ]);
  // the site's statistics count it as earned, in its hours
  expect(
    await rows(
      sql`select earned::text from rollups_site_hours where site_id = ${p.site._id} and earned > 0 order by hour`,
    ),
  ).toEqual([{ earned: '3000000' }, { earned: '1000000' }]);

  // paid once; counts that arrive after the hour was paid are paid their difference
  expect(await creditCpmEarnings(t.database.db, now)).toEqual({ hours: 0, earned: 0n });
  await impressions(p.site._id, p.widget._id, at(5), 250);
  expect(await creditCpmEarnings(t.database.db, now)).toEqual({ hours: 1, earned: 500_000n });
  // a new rate prices the impressions not paid yet, not the hour's paid ones again: 250 × 4.00 / 1000
  await t.database.db
    .update(sites)
    .set({ cpmRate: 4_000_000n })
    .where(eq(sites.id, Number(p.site._id)));
  await impressions(p.site._id, p.widget._id, at(5), 250);
  expect(await creditCpmEarnings(t.database.db, now)).toEqual({ hours: 1, earned: 1_000_000n });
  // the hour that closes later is paid then, once however many runs: 7,000 × 4.00 / 1000
  const later = new Date(now.getTime() + HOUR);
  const both = await Promise.all([
    creditCpmEarnings(t.database.db, later),
    creditCpmEarnings(t.database.db, later),
  ]);
  expect(both.map((r) => r.hours).sort()).toEqual([0, 1]);
  expect(await balanceOf(p.user_id)).toBe(33.5);
  const [books] = await rows<{ ledger: string; balance: string; credited: string }>(sql`
    select (select sum(sum)::text from ledger where user_id = ${p.user_id}) ledger,
           (select balance::text from users where id = ${p.user_id}) balance,
           (select sum(sum)::text from cpm_credits where site_id = ${p.site._id}) credited`);
  expect(books).toEqual({ ledger: '33500000', balance: '33500000', credited: '33500000' });
});

test("a CPM site's DSP-won slots still pay the publisher its share (they are no impressions of ours); a fixed site's do not", () => {
  const widget = {
    earnProcessor: 'percent' as const,
    earnValue: 50_000_000n,
    agencyUserId: null,
    agencyBp: 0n,
    phoenixBp: 0n,
    publisherId: 5,
    perChargeUntil: 0,
  };
  expect(dspSplit(1_000_000n, { ...widget, paymentMethod: 'cpm' }, []).publisher).toBe(500_000n);
  expect(dspSplit(1_000_000n, { ...widget, paymentMethod: 'fixed' }, []).publisher).toBe(0n);
  expect(splitCharge(1_000_000n, widget, []).publisher).toBe(0n);
});

test('only admins set the payment method, CPM with a rate above 0, and a change starts its hours afresh', async () => {
  const p = await publisherWithWidget(t, admin);
  const own = await p.api.put(`/api/sites/${p.site._id}`, { site: { payment_method: 'cpm', cpm_rate: 1 } });
  expect(own.statusCode).toBe(403);
  const noRate = await admin.put(`/api/sites/${p.site._id}`, { site: { payment_method: 'cpm' } });
  expect(noRate.statusCode).toBe(422);
  expect(noRate.json().errors).toEqual([
    expect.objectContaining({ field: 'cpm_rate', code: 'cpm_rate_required' }),
  ]);
  const before = new Date();
  const ok = await admin.put(`/api/sites/${p.site._id}`, { site: { payment_method: 'cpm', cpm_rate: 1 } });
  expect(ok.statusCode, ok.body).toBe(200);
  const [row] = await t.database.db
    .select()
    .from(sites)
    .where(eq(sites.id, Number(p.site._id)));
  expect(row?.paymentMethodChangedAt?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  // the rate alone changes nothing of the method's time; taking the rate to 0 is refused
  await admin.put(`/api/sites/${p.site._id}`, { site: { cpm_rate: 3 } });
  const [again] = await t.database.db
    .select()
    .from(sites)
    .where(eq(sites.id, Number(p.site._id)));
  expect(again?.paymentMethodChangedAt?.getTime()).toBe(row?.paymentMethodChangedAt?.getTime());
  expect((await admin.put(`/api/sites/${p.site._id}`, { site: { cpm_rate: 0 } })).statusCode).toBe(422);
});
