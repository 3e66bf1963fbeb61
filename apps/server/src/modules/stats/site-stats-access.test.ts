import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { insertRollups } from '../../test/rollups.ts';
import {
  ADMIN,
  as,
  createTestApp,
  liftStatsDelay,
  login,
  register,
  type TestApp,
} from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

let seq = 0;
/** A publisher with two sites (a widget each), traffic on both on 2026-08-01. */
async function publisher() {
  seq += 1;
  const u = await register(t.app);
  await liftStatsDelay(t, u.user_id);
  const api = as(t.app, u.access_token);
  const post = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    expect(res.statusCode).toBe(201);
    return res.json() as { _id: string };
  };
  const sites = [];
  for (const [i, impressions] of [
    [1, 100],
    [2, 7],
  ] as const) {
    const site = await post('/api/sites', {
      site: { title: `Mag ${i}`, domain: `access-${seq}-${i}-${u.user_id}.example`, category: 'news' },
    });
    const widget = await post('/api/widgets', { widget: { title: 'Below', site_id: site._id } });
    await insertRollups(t.database.db, {
      hour: new Date('2026-08-01T10:00:00Z'),
      campaignId: 0,
      bannerId: 0,
      siteId: Number(site._id),
      widgetId: Number(widget._id),
      country: 'DE',
      device: '',
      os: '',
      browser: '',
      impressions,
    });
    sites.push({ site: site._id, widget: widget._id });
  }
  return { ...u, api, sites: sites as [(typeof sites)[0], (typeof sites)[0]] };
}

const range = 'from=2026-08-01&to=2026-08-01';

describe("a site's statistics access (stats_visible, advanced_stats)", () => {
  test('only admins set it: a publisher gets a 403 for a changed value, not for the one it has', async () => {
    const p = await publisher();
    const site = p.sites[0].site;
    const created = await p.api.post('/api/sites', {
      site: { title: 'Own', domain: `own-${p.user_id}.example`, category: 'news', advanced_stats: true },
    });
    expect(created.statusCode).toBe(403);
    expect(created.json()).toMatchObject({ error: 'stats_access_admin_only', message: expect.any(String) });
    const hide = await p.api.put(`/api/sites/${site}`, { site: { stats_visible: false } });
    expect(hide.statusCode).toBe(403);
    expect(hide.json().error).toBe('stats_access_admin_only');
    // the dashboard sends the whole form back: the values the site has are no change
    const same = await p.api.put(`/api/sites/${site}`, {
      site: { title: 'Same access', stats_visible: true, advanced_stats: false },
    });
    expect(same.statusCode).toBe(200);
    const set = await admin.put(`/api/sites/${site}`, {
      site: { advanced_stats: true, stats_visible: false },
    });
    expect(set.json()).toMatchObject({ advanced_stats: true, stats_visible: false });
    expect((await p.api.get(`/api/sites/${site}`)).json()).toMatchObject({ stats_visible: false });
  });

  test('hidden statistics: every view of the site and its widgets is a 403 for its owner, admins see them', async () => {
    const p = await publisher();
    const [hidden, shown] = p.sites;
    await admin.put(`/api/sites/${hidden.site}`, { site: { stats_visible: false, advanced_stats: true } });
    for (const path of [
      `/api/stats/sites/${hidden.site}?${range}`,
      `/api/sites/${hidden.site}/stats?${range}`,
      `/api/stats/sites/${hidden.site}/export?${range}&format=csv`,
      `/api/stats/widgets/${hidden.widget}?${range}`,
      `/api/sites/${hidden.site}/clicks?${range}`,
      `/api/sites/${hidden.site}/geoclicks?${range}`,
      `/api/sites/${hidden.site}/click-sources?${range}`,
      `/api/sites/${hidden.site}/impression-rate?${range}`,
      `/api/sites/${hidden.site}/toparticles?${range}`,
      `/api/widgets/${hidden.widget}/clicks?${range}`,
      `/api/stats2/sites/revenue?${range}&id=${hidden.site}`,
      `/api/stats2/sites/country/total?${range}&id=${hidden.site}`,
      `/api/stats2/sites/site/export?${range}&id=${hidden.site}&format=csv`,
      `/api/dbd?${range}&site_id=${hidden.site}`,
      `/api/dbd?${range}&widget_id=${hidden.widget}`,
      `/api/criteo/stats?${range}&site_id=${hidden.site}`,
      `/api/stats/widgets/${hidden.widget}/export?${range}&format=csv`,
    ]) {
      const res = await p.api.get(path);
      expect([path, res.statusCode, res.json().error]).toEqual([path, 403, 'stats_hidden']);
      expect([path, (await admin.get(path)).statusCode]).toEqual([path, 200]);
    }
    // the totals over the publisher's sites leave the hidden one out; the admin's include it
    const mine = (await p.api.get(`/api/stats/users/${p.user_id}?${range}`)).json();
    expect(mine.total.impressions).toBe(7);
    expect((await admin.get(`/api/stats/users/${p.user_id}?${range}`)).json().total.impressions).toBe(107);
    const tree = (await p.api.get(`/api/stats2/sites/site?${range}`)).json();
    expect(tree.rows.map((r: { key: string }) => r.key)).toEqual([shown.site]);
    const byDay = (await p.api.get(`/api/dbd?${range}&user_id=${p.user_id}`)).json();
    expect(byDay.total.impressions).toBe(7);
    expect((await admin.get(`/api/dbd?${range}&user_id=${p.user_id}`)).json().total.impressions).toBe(107);
    // the other site's statistics are there
    const other = await p.api.get(`/api/stats/sites/${shown.site}?${range}`);
    expect(other.json().total.impressions).toBe(7);
  });

  test('advanced statistics: the click lists and what ran on the site, once an admin turns them on', async () => {
    const p = await publisher();
    const { site, widget } = p.sites[0];
    const advanced = [
      `/api/sites/${site}/clicks?${range}`,
      `/api/widgets/${widget}/clicks?${range}`,
      `/api/stats/sites/${site}?${range}&group=creative`,
      `/api/stats/widgets/${widget}?${range}&group=creative`,
    ];
    for (const path of advanced) {
      const res = await p.api.get(path);
      expect([path, res.statusCode, res.json().error]).toEqual([path, 403, 'advanced_stats_off']);
    }
    // the rest is everyone's
    for (const path of [
      `/api/stats/sites/${site}?${range}&group=country`,
      `/api/sites/${site}/geoclicks?${range}`,
      `/api/sites/${site}/toparticles?${range}`,
    ])
      expect([path, (await p.api.get(path)).statusCode]).toEqual([path, 200]);
    // over all the publisher's sites: what ran on those with the advanced statistics only
    const creatives = `/api/stats/users/${p.user_id}?${range}&group=creative&as=publisher`;
    expect((await p.api.get(creatives)).json().total.impressions).toBe(0);
    expect((await p.api.get(`/api/stats/users/${p.user_id}?${range}`)).json().total.impressions).toBe(107);
    await admin.put(`/api/sites/${site}`, { site: { advanced_stats: true } });
    expect((await p.api.get(creatives)).json().total.impressions).toBe(100);
    for (const path of advanced) expect([path, (await p.api.get(path)).statusCode]).toEqual([path, 200]);
  });
});
