import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { publisherWithWidget, runningCampaign } from './delivery-fixtures.test-helper.ts';

/**
 * The delivery change notices (migrations 0008, 0028, 0033): every instance rebuilds its ad index when a row it
 * reads changes, and a click's balance debit, which changes nothing delivery serves, announces nothing
 * (the charge debits every charged campaign and credits its publisher many times a second).
 */
describe('delivery change notices', () => {
  let t: TestApp;
  let campaignId: number;
  let publisherId: number;
  let siteId: number;
  const heard: string[] = [];
  let stop: () => Promise<void>;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
    const p = await publisherWithWidget(t, admin);
    const a = await runningCampaign(t, admin, { fund: 10 });
    campaignId = Number(a.campaign._id);
    publisherId = Number(p.user_id);
    siteId = Number(p.site._id);
    stop = await t.database.listen('adp_delivery', (payload) => heard.push(payload));
  });
  afterAll(async () => {
    await stop?.();
    await t?.close();
  });

  /** The notices a statement causes: it runs, then a site update whose notice marks the end. */
  async function noticesOf(statement: SQL): Promise<string[]> {
    heard.length = 0;
    await t.database.db.execute(statement);
    await t.database.db.execute(sql`update sites set title = title where id = ${siteId}`);
    for (let i = 0; i < 200 && !heard.includes('sites'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(heard).toContain('sites');
    return heard.filter((n) => n !== 'sites' && n !== '');
  }

  test('a campaign debit that keeps it funded is silent; running out of money, or any other change, is heard', async () => {
    // 10.00 on the campaign, 0.50 a click
    expect(
      await noticesOf(sql`update campaigns set balance = balance - 500000 where id = ${campaignId}`),
    ).toEqual([]);
    expect(
      await noticesOf(
        sql`update campaigns set balance = balance - 1, updated_at = now() where id = ${campaignId}`,
      ),
    ).toEqual([]);
    expect(await noticesOf(sql`update campaigns set balance = 0 where id = ${campaignId}`)).toEqual([
      'campaigns',
    ]);
    expect(await noticesOf(sql`update campaigns set balance = 100000000 where id = ${campaignId}`)).toEqual([
      'campaigns',
    ]);
    expect(await noticesOf(sql`update campaigns set weight = weight + 1 where id = ${campaignId}`)).toEqual([
      'campaigns',
    ]);
    // a debit together with another change is heard for the other change
    expect(
      await noticesOf(sql`update campaigns set balance = balance - 1, utm = 'a=b' where id = ${campaignId}`),
    ).toEqual(['campaigns']);
    expect(
      await noticesOf(
        sql`update campaigns set openrtb = '{"enabled":true,"ecpm_bid":2}'::jsonb where id = ${campaignId}`,
      ),
    ).toEqual(['campaigns']);
  });

  test('every column of campaigns but its balance, id and updated_at is heard when an update sets it', async () => {
    // the update trigger names its columns (0033): a column added to campaigns must be named there too
    const { rows } = (await t.database.db.execute(sql`
      select a.attname as name, a.attnum = any(tg.tgattr::int2[]) as named
      from pg_attribute a, pg_trigger tg
      where a.attrelid = 'campaigns'::regclass and a.attnum > 0 and not a.attisdropped
        and tg.tgrelid = a.attrelid and tg.tgname = 'campaigns_delivery_notice_update'
      order by a.attnum`)) as unknown as {
      rows: { name: string; named: boolean }[];
    };
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => !r.named).map((r) => r.name)).toEqual(['id', 'balance', 'updated_at']);
    // setting a column to what it holds changes nothing delivery serves
    expect(await noticesOf(sql`update campaigns set title = title where id = ${campaignId}`)).toEqual([]);
  });

  test('a user’s balance is silent; role, referrer and earn percent are heard', async () => {
    expect(
      await noticesOf(sql`update users set balance = balance + 250000 where id = ${publisherId}`),
    ).toEqual([]);
    expect(await noticesOf(sql`update users set earn_percent = 5 where id = ${publisherId}`)).toEqual([
      'users',
    ]);
    expect(await noticesOf(sql`update users set role = 'defaultreadonly' where id = ${publisherId}`)).toEqual(
      ['users'],
    );
  });
});
