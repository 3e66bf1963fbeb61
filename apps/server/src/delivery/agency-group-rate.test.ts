import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { users } from '../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../test/test-app.ts';
import { publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';

const chromeUa =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

const get = (url: string, vid: string) =>
  t.app.inject({
    method: 'GET',
    url: url.replace('http://localhost:8080', ''),
    remoteAddress: '198.51.100.7',
    headers: { 'user-agent': chromeUa, 'accept-language': 'en', cookie: `vid=${vid}` },
  });

async function clickOnce(widgetId: string) {
  const vid = randomBytes(12).toString('base64url');
  const body = (await get(`/serve/widgets/${widgetId}`, vid)).json();
  const ad = body.items.find((i: { sponsored: boolean }) => i.sponsored);
  expect(ad, JSON.stringify(body)).toBeTruthy();
  await get(body.impression_url, vid);
  const res = await get(ad.url, vid);
  expect(res.statusCode).toBe(302);
  const cid = new URL(String(res.headers.location)).searchParams.get('cid');
  const { rows } = (await t.database.db.execute(
    sql`select price::text, publisher_earned::text, agency_earned::text from clicks where click_id = ${cid}`,
  )) as unknown as { rows: Record<string, string>[] };
  return rows[0];
}

test("a site without its own agency rate pays its owner's agency group the group's agency rate", async () => {
  const p = await publisherWithWidget(t, admin);
  const agencyUser = await register(t.app);
  await t.database.db
    .update(users)
    .set({ role: 'agency' })
    .where(eq(users.id, Number(agencyUser.user_id)));
  const group = await admin.post('/api/partners', {
    partner: { title: 'Rate group', user_id: agencyUser.user_id, agency_rate: 25 },
  });
  expect(group.statusCode).toBe(201);
  // the publisher joins the group as its member
  const { agencyMembers } = await import('../db/schema/index.ts');
  await t.database.db
    .insert(agencyMembers)
    .values({ agencyId: Number(group.json()._id), userId: Number(p.user_id) });
  await t.database.db
    .update(users)
    .set({ role: 'agencymember' })
    .where(eq(users.id, Number(p.user_id)));
  await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
  await settle(t);

  const first = await clickOnce(p.widget._id);
  const publisher = BigInt(first!.publisher_earned!);
  const agency = BigInt(first!.agency_earned!);
  expect(agency).toBeGreaterThan(0n);
  // 25 % of the publisher's share goes to the group's agency
  expect((agency * 10_000n) / (agency + publisher)).toBe(2_500n);

  // a site's own rate wins over the group's
  await admin.put(`/api/sites/${p.site._id}`, { site: { agency_rate: 10 } });
  await settle(t);
  const second = await clickOnce(p.widget._id);
  const a2 = BigInt(second!.agency_earned!);
  expect((a2 * 10_000n) / (a2 + BigInt(second!.publisher_earned!))).toBe(1_000n);

  // an admin switches the group off: its rates pay nobody, the publisher keeps the whole share
  const off = await admin.put(`/api/partners/${group.json()._id}`, { partner: { status: 'inactive' } });
  expect([off.statusCode, off.json().status]).toEqual([200, 'inactive']);
  await settle(t);
  const third = await clickOnce(p.widget._id);
  expect(third).toMatchObject({ agency_earned: '0', publisher_earned: String(publisher + agency) });
  // and back on, the group's agency earns again
  await admin.put(`/api/partners/${group.json()._id}`, { partner: { status: 'active' } });
  await settle(t);
  expect(BigInt((await clickOnce(p.widget._id))!.agency_earned!)).toBeGreaterThan(0n);
});

test('only admins switch a group on or off; an agency editing its own agency cannot', async () => {
  const agencyUser = await register(t.app);
  await t.database.db
    .update(users)
    .set({ role: 'agency' })
    .where(eq(users.id, Number(agencyUser.user_id)));
  const own = as(t.app, (await login(t.app, agencyUser.email, agencyUser.password)).access_token);
  const created = await own.post('/api/agencies', { agency: { title: 'Own agency' } });
  expect(created.json().status).toBe('active');
  const bad = await own.put(`/api/agencies/${created.json()._id}`, { agency: { status: 'inactive' } });
  expect(bad.statusCode).toBe(422);
  expect(
    (await own.put(`/api/partners/${created.json()._id}`, { partner: { status: 'inactive' } })).statusCode,
  ).toBe(403);
});
