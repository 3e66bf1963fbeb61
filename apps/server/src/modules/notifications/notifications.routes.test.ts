import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { publisherWithWidget, runningCampaign } from '../../delivery/delivery-fixtures.test-helper.ts';
import { pruneExchangeNotices } from '../../delivery/events-retention.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';
import { lowBalanceResult } from './notices.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t?.close());

type Api = ReturnType<typeof as>;
interface Note {
  _id: string;
  type: string;
  user_id: string | null;
  campaign_id: string | null;
  payload: Record<string, unknown>;
  read_at: string | null;
}
const notes = async (api: Api, query = '') =>
  (await api.get(`/api/notifications?limit=100${query}`)).json().items as Note[];
const unread = async (api: Api) => (await api.get('/api/notifications/unread-count')).json().count as number;

async function user() {
  const u = await register(t.app);
  return { ...u, api: as(t.app, u.access_token) };
}

async function siteOf(u: Awaited<ReturnType<typeof user>>) {
  const site = (
    await u.api.post('/api/sites', {
      site: {
        title: 'Mag',
        domain: `mag-${u.user_id}-${Math.random().toString(36).slice(2, 6)}.example`,
        category: 'news',
      },
    })
  ).json();
  expect(site._id, JSON.stringify(site)).toBeTruthy();
  return site as { _id: string; domain: string };
}

describe('moderation decisions', () => {
  test('the owner is told of a rejection (with the reason) and of an approval; nobody else is', async () => {
    const owner = await user();
    const stranger = await user();
    const site = await siteOf(owner);
    const rejected = await admin.post(`/api/sites/${site._id}/moderate`, {
      decision: 'reject',
      reason: 'No privacy policy',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });

    const mine = await notes(owner.api);
    expect(mine.map((n) => [n.type, n.payload.decision, n.payload.reason])).toEqual([
      ['moderation', 'approved', null],
      ['moderation', 'rejected', 'No privacy policy'],
    ]);
    expect(mine[1]).toMatchObject({
      user_id: owner.user_id,
      read_at: null,
      payload: { resource: 'site', id: site._id, name: site.domain },
    });
    expect(await unread(owner.api)).toBe(2);
    expect(await notes(stranger.api)).toEqual([]);
    expect(await unread(stranger.api)).toBe(0);
    // an admin's list holds the admin's own and the exchange's notices, not users' moderation notices
    expect((await notes(admin)).some((n) => n.user_id === owner.user_id)).toBe(false);
  });

  test('widgets, campaigns and creatives: each decision notifies its owner once', async () => {
    const pub = await publisherWithWidget(t, admin);
    const adv = await runningCampaign(t, admin);
    const pubNotes = await notes(pub.api);
    // the fixture's approvals: site and widget
    expect(pubNotes.map((n) => n.payload.resource).sort()).toEqual(['site', 'widget']);
    expect(pubNotes.find((n) => n.payload.resource === 'widget')).toMatchObject({
      payload: { id: pub.widget._id, name: 'Below article', decision: 'approved' },
    });
    const advNotes = await notes(adv.api);
    expect(advNotes.map((n) => n.payload.resource).sort()).toEqual(['banner', 'campaign']);
    expect(advNotes.find((n) => n.payload.resource === 'campaign')).toMatchObject({
      campaign_id: adv.campaign._id,
      payload: { name: adv.campaign.title },
    });
    // a creative's notification names its campaign: the dashboard's link to the creative needs it
    expect(advNotes.find((n) => n.payload.resource === 'banner')).toMatchObject({
      campaign_id: adv.campaign._id,
      payload: { id: adv.banner._id },
    });
    await admin.post(`/api/banners/${adv.banner._id}/moderate`, { decision: 'reject', reason: 'Blurry' });
    expect((await notes(adv.api, '&unread=true'))[0]).toMatchObject({
      type: 'moderation',
      payload: { resource: 'banner', id: adv.banner._id, decision: 'rejected', reason: 'Blurry' },
    });

    // the same decision again changes nothing and tells nobody twice; another reason is news
    for (const [path, body] of [
      [`/api/widgets/${pub.widget._id}/moderate`, { decision: 'approve' }],
      [`/api/sites/${pub.site._id}/moderate`, { decision: 'approve' }],
      [`/api/campaigns/${adv.campaign._id}/moderate`, { decision: 'approve' }],
      [`/api/banners/${adv.banner._id}/moderate`, { decision: 'reject', reason: 'Blurry' }],
    ] as const) {
      const again = await admin.post(path, body);
      expect(again.statusCode, again.body).toBe(200);
    }
    expect(await notes(pub.api)).toHaveLength(2);
    expect(await notes(adv.api)).toHaveLength(3);
    const widget = (await admin.get(`/api/widgets/${pub.widget._id}`)).json();
    expect(widget.moderation).toBe('approved');
    await admin.post(`/api/banners/${adv.banner._id}/moderate`, { decision: 'reject', reason: 'Too dark' });
    expect(await notes(adv.api)).toHaveLength(4);
  });

  test('a decision on a record deleted after it was loaded is a 404, not a 500', async () => {
    const ctx = contextOf(t.app);
    const adv = await runningCampaign(t, admin);
    const pub = await publisherWithWidget(t, admin);
    const banner = await ctx.banners.repo.row(Number(adv.banner._id));
    const widget = await ctx.widgetsRepo.row(Number(pub.widget._id));
    expect(banner && widget).toBeTruthy();
    expect((await adv.api.del(`/api/banners/${adv.banner._id}`)).statusCode).toBe(204);
    expect((await pub.api.del(`/api/widgets/${pub.widget._id}`)).statusCode).toBe(204);
    const approve = { moderation: 'approved', moderationReason: null } as const;
    await expect(ctx.banners.service.moderate(banner!, approve)).rejects.toMatchObject({ status: 404 });
    await expect(ctx.widgets.decide(widget!, approve)).rejects.toMatchObject({ status: 404 });
    await expect(ctx.campaigns.moderate(999_999_999, approve)).rejects.toMatchObject({ status: 404 });
    await expect(ctx.sites.moderate(999_999_999, approve)).rejects.toMatchObject({ status: 404 });
  });

  test('a refused decision (not a moderator, foreign or unknown id) writes no notification', async () => {
    const owner = await user();
    const site = await siteOf(owner);
    expect(
      (await owner.api.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' })).statusCode,
    ).toBe(403);
    expect((await admin.post('/api/sites/999999999/moderate', { decision: 'approve' })).statusCode).toBe(404);
    expect(await notes(owner.api)).toEqual([]);
  });
});

describe('read and unread', () => {
  async function withNotes() {
    const owner = await user();
    const site = await siteOf(owner);
    await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'reject', reason: 'r1' });
    await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
    return { owner, list: await notes(owner.api) };
  }

  test('the owner marks one read and unread again; the count follows', async () => {
    const { owner, list } = await withNotes();
    const target = list[0]!;
    const read = await owner.api.put(`/api/notifications/${target._id}`, { read: true });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().read_at).toEqual(expect.any(String));
    expect(await unread(owner.api)).toBe(1);
    expect((await notes(owner.api, '&unread=true')).map((n) => n._id)).toEqual([list[1]!._id]);
    // marking read again keeps the first time
    const again = await owner.api.put(`/api/notifications/${target._id}`, { read: true });
    expect(again.json().read_at).toBe(read.json().read_at);
    const back = await owner.api.put(`/api/notifications/${target._id}`, { read: false });
    expect(back.json().read_at).toBeNull();
    expect(await unread(owner.api)).toBe(2);
  });

  test("someone else's notification is 404 for users and admins alike; bad input is 422", async () => {
    const { owner, list } = await withNotes();
    const stranger = await user();
    const id = list[0]!._id;
    expect((await stranger.api.put(`/api/notifications/${id}`, { read: true })).statusCode).toBe(404);
    expect((await admin.put(`/api/notifications/${id}`, { read: true })).statusCode).toBe(404);
    expect((await owner.api.put('/api/notifications/999999999', { read: true })).statusCode).toBe(404);
    expect((await owner.api.put('/api/notifications/abc', { read: true })).statusCode).toBe(404);
    const bad = await owner.api.put(`/api/notifications/${id}`, { read: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].field).toBe('read');
    expect((await owner.api.put(`/api/notifications/${id}`, { read: true, user_id: '1' })).statusCode).toBe(
      422,
    );
    expect(await unread(owner.api)).toBe(2);
  });

  test("mark all read marks the caller's own only", async () => {
    const a = await withNotes();
    const b = await withNotes();
    const res = await a.owner.api.post('/api/notifications/read-all');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ marked: 2 });
    expect(await unread(a.owner.api)).toBe(0);
    expect((await notes(a.owner.api)).every((n) => n.read_at !== null)).toBe(true);
    expect(await unread(b.owner.api)).toBe(2);
    expect((await a.owner.api.post('/api/notifications/read-all')).json()).toEqual({ marked: 0 });
  });

  test('signed out is 401 everywhere; dummy is 403; readonly roles read their own but mark nothing', async () => {
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['POST', '/api/notifications/read-all'],
      ['PUT', '/api/notifications/1'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        ...(method === 'PUT' ? { payload: { read: true } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    const dummy = as(t.app, (await userWithRole(t, 'dummy')).access_token);
    expect((await dummy.get('/api/notifications')).statusCode).toBe(403);
    expect((await dummy.get('/api/notifications/unread-count')).statusCode).toBe(403);
    expect((await dummy.post('/api/notifications/read-all')).statusCode).toBe(403);
    expect((await dummy.put('/api/notifications/1', { read: true })).statusCode).toBe(403);

    const { owner, list } = await withNotes();
    await t.database.db.execute(
      sql`update users set role = 'defaultreadonly' where id = ${Number(owner.user_id)}`,
    );
    const ro = as(t.app, (await login(t.app, owner.email, owner.password)).access_token);
    expect((await notes(ro)).length).toBe(2);
    // a readonly role never writes: not even its own read marks
    expect((await ro.put(`/api/notifications/${list[0]!._id}`, { read: true })).statusCode).toBe(403);
    expect((await ro.post('/api/notifications/read-all')).statusCode).toBe(403);
    expect(await unread(ro)).toBe(2);
    const readonlyAdmin = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await readonlyAdmin.post('/api/notifications/read-all')).statusCode).toBe(403);
  });
});

describe('scopes', () => {
  test("admins see the exchange's notices of every campaign; the bell counts no exchange notice", async () => {
    const adv = await runningCampaign(t, admin);
    await t.database.db.execute(sql`
      insert into notifications (type, user_id, campaign_id, payload, price)
      values ('nurl', ${Number(adv.user_id)}, ${Number(adv.campaign._id)}, '{}'::jsonb, 1000)`);
    const adminNurls = await notes(admin, '&type=nurl');
    expect(adminNurls.some((n) => n.campaign_id === adv.campaign._id)).toBe(true);
    expect((await notes(adv.api, '&type=nurl')).length).toBe(1);
    // the two fixture approvals are unread; the win notice is listed but not counted
    expect(await unread(adv.api)).toBe(2);
    const readonlyAdmin = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await notes(readonlyAdmin, '&type=nurl')).some((n) => n.campaign_id === adv.campaign._id)).toBe(
      true,
    );
    expect((await notes(readonlyAdmin, '&type=moderation')).length).toBe(0);
    // an admin's own notifications are theirs to mark
    const own = await admin.post('/api/notifications/read-all');
    expect(own.statusCode).toBe(200);
    expect(await unread(adv.api)).toBe(2);
  });
});

describe('withdrawal decisions', () => {
  test('paid and rejected are told to the requester with the sum (and the reason)', async () => {
    const p = await user();
    await admin.post(`/api/users/${p.user_id}/payments`, { payment: { sum: 200 } });
    const ask = async (sum: number) =>
      (
        await p.api.post(`/api/users/${p.user_id}/withdrawals`, {
          withdrawal: { sum, method: 'bank_transfer', details: 'IBAN DE89 3704 0044 0532 0130 00' },
        })
      ).json() as { _id: string };
    const w1 = await ask(60);
    const w2 = await ask(70);
    expect((await admin.post(`/api/withdrawals/${w1._id}/approve`, { reference: 'SEPA-1' })).statusCode).toBe(
      200,
    );
    expect((await admin.post(`/api/withdrawals/${w2._id}/reject`, { reason: 'Wrong IBAN' })).statusCode).toBe(
      200,
    );
    // a refused second decision tells nothing
    expect((await admin.post(`/api/withdrawals/${w2._id}/approve`, { reference: 'x' })).statusCode).toBe(409);
    const got = (await notes(p.api, '&type=withdrawal')).map((n) => n.payload);
    expect(got).toEqual([
      { id: w2._id, status: 'rejected', sum: 70, reason: 'Wrong IBAN' },
      { id: w1._id, status: 'paid', sum: 60, reason: null },
    ]);
  });
});

describe('blocked sources', () => {
  test("the publisher is told, without the advertiser's name, campaign or reason", async () => {
    const pub = await publisherWithWidget(t, admin);
    const adv = await runningCampaign(t, admin);
    const res = await adv.api.post(`/api/campaigns/${adv.campaign._id}/blocked-sources`, {
      blocked_source: { widget_id: pub.widget._id, reason: 'Competitor of ours, AcmeCorp' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [note] = await notes(pub.api, '&type=source_blocked');
    expect(note).toMatchObject({
      user_id: pub.user_id,
      campaign_id: null,
      payload: {
        by: 'advertiser',
        site_id: pub.site._id,
        site: pub.site.domain,
        widget_id: pub.widget._id,
        widget: 'Below article',
        reason: null,
        until: null,
      },
    });
    expect(Object.keys(note!.payload).sort()).toEqual([
      'by',
      'reason',
      'site',
      'site_id',
      'until',
      'widget',
      'widget_id',
    ]);
    expect(JSON.stringify(note)).not.toContain('Acme');
    expect(await notes(adv.api, '&type=source_blocked')).toEqual([]);
  });

  test("a platform-wide block tells the platform's reason and end; one's own site tells nobody", async () => {
    const pub = await publisherWithWidget(t, admin);
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const res = await admin.post('/api/blocked-sources', {
      blocked_source: { site_id: pub.site._id, reason: 'Bot traffic', until },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [note] = await notes(pub.api, '&type=source_blocked');
    expect(note?.payload).toMatchObject({ by: 'platform', widget_id: null, reason: 'Bot traffic', until });

    const selfish = await runningCampaign(t, admin, { user: pub });
    await selfish.api.post(`/api/campaigns/${selfish.campaign._id}/blocked-sources`, {
      blocked_source: { site_id: pub.site._id },
    });
    expect((await notes(pub.api, '&type=source_blocked')).length).toBe(1);
  });
});

describe('low balance', () => {
  const charge = async (campaignId: string, balanceMicros: number) => {
    const id = Number(campaignId);
    await t.database.db.execute(sql`
      with before as (select balance from campaigns where id = ${id})
      insert into campaign_ledger (campaign_id, type, sum, balance_after)
      select ${id}, 'campaign_charge', ${balanceMicros}::bigint - balance, ${balanceMicros}::bigint from before`);
    await t.database.db.execute(sql`update campaigns set balance = ${balanceMicros} where id = ${id}`);
  };
  const lows = async (api: Api) => notes(api, '&type=low_balance');

  test('told once per fall below the threshold, again after a top-up and a new fall', async () => {
    const { notifications } = contextOf(t.app);
    const adv = await runningCampaign(t, admin, { fund: 50 });
    const idle = await runningCampaign(t, admin, { fund: 5 });
    await notifications.checkLowBalances();
    // funded above the threshold, or never charged: nothing to tell
    expect(await lows(adv.api)).toEqual([]);
    expect(await lows(idle.api)).toEqual([]);

    await charge(adv.campaign._id, 9_500_000);
    await notifications.checkLowBalances();
    await charge(adv.campaign._id, 9_000_000);
    await notifications.checkLowBalances();
    const first = await lows(adv.api);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      campaign_id: adv.campaign._id,
      payload: { name: adv.campaign.title, balance: 9.5, threshold: 10 },
    });
    expect(await unread(adv.api)).toBe(3);

    // topped up above the threshold: re-armed, and the next fall is told
    await t.database.db.execute(
      sql`update campaigns set balance = 40000000 where id = ${Number(adv.campaign._id)}`,
    );
    await notifications.checkLowBalances();
    await charge(adv.campaign._id, 2_000_000);
    const twice = await Promise.all([notifications.checkLowBalances(), notifications.checkLowBalances()]);
    expect(twice.map((r) => r.told).sort()).toEqual([0, 1]);
    expect((await lows(adv.api)).map((n) => n.payload.balance)).toEqual([2, 9.5]);
  });

  test("an advertiser's account balance: told once per fall below the account threshold, again after a refill", async () => {
    const { notifications } = contextOf(t.app);
    const accountLows = async (api: Api) => notes(api, '&type=low_account_balance');
    // everything paid in moved to the campaign: the account is at 0
    const adv = await runningCampaign(t, admin, { fund: 30 });
    // a publisher paid 3 without any campaign is no advertiser: never told
    const pub = await user();
    await admin.post(`/api/users/${pub.user_id}/payments`, { payment: { sum: 3 } });
    const threshold = 10_000_000n;
    await notifications.checkLowAccountBalances(threshold);
    await notifications.checkLowAccountBalances(threshold);
    const first = await accountLows(adv.api);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      user_id: adv.user_id,
      campaign_id: null,
      payload: { balance: 0, threshold: 10 },
    });
    expect(await accountLows(pub.api)).toEqual([]);

    // refilled above the threshold: re-armed; the next fall (funding a campaign) is told again, once
    await admin.post(`/api/users/${adv.user_id}/payments`, { payment: { sum: 30 } });
    expect((await notifications.checkLowAccountBalances(threshold)).rearmed).toBe(1);
    expect(await accountLows(adv.api)).toHaveLength(1);
    const second = (
      await adv.api.post('/api/campaigns', { campaign: { title: 'Second', clickprice: 0.5 } })
    ).json();
    const funded = await adv.api.post(`/api/campaigns/${second._id}/payments`, { payment: { sum: 27.5 } });
    expect(funded.statusCode, funded.body).toBe(201);
    const racing = await Promise.all([
      notifications.checkLowAccountBalances(threshold),
      notifications.checkLowAccountBalances(threshold),
    ]);
    expect(racing.map((r) => r.told).sort()).toEqual([0, 1]);
    expect((await accountLows(adv.api)).map((n) => n.payload.balance)).toEqual([2.5, 0]);
    // a lower configured threshold: 2.5 is not below 2, nobody new is told
    expect((await notifications.checkLowAccountBalances(2_000_000n)).told).toBe(0);
  });

  test("the thresholds are platform settings only an admin changes; the minute job tells at the admin's", async () => {
    const { notifications, settings } = contextOf(t.app);
    const runJob = async () => notifications.checkAllLowBalances(await settings.lowBalanceThresholds());
    const adv = await runningCampaign(t, admin, { fund: 50 });
    // until an admin saves them, the configured defaults (10 each); every signed-in user may read them
    expect((await adv.api.get('/api/settings')).json()).toMatchObject({
      low_campaign_balance: 10,
      low_account_balance: 10,
    });
    const mine = await adv.api.put('/api/settings', { settings: { low_campaign_balance: 40 } });
    expect(mine.statusCode).toBe(403);
    const negative = await admin.put('/api/settings', { settings: { low_account_balance: -1 } });
    expect(negative.statusCode).toBe(422);
    expect(negative.json().errors[0].field).toMatch(/low_account_balance$/);

    // the admin raises the campaign threshold only: the other settings keep their values
    const before = (await admin.get('/api/settings')).json();
    const saved = await admin.put('/api/settings', { settings: { low_campaign_balance: 40 } });
    expect(saved.json()).toEqual({ ...before, low_campaign_balance: 40 });
    // 35 is no fall below the default 10, but is below the admin's 40
    await charge(adv.campaign._id, 35_000_000);
    await runJob();
    const told = await lows(adv.api);
    expect(told.map((n) => n.payload)).toEqual([expect.objectContaining({ balance: 35, threshold: 40 })]);

    // 0 turns the campaign check off: the job runs only the account check
    await admin.put('/api/settings', { settings: { low_campaign_balance: 0 } });
    const off = await runJob();
    expect(off.campaigns).toBeNull();
    expect(off.accounts).not.toBeNull();
    // what the system page shows as the job's result
    expect(lowBalanceResult(off).text).toMatch(/^campaigns: off; accounts: told \d+, re-armed \d+$/);
    expect(lowBalanceResult(off).code).toBe('low_balance_campaigns_off');
    await admin.put('/api/settings', { settings: { low_campaign_balance: 10 } });
  });

  test('the thresholds come from LOW_CAMPAIGN_BALANCE and LOW_ACCOUNT_BALANCE in currency units', async () => {
    const { loadConfig } = await import('../../config.ts');
    expect(loadConfig({})).toMatchObject({ lowCampaignBalance: 10_000_000n, lowAccountBalance: 10_000_000n });
    expect(loadConfig({ LOW_CAMPAIGN_BALANCE: '2.5', LOW_ACCOUNT_BALANCE: '0' })).toMatchObject({
      lowCampaignBalance: 2_500_000n,
      lowAccountBalance: 0n,
    });
    expect(() => loadConfig({ LOW_ACCOUNT_BALANCE: '-1' })).toThrow(/LOW_ACCOUNT_BALANCE/);
    expect(() => loadConfig({ LOW_CAMPAIGN_BALANCE: 'ten' })).toThrow(/LOW_CAMPAIGN_BALANCE/);
  });

  test('PUBLIC_URL must be an absolute http(s) address; a trailing slash is dropped', async () => {
    const { loadConfig } = await import('../../config.ts');
    expect(loadConfig({ PUBLIC_URL: 'https://ads.example.com/' }).publicUrl).toBe('https://ads.example.com');
    expect(loadConfig({ PORT: '9000', PUBLIC_URL: '' }).publicUrl).toBe('http://localhost:9000');
    for (const bad of ['ads.example.com', 'ftp://ads.example.com', 'https://'])
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(
        /PUBLIC_URL must be an absolute http\(s\) address/,
      );
  });
});

describe('retention', () => {
  test('the hourly job deletes exchange notices older than RAW_EVENTS_DAYS in chunks, and nothing else', async () => {
    const { notifications } = contextOf(t.app);
    const now = new Date(Date.UTC(2026, 5, 1, 12));
    const u = await user();
    const DAY = 86_400_000;
    // [type, days ago]: what the user was told stays, however old; so do the exchange's recent notices
    const rows: [string, number][] = [
      ['nurl', 400],
      ['burl', 120],
      ['burl', 91],
      ['moderation', 400],
      ['low_balance', 200],
      ['nurl', 89],
      ['burl', 1],
    ];
    for (const [type, days] of rows)
      await t.database.db.execute(sql`
        insert into notifications (type, user_id, created_at)
        values (${type}, ${Number(u.user_id)}, ${new Date(now.getTime() - days * DAY).toISOString()}::timestamptz)`);
    const left = async () =>
      (
        (await t.database.db.execute(
          sql`select type from notifications where user_id = ${Number(u.user_id)} order by created_at`,
        )) as unknown as { rows: { type: string }[] }
      ).rows.map((r) => r.type);
    expect((await pruneExchangeNotices(notifications, 0, now, 2)).text).toBe('exchange notices kept');
    expect(await left()).toHaveLength(7);
    expect((await pruneExchangeNotices(notifications, 90, now, 2)).text).toBe('deleted 3 exchange notices');
    expect(await left()).toEqual(['moderation', 'low_balance', 'nurl', 'burl']);
    expect((await pruneExchangeNotices(notifications, 90, now, 2)).values).toEqual({ deleted: 0 });
  });
});
