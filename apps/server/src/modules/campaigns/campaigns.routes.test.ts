import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { banners } from '../../db/schema/index.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

let n = 0;
async function advertiser(balance = 0) {
  const u = await register(t.app);
  if (balance) await admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum: balance } });
  return { ...u, api: as(t.app, u.access_token) };
}
const newCampaign = (extra: Record<string, unknown> = {}) => ({
  campaign: { title: `Winter sale ${++n}`, clickprice: 0.25, ...extra },
});

describe('campaigns', () => {
  test("a block's error names the block, not a translation error", async () => {
    const a = await advertiser();
    const c = (await a.api.post('/api/campaigns', newCampaign())).json();
    const res = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { openrtb: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].field).toBe('openrtb');
    expect(res.json().errors[0].detail).not.toContain('returned an object');
    const inner = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { openrtb: { enabled: 'yes' } } });
    expect(inner.json().errors[0].detail).toContain('OpenRTB enabled');
  });

  test('an advertiser creates a campaign with every field defaulted; titles are unique ignoring case', async () => {
    const a = await advertiser();
    const res = await a.api.post(
      '/api/campaigns',
      newCampaign({ title: 'Shoes For Winter', track_urls: ['https://track.example/c?id={click_id}'] }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Shoes For Winter',
      status: 'inactive',
      moderation: 'pending',
      balance: 0,
      clickprice: 0.25,
      adstype: 'default',
      click_filter: 'onetoone',
      openrtb: { enabled: false, target_ctr: null, only_openrtb: false },
      target_ctr_status: 'unchecked',
      banners_count: 0,
    });
    const other = await advertiser();
    const dup = await other.api.post('/api/campaigns', newCampaign({ title: 'shoes for WINTER' }));
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors[0]).toMatchObject({ field: 'title', code: 'title_taken' });
    const bad = await a.api.post('/api/campaigns', {
      campaign: { title: '', clickprice: -1, adstype: 'popup', click_filter: 'x' },
    });
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['adstype', 'click_filter', 'clickprice', 'title']);
  });

  test('an unfunded campaign cannot be activated; funding moves money from the owner, both sides in the ledger', async () => {
    const a = await advertiser(100);
    const c = (await a.api.post('/api/campaigns', newCampaign())).json();
    const refused = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({
      field: 'status',
      code: 'not_enough_balance',
      detail: 'Not enough balance to activate',
    });

    const fund = await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 40 } });
    expect(fund.statusCode).toBe(201);
    expect(fund.json()).toMatchObject({ sum: 40, balance_after: 40, type: 'campaign_funding' });
    expect((await a.api.get(`/api/users/${a.user_id}`)).json().balance).toBe(60);
    expect((await a.api.get(`/api/campaigns/${c._id}`)).json().balance).toBe(40);
    const tx = (await a.api.get(`/api/users/${a.user_id}/transactions`)).json().items[0];
    expect(tx).toMatchObject({ type: 'campaign_funding', sum: -40, ref: `campaign:${c._id}` });
    expect(await t.ctxLedgerSum(a.user_id)).toBe(60);

    const tooMuch = await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 61 } });
    expect(tooMuch.json().errors[0]).toMatchObject({ field: 'sum', code: 'insufficient_balance' });

    const on = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
    expect(on.json().status).toBe('active');
    const whileOn = await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 5 } });
    expect(whileOn.statusCode).toBe(422);
    expect(whileOn.json().errors[0].code).toBe('campaign_must_be_off');

    await a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'inactive' } });
    const back = await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: -15 } });
    expect(back.json()).toMatchObject({ sum: -15, balance_after: 25 });
    expect((await a.api.get(`/api/users/${a.user_id}`)).json().balance).toBe(75);
    const history = (await a.api.get(`/api/campaigns/${c._id}/payments`)).json();
    expect(history.items.map((p: { sum: number }) => p.sum)).toEqual([-15, 40]);

    // fundings at the same moment: each answer is the entry that request wrote (on PostgreSQL some were
    // empty 201s: the route read back "the newest entry", another request's)
    const many = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((sum) => a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum } })),
    );
    expect(many.map((r) => [r.statusCode, r.json().sum])).toEqual(
      [1, 2, 3, 4, 5, 6].map((sum) => [201, sum]),
    );
    expect(new Set(many.map((r) => r.json()._id)).size).toBe(6);
  });

  test('switching on and draining at the same moment: never a running campaign emptied while on', async () => {
    const a = await advertiser(100);
    for (let round = 0; round < 6; round++) {
      const c = (await a.api.post('/api/campaigns', newCampaign())).json();
      await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 1 } });
      const [on, drain] = await Promise.all([
        a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } }),
        a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: -1 } }),
      ]);
      const after = (await a.api.get(`/api/campaigns/${c._id}`)).json();
      // exactly one of them won, and the other was refused for what the winner did
      if (after.status === 'active') {
        expect(on.statusCode).toBe(200);
        expect(drain.json().errors[0].code).toBe('campaign_must_be_off');
        expect(after.balance).toBe(1);
      } else {
        expect(drain.statusCode).toBe(201);
        expect(on.json().errors[0].code).toBe('not_enough_balance');
        expect(after.balance).toBe(0);
      }
    }
    expect(await t.ctxLedgerSum(a.user_id)).toBe((await a.api.get(`/api/users/${a.user_id}`)).json().balance);
  });

  test('deleting a campaign returns its balance to the owner and removes its creatives', async () => {
    const a = await advertiser(50);
    const c = (await a.api.post('/api/campaigns', newCampaign())).json();
    await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 30 } });
    await t.database.db
      .insert(banners)
      .values({ campaignId: Number(c._id), userId: Number(a.user_id), title: 'B', url: 'https://x.example' });
    expect((await a.api.del(`/api/campaigns/${c._id}`)).statusCode).toBe(204);
    expect((await a.api.get(`/api/users/${a.user_id}`)).json().balance).toBe(50);
    expect((await a.api.get(`/api/users/${a.user_id}/transactions`)).json().items[0]).toMatchObject({
      type: 'refund',
      sum: 30,
    });
    expect((await a.api.get(`/api/campaigns/${c._id}`)).statusCode).toBe(404);
    expect(await t.ctxLedgerSum(a.user_id)).toBe(50);
  });

  test('copy makes a switched-off, unfunded duplicate with its creatives and a unique title', async () => {
    const a = await advertiser(10);
    const c = (
      await a.api.post('/api/campaigns', newCampaign({ title: 'Original', brand_name: 'ACME' }))
    ).json();
    await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 10 } });
    await t.database.db.insert(banners).values({
      campaignId: Number(c._id),
      userId: Number(a.user_id),
      title: 'B1',
      url: 'https://x.example',
    });
    const copy = await a.api.post(`/api/campaigns/copy/${c._id}`);
    expect(copy.statusCode).toBe(201);
    expect(copy.json()).toMatchObject({
      title: 'Original (copy)',
      balance: 0,
      status: 'inactive',
      brand_name: 'ACME',
      banners_count: 1,
    });
    expect((await a.api.post(`/api/campaigns/copy/${c._id}`)).json().title).toBe('Original (copy 2)');
    // copies at the same moment take the next free titles (on PostgreSQL they raced to one title: 500s)
    const together = await Promise.all(
      Array.from({ length: 5 }, () => a.api.post(`/api/campaigns/copy/${c._id}`)),
    );
    expect(together.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(together.map((r) => r.json().title)).size).toBe(5);
    // a title at the length limit is cut to leave the suffix room (it once searched for a free title forever)
    const long = (await a.api.post('/api/campaigns', newCampaign({ title: 'L'.repeat(255) }))).json();
    const first = (await a.api.post(`/api/campaigns/copy/${long._id}`)).json().title;
    const second = (await a.api.post(`/api/campaigns/copy/${long._id}`)).json().title;
    expect([first.length, first.endsWith('L (copy)'), second.endsWith('L (copy 2)')]).toEqual([
      255,
      true,
      true,
    ]);
  });

  test('IP lists import from CSV: IPv4, IPv6 and CIDR rows kept, bad rows reported by line', async () => {
    const a = await advertiser();
    const c = (await a.api.post('/api/campaigns', newCampaign())).json();
    const csv = 'ip\n192.168.1.10\n10.0.0.0/8\n2001:db8::/32\nnot-an-ip\n300.1.1.1\n\n::1\n10.0.0.0/8\n';
    const boundary = 'b0undary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ips.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${c._id}/import-ips`,
      payload,
      headers: {
        authorization: `Bearer ${a.access_token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      imported: 4,
      total: 4,
      errors: [
        { line: 5, value: 'not-an-ip' },
        { line: 6, value: '300.1.1.1' },
      ],
    });
    expect((await a.api.get(`/api/campaigns/${c._id}`)).json().ip_ranges).toBe(4);

    // the list reads back, and the owner (not another user, not a readonly role) clears it
    expect((await a.api.get(`/api/campaigns/${c._id}/ip-ranges`)).json()).toEqual({
      items: ['192.168.1.10', '10.0.0.0/8', '2001:db8::/32', '::1'],
      total: 4,
    });
    const other = await advertiser();
    expect((await other.api.get(`/api/campaigns/${c._id}/ip-ranges`)).statusCode).toBe(404);
    expect((await other.api.del(`/api/campaigns/${c._id}/ip-ranges`)).statusCode).toBe(404);
    const ro = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await ro.get(`/api/campaigns/${c._id}/ip-ranges`)).json().total).toBe(4);
    expect((await ro.del(`/api/campaigns/${c._id}/ip-ranges`)).statusCode).toBe(403);
    expect((await a.api.del(`/api/campaigns/${c._id}/ip-ranges`)).statusCode).toBe(204);
    expect((await a.api.get(`/api/campaigns/${c._id}`)).json().ip_ranges).toBe(0);
  });

  test('with OpenRTB and a target CTR the campaign runs only after the check passes, or on auto', async () => {
    const a = await advertiser(20);
    const c = (
      await a.api.post('/api/campaigns', newCampaign({ openrtb: { enabled: true, target_ctr: 1.5 } }))
    ).json();
    await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 20 } });
    const refused = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
    expect(refused.json().errors[0]).toMatchObject({
      code: 'target_ctr_not_checked',
      detail: 'TargetCTR not checked!',
    });
    const check = (await a.api.post(`/api/campaigns/${c._id}/check-target-ctr`)).json();
    // no traffic yet: too few impressions to measure, so the check does not pass and stays unchecked
    expect(check).toMatchObject({
      passed: false,
      impressions: 0,
      message: 'TargetCTR not checked!',
      campaign: { target_ctr_status: 'unchecked' },
    });
    expect(check.campaign.target_ctr_check_date).not.toBeNull();
    await a.api.put(`/api/campaigns/${c._id}`, {
      campaign: { openrtb: { enabled: true, target_ctr: 1.5, target_ctr_auto: true } },
    });
    expect(
      (await a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } })).json().status,
    ).toBe('active');
  });

  test('ownership, readonly and moderation', async () => {
    const a = await advertiser();
    const b = await advertiser();
    const c = (await a.api.post('/api/campaigns', newCampaign())).json();
    expect((await b.api.get(`/api/campaigns/${c._id}`)).statusCode).toBe(404);
    expect((await b.api.put(`/api/campaigns/${c._id}`, { campaign: { title: 'mine' } })).statusCode).toBe(
      404,
    );
    expect((await b.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 1 } })).statusCode).toBe(
      404,
    );
    expect((await b.api.get('/api/campaigns')).json().total).toBe(0);
    const ro = await userWithRole(t, 'adminreadonly');
    const roApi = as(t.app, ro.access_token);
    expect((await roApi.get(`/api/campaigns/${c._id}`)).statusCode).toBe(200);
    expect((await roApi.put(`/api/campaigns/${c._id}`, { campaign: { title: 'x' } })).statusCode).toBe(403);
    expect((await a.api.post(`/api/campaigns/${c._id}/moderate`, { decision: 'approve' })).statusCode).toBe(
      403,
    );
    expect(
      (await admin.post(`/api/campaigns/${c._id}/moderate`, { decision: 'approve' })).json().moderation,
    ).toBe('approved');
    const retitled = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { title: `Renamed ${c._id}` } });
    expect(retitled.json().moderation).toBe('approved');
    // the brand is shown with every creative: a new one is checked again; the same one is no change
    const sameBrand = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { brand_name: '' } });
    expect(sameBrand.json().moderation).toBe('approved');
    const rebranded = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { brand_name: 'Free money' } });
    expect(rebranded.json().moderation).toBe('pending');
    await admin.post(`/api/campaigns/${c._id}/moderate`, { decision: 'approve' });
    const recoded = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { utm: 'utm_source=adp' } });
    expect(recoded.json().moderation).toBe('pending');
    const pending = (await admin.get('/api/campaigns?moderation=pending'))
      .json()
      .items.map((x: { _id: string }) => x._id);
    expect(pending).toContain(c._id);
    expect((await admin.get(`/api/campaigns?account=${a.user_id}`)).json().total).toBe(1);
  });
});
