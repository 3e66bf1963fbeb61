import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { agencyMembers, users } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../test/test-app.ts';
import { publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';
import { splitCharge } from './money-split.ts';

const chromeUa =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

const q = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

const get = (url: string, vid: string) =>
  t.app.inject({
    method: 'GET',
    url: url.replace('http://localhost:8080', ''),
    remoteAddress: '198.51.100.7',
    headers: { 'user-agent': chromeUa, 'accept-language': 'en', cookie: `vid=${vid}` },
  });

test("a member's campaign pays its agency group the group's campaign rate of each charge, out of the platform's income", async () => {
  const p = await publisherWithWidget(t, admin);
  const agencyUser = await register(t.app);
  await t.database.db
    .update(users)
    .set({ role: 'agency' })
    .where(eq(users.id, Number(agencyUser.user_id)));
  const group = await admin.post('/api/partners', {
    partner: { title: 'Advertisers group', user_id: agencyUser.user_id, campaign_rate: 12.5 },
  });
  expect(group.statusCode, group.body).toBe(201);
  const advertiser = await register(t.app);
  await t.database.db
    .insert(agencyMembers)
    .values({ agencyId: Number(group.json()._id), userId: Number(advertiser.user_id) });
  await t.database.db
    .update(users)
    .set({ role: 'agencymember' })
    .where(eq(users.id, Number(advertiser.user_id)));
  await runningCampaign(t, admin, { user: advertiser, campaign: { site_id: p.site._id } });
  await settle(t);

  const vid = randomBytes(12).toString('base64url');
  const body = (await get(`/serve/widgets/${p.widget._id}`, vid)).json();
  const ad = body.items.find((i: { sponsored: boolean }) => i.sponsored);
  expect(ad, JSON.stringify(body)).toBeTruthy();
  await get(body.impression_url, vid);
  const res = await get(ad.url, vid);
  expect(res.statusCode).toBe(302);
  const cid = new URL(String(res.headers.location)).searchParams.get('cid');
  const [click] = await q<Record<string, string>>(
    sql`select status, price::text, publisher_earned::text, agency_earned::text, platform_earned::text
        from clicks where click_id = ${cid}`,
  );
  // 0.50 per click; the publisher's default 50 % = 250,000; the group's 12.5 % of the charge = 62,500 out
  // of the platform's 250,000; the platform keeps 187,500
  expect(click).toEqual({
    status: 'charged',
    price: '500000',
    publisher_earned: '250000',
    agency_earned: '62500',
    platform_earned: '187500',
  });
  const [agency] = await q<{ balance: string; ledger: string; types: string }>(
    sql`select u.balance::text as balance, (select sum(sum) from ledger where user_id = u.id)::text as ledger,
          (select string_agg(distinct type, ',') from ledger where user_id = u.id) as types
        from users u where u.id = ${Number(agencyUser.user_id)}`,
  );
  expect(agency).toEqual({ balance: '62500', ledger: '62500', types: 'agency_earning' });
});

test('the split always adds up: campaign rate capped by the platform income, referrers after it', () => {
  const widget = {
    earnProcessor: 'percent' as const,
    earnValue: 80_000_000n,
    agencyUserId: 7,
    agencyBp: 1_000n,
    publisherId: 5,
  };
  // 1.00: publisher's gross 800,000 (agency 10 % = 80,000); income 200,000; campaign rate 30 % of the
  // charge = 300,000, capped at the income: 200,000; nothing left for the referrer or the platform
  const capped = splitCharge(1_000_000n, widget, [{ userId: 9, bp: 5_000n }], { userId: 8, bp: 3_000n });
  expect(capped).toMatchObject({ publisher: 720_000n, agency: 280_000n, referral: 0n, platform: 0n });
  // campaign rate 5 % = 50,000; income left 150,000; the referrer's 50 % = 75,000
  const split = splitCharge(1_000_000n, widget, [{ userId: 9, bp: 5_000n }], { userId: 8, bp: 500n });
  expect(split).toMatchObject({
    publisher: 720_000n,
    agency: 130_000n,
    referral: 75_000n,
    platform: 75_000n,
  });
  expect(split.publisher + split.agency + split.referral + split.platform).toBe(1_000_000n);
  expect(split.credits).toEqual([
    { userId: 5, type: 'publisher_earning', sum: 720_000n },
    { userId: 7, type: 'agency_earning', sum: 80_000n },
    { userId: 8, type: 'agency_earning', sum: 50_000n },
    { userId: 9, type: 'referral_earning', sum: 75_000n },
  ]);
});

test('a stored percent above 100 (set before the rule) pays at most the charge', () => {
  const widget = {
    earnProcessor: 'percent' as const,
    earnValue: 150_000_000n,
    agencyUserId: null,
    agencyBp: 0n,
    publisherId: 5,
  };
  const split = splitCharge(500_000n, widget, []);
  expect(split).toMatchObject({ publisher: 500_000n, platform: 0n });
  expect(split.publisher + split.agency + split.referral + split.platform).toBe(500_000n);
});
