import { afterAll, beforeAll, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { publisherWithWidget, runningCampaign } from '../../delivery/delivery-fixtures.test-helper.ts';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../../test/test-app.ts';
import type { DspRollupDelta } from './dsp-stats.repository.ts';

/**
 * The stats2 `dsp` and `phoenix-dsp` trees and the DSP partner statistics answered from dsp_rollups:
 * every breakdown, /total, partner_id, RTB partners by name, and the drill-down filters.
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
let ids: { dspA: number; dspB: number; rtb: number; site: number; campaign: number; siteDomain: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const dsp = async (name: string) =>
    Number(
      (
        await admin.post('/api/dsppartners', {
          dsppartner: { name, endpoint: 'https://dsp.example/rtb', status: 'inactive' },
        })
      ).json()._id,
    );
  const rtb = (await admin.post('/api/rtbpartners', { rtbpartner: { name: 'SSP Alpha' } })).json();
  const p = await publisherWithWidget(t, admin);
  const c = await runningCampaign(t, admin);
  ids = {
    dspA: await dsp('DSP A'),
    dspB: await dsp('DSP B'),
    rtb: Number(rtb._id),
    site: Number(p.site._id),
    campaign: Number(c.campaign._id),
    siteDomain: p.site.domain,
  };
  const row = (d: Partial<DspRollupDelta>): DspRollupDelta => ({
    hour: new Date('2026-06-10T10:00:00Z'),
    dspPartnerId: ids.dspA,
    siteId: ids.site,
    widgetId: Number(p.widget._id),
    campaignId: ids.campaign,
    rtbPartnerId: 0,
    country: 'DE',
    city: 'Berlin',
    device: 'desktop',
    os: 'Windows',
    requests: 1,
    bids: 1,
    wins: 1,
    revenue: 5_000n,
    ...d,
  });
  await contextOf(t.app).dspPartners.stats.write([
    row({ wins: 2, revenue: 10_000n }),
    row({ rtbPartnerId: ids.rtb, country: 'FR', city: 'Paris', device: 'mobile', os: 'Android' }),
    row({ dspPartnerId: ids.dspB, hour: new Date('2026-06-11T10:00:00Z'), revenue: 3_000n }),
    row({ wins: 0, bids: 0, revenue: 0n, country: 'US', city: '' }),
  ]);
});
afterAll(() => t.close());

const range = 'from=2026-06-10&to=2026-06-11';

test('dsp and phoenix-dsp trees sum dsp_rollups by every breakdown, with names and partner_id', async () => {
  for (const tree of ['dsp', 'phoenix-dsp']) {
    const revenue = (await admin.get(`/api/stats2/${tree}/revenue?${range}`)).json();
    expect(
      revenue.rows.map((r: { key: string; impressions: number; spent: number }) => [
        r.key,
        r.impressions,
        r.spent,
      ]),
    ).toEqual([
      ['2026-06-10', 3, 0.015],
      ['2026-06-11', 1, 0.003],
    ]);
    expect(revenue.total).toMatchObject({ impressions: 4, spent: 0.018, ecpm: 4.5 });
    const byPartner = (await admin.get(`/api/stats2/${tree}/partner?${range}`)).json();
    expect(byPartner.rows).toEqual([
      expect.objectContaining({ key: String(ids.dspA), name: 'DSP A', impressions: 3 }),
      expect.objectContaining({ key: String(ids.dspB), name: 'DSP B', impressions: 1 }),
    ]);
    const onlyB = (await admin.get(`/api/stats2/${tree}/country?${range}&partner_id=${ids.dspB}`)).json();
    expect(onlyB).toMatchObject({ count: 1, total: { impressions: 1, spent: 0.003 } });
    expect(onlyB.rows).toEqual([expect.objectContaining({ key: 'DE', impressions: 1 })]);
    const total = (await admin.get(`/api/stats2/${tree}/site/total?${range}&partner_id=${ids.dspA}`)).json();
    expect(total.total).toMatchObject({ impressions: 3, spent: 0.015 });
  }
  const site = (await admin.get(`/api/stats2/dsp/site?${range}`)).json();
  expect(site.rows).toEqual([
    expect.objectContaining({ key: String(ids.site), name: 'Mag', impressions: 4 }),
  ]);
  const domains = (await admin.get(`/api/stats2/dsp/domains?${range}`)).json();
  expect(domains.rows[0].key).toBe(ids.siteDomain);
  const campaigns = (await admin.get(`/api/stats2/dsp/campaigns?${range}`)).json();
  expect(campaigns.rows[0]).toMatchObject({ key: String(ids.campaign), impressions: 4 });
  expect(campaigns.rows[0].name).toMatch(/^Campaign /);
  const rtb = (await admin.get(`/api/stats2/dsp/rtb?${range}`)).json();
  expect(rtb.rows).toEqual([
    expect.objectContaining({ key: 'unknown', impressions: 3 }),
    expect.objectContaining({ key: String(ids.rtb), name: 'SSP Alpha', impressions: 1 }),
  ]);
  const city = (await admin.get(`/api/stats2/dsp/city?${range}&sort=key&order=asc`)).json();
  expect(city.rows.map((r: { key: string }) => r.key)).toEqual(['Berlin', 'Paris', 'unknown']);
  const device = (await admin.get(`/api/stats2/dsp/device?${range}`)).json();
  expect(device.rows.map((r: { key: string; impressions: number }) => [r.key, r.impressions])).toEqual([
    ['desktop', 3],
    ['mobile', 1],
  ]);
  const os = (await admin.get(`/api/stats2/dsp/os?${range}&limit=1&page=2`)).json();
  expect(os).toMatchObject({
    count: 2,
    page: 2,
    limit: 1,
    rows: [expect.objectContaining({ key: 'Android' })],
  });
  // admins only: a publisher is refused
  const user = as(t.app, (await register(t.app)).access_token);
  expect((await user.get(`/api/stats2/dsp/revenue?${range}`)).statusCode).toBe(403);
  // a partner that does not exist is a 404, not a page of zeros
  for (const path of ['dsp/revenue', 'phoenix-dsp/revenue', 'dsp/revenue/total'])
    expect((await admin.get(`/api/stats2/${path}?${range}&id=999999`)).statusCode, path).toBe(404);
  expect((await admin.get(`/api/stats2/dsp/revenue?${range}&id=${ids.dspA}`)).statusCode).toBe(200);
});

test('DSP partner statistics: the RTB partners tab names the partner; each drill-down answers only its value', async () => {
  const base = `/api/dsppartners/${ids.dspA}/stats?${range}`;
  const rtb = (await admin.get(`${base}&group=rtb_partner`)).json();
  expect(rtb.rows).toEqual([
    expect.objectContaining({ key: 'unknown', wins: 2 }),
    expect.objectContaining({ key: String(ids.rtb), name: 'SSP Alpha', wins: 1 }),
  ]);
  // the days, newest first (as every paged list of days)
  const days = (await admin.get(`${base}&group=day`)).json();
  expect(days.rows.map((r: { key: string }) => r.key)).toEqual(['2026-06-11', '2026-06-10']);
  const drill = async (filter: string) => (await admin.get(`${base}&group=day&${filter}`)).json().total;
  expect(await drill(`rtb_partner_id=${ids.rtb}`)).toMatchObject({ requests: 1, wins: 1, revenue: 0.005 });
  expect(await drill('country=FR')).toMatchObject({ requests: 1, wins: 1 });
  expect(await drill('country=US')).toMatchObject({ requests: 1, wins: 0 });
  expect(await drill('city=Berlin')).toMatchObject({ requests: 1, wins: 2 });
  expect(await drill('device=mobile')).toMatchObject({ requests: 1, wins: 1 });
  expect(await drill('os=Windows')).toMatchObject({ requests: 2, wins: 2 });
  expect(await drill(`source_id=${ids.site}`)).toMatchObject({ requests: 3, wins: 3 });
  expect(await drill(`campaign_id=${ids.campaign}`)).toMatchObject({ requests: 3, wins: 3 });
  expect(await drill('source_id=999999')).toMatchObject({ requests: 0, wins: 0 });
});

test('DSP partner statistics as a file: the rows and the total of the screen, filters kept; CSV and XLSX', async () => {
  const file = await admin.get(
    `/api/dsppartners/${ids.dspA}/stats/export?${range}&group=rtb_partner&format=csv`,
  );
  expect(file.statusCode, file.body).toBe(200);
  expect(file.headers['content-type']).toContain('text/csv');
  expect(file.headers['content-disposition']).toBe(
    `attachment; filename="stats-dsp-partner-${ids.dspA}-rtb_partner-2026-06-10-2026-06-11.csv"`,
  );
  const answer = (await admin.get(`/api/dsppartners/${ids.dspA}/stats?${range}&group=rtb_partner`)).json();
  const lines = file.body.trim().split('\n');
  // (trim drops the byte order mark the file starts with)
  expect(file.body.startsWith('\uFEFFrtb_partner,')).toBe(true);
  expect(lines[0]).toBe('rtb_partner,name,requests,bids,wins,timeouts,errors,revenue,ecpm');
  expect(lines).toHaveLength(answer.rows.length + 2);
  expect(lines).toContain(`${ids.rtb},SSP Alpha,1,${answer.rows[1].bids},1,0,0,0.005,${answer.rows[1].ecpm}`);
  const t = answer.total;
  expect(lines.at(-1)).toBe(
    `total,,${t.requests},${t.bids},${t.wins},${t.timeouts},${t.errors},${t.revenue},${t.ecpm}`,
  );
  // a drill-down's filter holds in the file too
  const drilled = await admin.get(
    `/api/dsppartners/${ids.dspA}/stats/export?${range}&group=day&country=FR&format=csv`,
  );
  expect(drilled.body.trim().split('\n').at(-1)).toMatch(/^total,1,\d+,1,/);
  const xlsx = await admin.get(`/api/dsppartners/${ids.dspA}/stats/export?${range}&format=xlsx`);
  expect(xlsx.statusCode).toBe(200);
  expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  expect((await admin.get(`/api/dsppartners/${ids.dspA}/stats/export?${range}&format=pdf`)).statusCode).toBe(
    422,
  );
  expect((await admin.get(`/api/dsppartners/999999/stats/export?${range}&format=csv`)).statusCode).toBe(404);
});
