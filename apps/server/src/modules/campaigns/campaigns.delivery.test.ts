import { addDays, cpcFeedConfigExamples, cpcFeedProcessors, utcDay } from '@adp/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { parseFeedConfig } from '../../delivery/feeds/config.ts';
import { insertRollups } from '../../test/rollups.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

/** The campaign settings delivery reads: daily budget, pacing, CPC feed settings, and the target CTR check. */
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
  campaign: { title: `Delivery settings ${++n}`, clickprice: 0.25, ...extra },
});
const fieldErrors = (res: { json: () => { errors?: { field: string; code: string }[] } }) =>
  (res.json().errors ?? []).map((e) => [e.field, e.code]);

let key = 0;
/** One rollup row straight into the database, as the delivery's batch writer leaves it (with its tiers). */
async function rollup(campaignId: string, hour: string, impressions: number, clicks: number) {
  key += 1;
  await insertRollups(t.database.db, {
    hour: new Date(hour),
    campaignId: Number(campaignId),
    bannerId: 0,
    siteId: 0,
    widgetId: 0,
    country: `K${key}`,
    device: '',
    os: '',
    browser: '',
    impressions,
    clicks,
  });
}

describe('daily budget and pacing', () => {
  test('default to no budget and even pacing; set, changed and cleared by the owner', async () => {
    const a = await advertiser();
    const created = await a.api.post('/api/campaigns', newCampaign());
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ daily_budget: null, pacing: 'even' });
    const id = created.json()._id;

    const set = await a.api.put(`/api/campaigns/${id}`, {
      campaign: { daily_budget: 12.345678, pacing: 'asap' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ daily_budget: 12.345678, pacing: 'asap' });
    // stored in micro-units: what comes back is exactly what was sent
    expect((await a.api.get(`/api/campaigns/${id}`)).json()).toMatchObject({
      daily_budget: 12.345678,
      pacing: 'asap',
    });
    // a patch without the fields leaves them alone
    expect((await a.api.put(`/api/campaigns/${id}`, { campaign: { weight: 50 } })).json()).toMatchObject({
      daily_budget: 12.345678,
      pacing: 'asap',
    });
    const cleared = await a.api.put(`/api/campaigns/${id}`, { campaign: { daily_budget: null } });
    expect(cleared.json()).toMatchObject({ daily_budget: null, pacing: 'asap' });

    const withBoth = await a.api.post(
      '/api/campaigns',
      newCampaign({ daily_budget: 50, pacing: 'even', dailyclicks: 200 }),
    );
    expect(withBoth.json()).toMatchObject({ daily_budget: 50, pacing: 'even', dailyclicks: 200 });
  });

  test('a budget must be a positive amount with at most 6 decimals; pacing is even or asap', async () => {
    const a = await advertiser();
    for (const [extra, field] of [
      [{ daily_budget: 0 }, 'daily_budget'],
      [{ daily_budget: -5 }, 'daily_budget'],
      [{ daily_budget: 1.0000001 }, 'daily_budget'],
      [{ daily_budget: '10' }, 'daily_budget'],
      [{ pacing: 'fast' }, 'pacing'],
      [{ pacing: null }, 'pacing'],
    ] as const) {
      const res = await a.api.post('/api/campaigns', newCampaign(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(422);
      expect(fieldErrors(res).map(([f]) => f)).toEqual([field]);
    }
    const c = (await a.api.post('/api/campaigns', newCampaign())).json();
    const res = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { daily_budget: 0 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'daily_budget' });
    expect((await a.api.get(`/api/campaigns/${c._id}`)).json().daily_budget).toBeNull();
  });

  test('only the owner or an admin changes them', async () => {
    const a = await advertiser();
    const c = (await a.api.post('/api/campaigns', newCampaign({ daily_budget: 5 }))).json();
    const b = await advertiser();
    expect((await b.api.put(`/api/campaigns/${c._id}`, { campaign: { daily_budget: 500 } })).statusCode).toBe(
      404,
    );
    const ro = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await ro.get(`/api/campaigns/${c._id}`)).json()).toMatchObject({
      daily_budget: 5,
      pacing: 'even',
    });
    expect((await ro.put(`/api/campaigns/${c._id}`, { campaign: { pacing: 'asap' } })).statusCode).toBe(403);
    const byAdmin = await admin.put(`/api/campaigns/${c._id}`, {
      campaign: { daily_budget: 7.5, pacing: 'asap' },
    });
    expect(byAdmin.statusCode).toBe(200);
    expect((await a.api.get(`/api/campaigns/${c._id}`)).json()).toMatchObject({
      daily_budget: 7.5,
      pacing: 'asap',
    });
  });
});

describe('CPC feed campaigns', () => {
  const mgid = JSON.stringify({ widget_id: '123456', token: 'abc-DEF_1' });

  test('the example settings the campaign form shows are accepted for every feed', () => {
    for (const processor of cpcFeedProcessors) {
      const parsed = parseFeedConfig(processor, JSON.stringify(cpcFeedConfigExamples[processor]));
      expect(parsed, processor).toMatchObject({ ok: true });
    }
  });

  test('need a feed processor and src_code that the feed parser accepts', async () => {
    const a = await advertiser();
    const noProcessor = await a.api.post(
      '/api/campaigns',
      newCampaign({ adstype: 'cpcfeed', src_code: mgid }),
    );
    expect(noProcessor.statusCode).toBe(422);
    expect(noProcessor.json().errors).toEqual([
      expect.objectContaining({
        field: 'cpc_feed_processor',
        code: 'feed_processor_required',
        detail: 'Choose the CPC feed this campaign buys from',
      }),
    ]);
    // an external campaign is a feed campaign too
    const external = await a.api.post('/api/campaigns', newCampaign({ adstype: 'external', src_code: mgid }));
    expect(external.statusCode).toBe(422);
    expect(external.json().errors).toEqual([
      expect.objectContaining({ field: 'cpc_feed_processor', code: 'feed_processor_required' }),
    ]);

    const notJson = await a.api.post(
      '/api/campaigns',
      newCampaign({ adstype: 'cpcfeed', cpc_feed_processor: 'mgid', src_code: 'widget 123456' }),
    );
    expect(notJson.statusCode).toBe(422);
    expect(notJson.json().errors).toEqual([
      expect.objectContaining({
        field: 'src_code',
        code: 'feed_config_invalid',
        detail: 'The mgid feed settings are not valid: src_code must be a JSON object with the feed settings',
      }),
    ]);

    const noToken = await a.api.post(
      '/api/campaigns',
      newCampaign({
        adstype: 'cpcfeed',
        cpc_feed_processor: 'mgid',
        src_code: JSON.stringify({ widget_id: '123456' }),
      }),
    );
    expect(noToken.json().errors[0]).toMatchObject({ field: 'src_code', code: 'feed_config_invalid' });
    expect(noToken.json().errors[0].detail).toMatch(/^The mgid feed settings are not valid: token: /);

    const ok = await a.api.post(
      '/api/campaigns',
      newCampaign({ adstype: 'cpcfeed', cpc_feed_processor: 'mgid', src_code: mgid }),
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ adstype: 'cpcfeed', cpc_feed_processor: 'mgid', src_code: mgid });

    // other ads types keep src_code free-form (AdSense markup, or nothing)
    const adsense = await a.api.post(
      '/api/campaigns',
      newCampaign({ adstype: 'adsense', src_code: '<ins class="adsbygoogle"></ins>' }),
    );
    expect(adsense.statusCode).toBe(201);
  });

  test('the message is in the caller language and carries the parser error', async () => {
    const a = await advertiser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns',
      headers: { authorization: `Bearer ${a.access_token}`, 'accept-language': 'de-DE,de;q=0.9' },
      payload: newCampaign({
        adstype: 'cpcfeed',
        cpc_feed_processor: 'revcontent',
        src_code: JSON.stringify({ api_key: 'k', pub_id: '1', widget_id: '2', domain: 'not a domain' }),
      }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'src_code', code: 'feed_config_invalid' });
    expect(res.json().errors[0].detail).toMatch(
      /^Die Einstellungen des Feeds revcontent sind ungültig: domain: /,
    );
  });

  test('an update is checked against the values the campaign ends up with', async () => {
    const a = await advertiser();
    const c = (
      await a.api.post(
        '/api/campaigns',
        newCampaign({ adstype: 'cpcfeed', cpc_feed_processor: 'mgid', src_code: mgid }),
      )
    ).json();
    const url = `/api/campaigns/${c._id}`;
    // switching the feed keeps the mgid settings, which revcontent does not understand
    const switched = await a.api.put(url, { campaign: { cpc_feed_processor: 'revcontent' } });
    expect(switched.statusCode).toBe(422);
    expect(switched.json().errors[0]).toMatchObject({ field: 'src_code', code: 'feed_config_invalid' });
    expect(switched.json().errors[0].detail).toContain('revcontent');
    const dropped = await a.api.put(url, { campaign: { cpc_feed_processor: null } });
    expect(fieldErrors(dropped)).toEqual([['cpc_feed_processor', 'feed_processor_required']]);
    const broken = await a.api.put(url, { campaign: { src_code: '{}' } });
    expect(fieldErrors(broken)).toEqual([['src_code', 'feed_config_invalid']]);
    expect((await a.api.get(url)).json()).toMatchObject({ cpc_feed_processor: 'mgid', src_code: mgid });

    // fields outside the feed settings save as before
    expect((await a.api.put(url, { campaign: { weight: 10 } })).statusCode).toBe(200);
    const both = await a.api.put(url, {
      campaign: {
        cpc_feed_processor: 'contentad',
        src_code: JSON.stringify({ widget_id: 'abc-1', domain_id: 'd-2' }),
      },
    });
    expect(both.statusCode).toBe(200);
    expect(both.json().cpc_feed_processor).toBe('contentad');

    // a default campaign turned into a feed campaign needs the settings too
    const plain = (await a.api.post('/api/campaigns', newCampaign())).json();
    expect(
      fieldErrors(await a.api.put(`/api/campaigns/${plain._id}`, { campaign: { adstype: 'cpcfeed' } })),
    ).toEqual([['cpc_feed_processor', 'feed_processor_required']]);
    // and leaving cpcfeed frees src_code again
    expect((await a.api.put(url, { campaign: { adstype: 'default', src_code: 'x' } })).statusCode).toBe(200);
  });
});

describe('target CTR check from the rollups', () => {
  const today = () => utcDay();
  const at = (daysAgo: number, time: string) => `${addDays(today(), -daysAgo)}T${time}Z`;

  async function rtbCampaign(targetCtr: number) {
    const a = await advertiser(20);
    const c = (
      await a.api.post('/api/campaigns', newCampaign({ openrtb: { enabled: true, target_ctr: targetCtr } }))
    ).json();
    await a.api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 20 } });
    return { a, c, check: () => a.api.post(`/api/campaigns/${c._id}/check-target-ctr`) };
  }

  test('below 1000 impressions in 7 days it stays unchecked: TargetCTR not checked!', async () => {
    const { a, c, check } = await rtbCampaign(1.5);
    await rollup(c._id, at(0, '00:00:00'), 600, 30);
    await rollup(c._id, at(6, '00:00:00'), 399, 30);
    // outside the window: 7 days ago, and another campaign
    await rollup(c._id, at(7, '23:00:00'), 5000, 500);
    const other = (await a.api.post('/api/campaigns', newCampaign())).json();
    await rollup(other._id, at(0, '00:00:00'), 5000, 500);

    const res = await check();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      impressions: 999,
      clicks: 60,
      passed: false,
      status: 'unchecked',
      min_impressions: 1000,
      message: 'TargetCTR not checked!',
      campaign: { target_ctr_status: 'unchecked' },
    });
    expect(res.json().campaign.target_ctr_check_date).not.toBeNull();
    const refused = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
    expect(refused.json().errors[0]).toMatchObject({ field: 'status', code: 'target_ctr_not_checked' });
  });

  test('passes when the observed CTR reaches the target; the campaign may then run', async () => {
    const { a, c, check } = await rtbCampaign(1.5);
    // 1000 impressions, 15 clicks: exactly 1.5 %
    await rollup(c._id, at(0, '00:00:00'), 400, 5);
    await rollup(c._id, at(3, '12:00:00'), 600, 10);
    const res = (await check()).json();
    expect(res).toMatchObject({
      impressions: 1000,
      clicks: 15,
      ctr: 1.5,
      passed: true,
      status: 'checked',
      message: null,
      campaign: { target_ctr_status: 'checked' },
    });
    const on = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
    expect(on.statusCode).toBe(200);
    expect(on.json().status).toBe('active');
  });

  test('fails below the target with enough impressions; changing the target resets the status', async () => {
    const { a, c, check } = await rtbCampaign(2);
    await rollup(c._id, at(1, '08:00:00'), 2000, 39);
    // a great week long ago does not help
    await rollup(c._id, at(10, '08:00:00'), 2000, 400);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${c._id}/check-target-ctr`,
      headers: { authorization: `Bearer ${a.access_token}`, 'accept-language': 'fr' },
    });
    expect(res.json()).toMatchObject({
      impressions: 2000,
      clicks: 39,
      ctr: 1.95,
      passed: false,
      status: 'not_passed',
      campaign: { target_ctr_status: 'not_passed' },
    });
    expect(res.json().message).toBe("Le CTR cible n'a pas passé la vérification");
    // switching it on now says the check failed, not that it never ran
    const refused = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({
      field: 'status',
      code: 'target_ctr_not_passed',
      detail: 'Target CTR did not pass the check',
    });
    const lowered = await a.api.put(`/api/campaigns/${c._id}`, {
      campaign: { openrtb: { enabled: true, target_ctr: 1.9 } },
    });
    expect(lowered.json()).toMatchObject({ target_ctr_status: 'unchecked', target_ctr_check_date: null });
    expect((await check()).json()).toMatchObject({ passed: true, status: 'checked' });
  });

  test("on auto the hourly job checks every such campaign; the others keep their owner's last check", async () => {
    const failing = await rtbCampaign(2);
    const passing = await rtbCampaign(2);
    const manual = await rtbCampaign(2);
    const fresh = await rtbCampaign(2);
    for (const x of [failing, passing, fresh]) {
      const on = await x.a.api.put(`/api/campaigns/${x.c._id}`, {
        campaign: { openrtb: { enabled: true, target_ctr: 2, target_ctr_auto: true } },
      });
      expect(on.json().openrtb.target_ctr_auto).toBe(true);
    }
    await rollup(failing.c._id, at(1, '08:00:00'), 2000, 20);
    await rollup(passing.c._id, at(2, '09:00:00'), 2000, 60);
    await rollup(manual.c._id, at(1, '08:00:00'), 2000, 20);
    await rollup(fresh.c._id, at(0, '00:00:00'), 10, 5);

    const counts = await contextOf(t.app).campaigns.checkAutoTargetCtrs();
    const statusOf = async (x: typeof failing) =>
      (await x.a.api.get(`/api/campaigns/${x.c._id}`)).json().target_ctr_status;
    expect(await statusOf(failing)).toBe('not_passed');
    expect(await statusOf(passing)).toBe('checked');
    expect(await statusOf(fresh)).toBe('unchecked');
    // not on auto: left as its owner last saw it
    expect(await statusOf(manual)).toBe('unchecked');
    // other tests' campaigns may be on auto too: at least ours were counted
    expect(counts.not_passed).toBeGreaterThanOrEqual(1);
    expect(counts.checked).toBeGreaterThanOrEqual(1);
    expect(counts.unchecked).toBeGreaterThanOrEqual(1);

    // the campaign recovers: the next run lets it bid again
    await rollup(failing.c._id, at(0, '01:00:00'), 1000, 60);
    await contextOf(t.app).campaigns.checkAutoTargetCtrs();
    expect(await statusOf(failing)).toBe('checked');
  });

  test('only the owner or an admin runs it', async () => {
    const { c, check } = await rtbCampaign(1);
    const b = await advertiser();
    expect((await b.api.post(`/api/campaigns/${c._id}/check-target-ctr`)).statusCode).toBe(404);
    const ro = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
    expect((await ro.post(`/api/campaigns/${c._id}/check-target-ctr`)).statusCode).toBe(403);
    expect((await admin.post(`/api/campaigns/${c._id}/check-target-ctr`)).json().status).toBe('unchecked');
    expect((await check()).statusCode).toBe(200);
  });
});
