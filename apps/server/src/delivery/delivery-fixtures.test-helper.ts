import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { contextOf } from '../app.ts';
import { as, register, type TestApp } from '../test/test-app.ts';
import type { ClickWrite } from './delivery.repository.ts';

type Api = ReturnType<typeof as>;

/** A visitor's desktop Chrome, as delivery reads it (no bot, a desktop on Windows). */
export const chrome = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

/** A publisher with an active site and an approved widget (default processor unless given). */
export async function publisherWithWidget(t: TestApp, admin: Api, widget: Record<string, unknown> = {}) {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'Mag', domain: `mag-${u.user_id}.example`, category: 'news' },
    })
  ).json();
  await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
  const w = (
    await api.post('/api/widgets', {
      widget: { title: 'Below article', site_id: site._id, settings: { columns: 2, rows: 1 }, ...widget },
    })
  ).json();
  expect(w._id, JSON.stringify(w)).toBeTruthy();
  await admin.post(`/api/widgets/${w._id}/moderate`, { decision: 'approve' });
  return { ...u, api, site, widget: w };
}

/**
 * An advertiser with a funded, approved, active campaign and one approved creative.
 * @param campaign fields of the campaign (clickprice 0.5 by default)
 * @param banner fields of the creative (targeting …)
 */
export async function runningCampaign(
  t: TestApp,
  admin: Api,
  opts: {
    campaign?: Record<string, unknown>;
    banner?: Record<string, unknown>;
    fund?: number;
    user?: Awaited<ReturnType<typeof register>>;
  } = {},
) {
  const u = opts.user ?? (await register(t.app));
  const api = as(t.app, u.access_token);
  const fund = opts.fund ?? 100;
  await admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum: fund } });
  const c = (
    await api.post('/api/campaigns', {
      campaign: {
        title: `Campaign ${Math.random().toString(36).slice(2)}`,
        clickprice: 0.5,
        click_filter: 'dummy',
        utm: 'utm_source=adp&utm_campaign={campaign_id}&w={widget_id}&cid={click_id}',
        ...opts.campaign,
      },
    })
  ).json();
  expect(c._id, JSON.stringify(c)).toBeTruthy();
  expect((await api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: fund } })).statusCode).toBe(
    201,
  );
  const b = (
    await api.post('/api/banners', {
      banner: {
        campaign_id: c._id,
        title: 'Great shoes',
        text: 'Half price',
        url: 'https://shop.example/shoes',
        ...opts.banner,
      },
    })
  ).json();
  expect(b._id, JSON.stringify(b)).toBeTruthy();
  await admin.post(`/api/campaigns/${c._id}/moderate`, { decision: 'approve' });
  await admin.post(`/api/banners/${b._id}/moderate`, { decision: 'approve' });
  const on = await api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
  expect(on.statusCode, on.body).toBe(200);
  return { ...u, api, campaign: c, banner: b };
}

/** Rebuilds the ad index now (it also rebuilds by itself on change notices, a moment later). */
export async function settle(t: TestApp) {
  const { delivery } = contextOf(t.app);
  await delivery.index.rebuild();
  await delivery.counters.refresh();
}

/**
 * One charged click as the engine hands it to the batch charge: the campaign's creative on the publisher's
 * widget, 0.50 of which half goes to the publisher, with its rollup.
 */
export function chargedClickWrite(
  campaignId: number,
  publisherId: number,
  bannerId: number,
  p: { site: { _id: string }; widget: { _id: string } },
): ClickWrite {
  return {
    row: {
      clickId: randomBytes(12).toString('base64url'),
      tokenKey: `${randomBytes(12).toString('hex')}:0`,
      status: 'charged',
      reason: null,
      campaignId,
      bannerId,
      siteId: Number(p.site._id),
      widgetId: Number(p.widget._id),
      price: 500_000n,
      publisherEarned: 250_000n,
      platformEarned: 250_000n,
    },
    charge: {
      campaignId,
      price: 500_000n,
      credits: [{ userId: publisherId, type: 'publisher_earning', sum: 250_000n }],
      platform: 250_000n,
    },
    rollup: {
      hour: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000),
      campaignId,
      bannerId,
      siteId: Number(p.site._id),
      widgetId: Number(p.widget._id),
      country: '',
      device: '',
      os: '',
      browser: '',
      clicks: 1,
      spent: 500_000n,
      earned: 250_000n,
    },
  };
}
