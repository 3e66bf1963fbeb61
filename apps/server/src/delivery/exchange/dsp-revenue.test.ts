import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { agencyMembers, users } from '../../db/schema/index.ts';
import { bookDspWins, type DspWinBooking } from '../../modules/dsp-partners/dsp-wins.ts';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../../test/test-app.ts';
import { publisherWithWidget, runningCampaign, settle } from '../delivery-fixtures.test-helper.ts';

/**
 * A DSP partner's win is money the platform earns: the partner pays the clearing price per impression,
 * and the publisher's share (earn processor), its agency group's phoenix rate of that and its referrer's
 * percent of the platform's income are credited through the ledger once per win (dsp_wins), by the
 * exchange's flush.
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
let server: Server;
let endpoint: string;

const adm = JSON.stringify({
  native: {
    assets: [
      { id: 1, title: { text: 'DSP ad' } },
      { id: 2, img: { url: 'https://cdn.dsp.example/a.jpg' } },
    ],
    link: { url: 'https://landing.dsp.example/x' },
  },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let b = '';
    req.on('data', (c: Buffer) => {
      b += c;
    });
    req.on('end', () => {
      const body = JSON.parse(b);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: body.id,
          cur: 'USD',
          seatbid: [{ bid: [{ id: 'b1', impid: '1', price: 8, adm }] }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rtb`;
  t = await createTestApp({ OUTBOUND_ALLOW_LOOPBACK: '1', PUBLIC_URL: 'https://ads.example' });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const q = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

async function balanceAndLedger(userId: string | number) {
  const [row] = await q<{ balance: string; ledger: string }>(
    sql`select u.balance::text as balance, coalesce((select sum(l.sum) from ledger l where l.user_id = u.id), 0)::text as ledger
        from users u where u.id = ${Number(userId)}`,
  );
  return { balance: BigInt(row!.balance), ledger: BigInt(row!.ledger) };
}

test("a won slot credits the publisher, its group's agency (phoenix rate) and its referrer once, and the books balance", async () => {
  const p = await publisherWithWidget(t, admin);
  // the publisher earns 60 % (admins set revenue terms)
  const terms = await admin.put(`/api/widgets/${p.widget._id}`, {
    widget: { earn_processor: 'percent', earn_value: 60 },
  });
  expect(terms.statusCode, terms.body).toBe(200);
  // its agency group: phoenix rate 20 % (agency rate 50 %: clicks only)
  const agencyUser = await register(t.app);
  await t.database.db
    .update(users)
    .set({ role: 'agency' })
    .where(eq(users.id, Number(agencyUser.user_id)));
  const group = await admin.post('/api/partners', {
    partner: { title: 'Phoenix group', user_id: agencyUser.user_id, agency_rate: 50, phoenix_rate: 20 },
  });
  expect(group.statusCode, group.body).toBe(201);
  await t.database.db
    .insert(agencyMembers)
    .values({ agencyId: Number(group.json()._id), userId: Number(p.user_id) });
  await t.database.db
    .update(users)
    .set({ role: 'agencymember' })
    .where(eq(users.id, Number(p.user_id)));
  // its referrer earns 10 % of the platform's income
  const referrer = await register(t.app);
  await t.database.db.execute(sql`update users set earn_percent = 10 where id = ${Number(referrer.user_id)}`);
  await t.database.db.execute(
    sql`update users set referrer_id = ${Number(referrer.user_id)} where id = ${Number(p.user_id)}`,
  );
  await runningCampaign(t, admin);
  const dsp = await admin.post('/api/dsppartners', {
    dsppartner: {
      name: 'Paying DSP',
      endpoint,
      max_request_time: 1000,
      openrtb_version: '2.6',
      whitelist: [p.site._id],
    },
  });
  expect(dsp.statusCode, dsp.body).toBe(201);
  await settle(t);
  const ctx = contextOf(t.app);
  await ctx.delivery.exchange.reload();

  const before = {
    publisher: await balanceAndLedger(p.user_id),
    agency: await balanceAndLedger(agencyUser.user_id),
    referrer: await balanceAndLedger(referrer.user_id),
  };
  const res = await t.app.inject({
    method: 'GET',
    url: `/serve/widgets/${p.widget._id}?url=https://mag.example/a`,
    headers: {
      'user-agent':
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    },
  });
  expect(res.json().items[0]).toMatchObject({ title: 'DSP ad', sponsored: true });
  await ctx.delivery.exchange.flush();

  // the clearing price is our eCPM 5.00 + 0.01: 5.01 per mille, 5,010 micro-units for the impression;
  // publisher's gross 60 % = 3,006; the group's 20 % of that = 601 (rounded down); the publisher 2,405;
  // the platform's income 2,004, of which the referrer's 10 % = 200; the platform keeps 1,804
  const wins = await q<Record<string, string>>(
    sql`select win_id, revenue::text, publisher_earned::text, agency_earned::text, referral_earned::text,
          platform_earned::text, dsp_partner_id::text, site_id::text, widget_id::text
        from dsp_wins where dsp_partner_id = ${Number(dsp.json()._id)}`,
  );
  expect(wins).toHaveLength(1);
  const win = wins[0]!;
  expect(win).toMatchObject({
    revenue: '5010',
    publisher_earned: '2405',
    agency_earned: '601',
    referral_earned: '200',
    platform_earned: '1804',
    site_id: p.site._id,
    widget_id: p.widget._id,
  });
  const after = {
    publisher: await balanceAndLedger(p.user_id),
    agency: await balanceAndLedger(agencyUser.user_id),
    referrer: await balanceAndLedger(referrer.user_id),
  };
  expect(after.publisher.balance - before.publisher.balance).toBe(2405n);
  expect(after.agency.balance - before.agency.balance).toBe(601n);
  expect(after.referrer.balance - before.referrer.balance).toBe(200n);
  // every balance equals its ledger
  for (const who of Object.values(after)) expect(who.balance).toBe(who.ledger);
  const [platform] = await q<{ s: string }>(
    sql`select coalesce(sum(sum), 0)::text as s from platform_ledger where type = 'dsp_income'`,
  );
  expect(BigInt(platform!.s)).toBe(1804n);
  // the partner's money in its statistics is the same
  const stats = (await admin.get(`/api/dsppartners/${dsp.json()._id}/stats`)).json();
  expect(stats.total).toMatchObject({ wins: 1, revenue: 0.00501 });
  // and the publisher's site and widget statistics hold its share, as its balance does (they showed clicks only)
  const siteStats = async () =>
    (await admin.get(`/api/stats/sites/${p.site._id}?group=widget`)).json() as {
      rows: { key: string; earned: number; spent: number }[];
      total: { earned: number; spent: number };
    };
  const shown = await siteStats();
  expect(shown.total).toMatchObject({ earned: 0.002405, spent: 0.00501 });
  expect(shown.rows).toEqual([expect.objectContaining({ key: p.widget._id, earned: 0.002405 })]);

  // a replay of the win (a flush retried after its commit) books nothing more
  const replay: DspWinBooking = {
    winId: win.win_id!,
    dspPartnerId: Number(win.dsp_partner_id),
    siteId: Number(win.site_id),
    widgetId: Number(win.widget_id),
    revenue: 5010n,
    publisherEarned: 2405n,
    agencyEarned: 601n,
    referralEarned: 200n,
    platformEarned: 1804n,
    credits: [{ userId: Number(p.user_id), type: 'publisher_earning', sum: 2405n }],
    rollup: {
      hour: new Date(),
      campaignId: 0,
      bannerId: 0,
      siteId: Number(win.site_id),
      widgetId: Number(win.widget_id),
      country: '',
      device: 'desktop',
      os: 'windows',
      browser: 'chrome',
      spent: 5010n,
      earned: 2405n,
    },
  };
  expect(await bookDspWins(t.database.db, [replay, replay])).toEqual([]);
  await ctx.dspPartners.stats.write([], [replay]);
  expect(await balanceAndLedger(p.user_id)).toEqual(after.publisher);
  expect((await siteStats()).total).toMatchObject({ earned: 0.002405, spent: 0.00501 });
  const [again] = await q<{ n: number; s: string }>(
    sql`select count(*)::int as n, coalesce(sum(sum), 0)::text as s from platform_ledger where type = 'dsp_income'`,
  );
  expect(again).toEqual({ n: 1, s: '1804' });
  // a partner that won is not deleted (its statistics are money records): it is set inactive
  const gone = await admin.del(`/api/dsppartners/${dsp.json()._id}`);
  expect(gone.statusCode).toBe(422);
  expect(gone.json().errors[0].code).toBe('dsp_partner_in_use');
  await admin.put(`/api/dsppartners/${dsp.json()._id}`, { dsppartner: { status: 'inactive' } });
});

test('a batch books each win once, even when the same win is in it twice', async () => {
  const p = await publisherWithWidget(t, admin);
  const before = await balanceAndLedger(p.user_id);
  const booking: DspWinBooking = {
    winId: `test-${p.user_id}`,
    dspPartnerId: 1,
    siteId: Number(p.site._id),
    widgetId: Number(p.widget._id),
    revenue: 1000n,
    publisherEarned: 500n,
    agencyEarned: 0n,
    referralEarned: 0n,
    platformEarned: 500n,
    credits: [{ userId: Number(p.user_id), type: 'publisher_earning', sum: 500n }],
  };
  expect(await bookDspWins(t.database.db, [booking, booking])).toEqual([booking.winId]);
  expect(await bookDspWins(t.database.db, [booking])).toEqual([]);
  const after = await balanceAndLedger(p.user_id);
  expect(after.balance - before.balance).toBe(500n);
  expect(after.balance).toBe(after.ledger);
});
