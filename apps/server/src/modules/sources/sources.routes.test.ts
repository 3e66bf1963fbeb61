import { afterAll, beforeAll, expect, test } from 'vitest';
import { publisherWithWidget, runningCampaign } from '../../delivery/delivery-fixtures.test-helper.ts';
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

async function withRole(role: string) {
  const u = await userWithRole(t, role);
  return as(t.app, (await login(t.app, u.email, u.password)).access_token);
}

test('the owner blocks a site, lists, edits and unblocks it (amnesty)', async () => {
  const p = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin);
  const url = `/api/campaigns/${a.campaign._id}/blocked-sources`;
  expect((await a.api.get(url)).json()).toMatchObject({ items: [], total: 0 });

  const res = await a.api.post(url, { blocked_source: { site_id: p.site._id, reason: 'Bot traffic' } });
  expect(res.statusCode, res.body).toBe(201);
  const block = res.json();
  expect(block).toMatchObject({
    campaign_id: a.campaign._id,
    site_id: p.site._id,
    widget_id: null,
    site_domain: p.site.domain,
    widget_title: null,
    reason: 'Bot traffic',
    until: null,
    active: true,
    created_by: a.user_id,
  });
  const list = (await a.api.get(url)).json();
  expect(list).toMatchObject({ total: 1, page: 1, limit: 20 });
  expect(list.items[0]).toEqual(block);

  // until a date: the end of that day (UTC); a past moment is stored but no longer holds
  const edited = await a.api.put(`/api/blocked-sources/${block._id}`, {
    blocked_source: { reason: 'Low quality', until: '2099-01-31' },
  });
  expect(edited.statusCode, edited.body).toBe(200);
  expect(edited.json()).toMatchObject({
    reason: 'Low quality',
    until: '2099-01-31T23:59:59.999Z',
    active: true,
  });
  const past = await a.api.put(`/api/blocked-sources/${block._id}`, {
    blocked_source: { until: '2001-01-01T10:00:00+02:00' },
  });
  expect(past.json()).toMatchObject({
    reason: 'Low quality',
    until: '2001-01-01T08:00:00.000Z',
    active: false,
  });
  // a year the database cannot hold or would read as another is a 422 'date'
  for (const until of ['0001-01-01T00:00:00Z', '0099-01-01', '1969-12-31']) {
    const res = await a.api.put(`/api/blocked-sources/${block._id}`, { blocked_source: { until } });
    expect(res.statusCode, until).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'until', code: 'date' });
  }
  const permanent = await a.api.put(`/api/blocked-sources/${block._id}`, { blocked_source: { until: null } });
  expect(permanent.json()).toMatchObject({ until: null, active: true });

  expect((await a.api.del(`/api/blocked-sources/${block._id}`)).statusCode).toBe(204);
  expect((await a.api.get(url)).json()).toMatchObject({ items: [], total: 0 });
  expect((await a.api.get(`/api/blocked-sources/${block._id}`)).statusCode).toBe(404);
});

test('a widget of anyone can be blocked; the answer names it and its site', async () => {
  const p = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin);
  const res = await a.api.post(`/api/campaigns/${a.campaign._id}/blocked-sources`, {
    blocked_source: { widget_id: p.widget._id },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()).toMatchObject({
    site_id: null,
    widget_id: p.widget._id,
    site_domain: p.site.domain,
    widget_title: 'Below article',
    reason: '',
  });
});

test('blocking a source twice keeps one block and tells its publisher once', async () => {
  const p = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin);
  const url = `/api/campaigns/${a.campaign._id}/blocked-sources`;
  const first = await a.api.post(url, { blocked_source: { site_id: p.site._id, reason: 'Bots' } });
  expect(first.statusCode).toBe(201);
  const again = await a.api.post(url, {
    blocked_source: { site_id: p.site._id, reason: 'Still bots', until: '2099-02-01' },
  });
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json()).toMatchObject({
    _id: first.json()._id,
    reason: 'Still bots',
    until: '2099-02-01T23:59:59.999Z',
  });
  expect((await a.api.get(url)).json().total).toBe(1);
  const notices = (await p.api.get('/api/notifications?limit=100')).json().items as { type: string }[];
  expect(notices.filter((n) => n.type === 'source_blocked')).toHaveLength(1);
  // a widget of that site is another source
  expect((await a.api.post(url, { blocked_source: { widget_id: p.widget._id } })).statusCode).toBe(201);
  // ten at once, as a double-clicked button sends them: still one block, one more notice
  const p2 = await publisherWithWidget(t, admin);
  const burst = await Promise.all(
    Array.from({ length: 10 }, () => a.api.post(url, { blocked_source: { site_id: p2.site._id } })),
  );
  expect(burst.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
  expect(new Set(burst.map((r) => r.json()._id)).size).toBe(1);
  const notices2 = (await p2.api.get('/api/notifications?limit=100')).json().items as { type: string }[];
  expect(notices2.filter((n) => n.type === 'source_blocked')).toHaveLength(1);
});

test('an advertiser blocks public inventory only: a site nobody approved is unknown to it, not to admins', async () => {
  const p = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin);
  const pending = (
    await p.api.post('/api/sites', {
      site: { title: 'Draft', domain: `draft-${p.user_id}.example`, category: 'news' },
    })
  ).json();
  const url = `/api/campaigns/${a.campaign._id}/blocked-sources`;
  const refused = await a.api.post(url, { blocked_source: { site_id: pending._id } });
  expect(refused.statusCode).toBe(422);
  expect(refused.body).not.toContain('draft-');
  expect(refused.json().errors[0]).toMatchObject({ field: 'site_id', code: 'not_found' });
  expect((await admin.post(url, { blocked_source: { site_id: pending._id } })).statusCode).toBe(201);
});

test('validation: exactly one of site and widget, existing ids, a real date', async () => {
  const p = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin);
  const url = `/api/campaigns/${a.campaign._id}/blocked-sources`;
  const field = async (body: unknown) => {
    const res = await a.api.post(url, { blocked_source: body });
    expect(res.statusCode, res.body).toBe(422);
    return res.json().errors[0].field;
  };
  expect(await field({})).toBe('site_id');
  expect(await field({ site_id: p.site._id, widget_id: p.widget._id })).toBe('site_id');
  expect(await field({ site_id: '999999' })).toBe('site_id');
  expect(await field({ widget_id: '999999' })).toBe('widget_id');
  expect(await field({ site_id: p.site._id, until: 'tomorrow' })).toBe('until');
  // a block that would end before it starts
  const past = await a.api.post(url, { blocked_source: { site_id: p.site._id, until: '2020-01-01' } });
  expect(past.json().errors[0]).toMatchObject({ field: 'until', code: 'in_past' });
  expect(await field({ site_id: p.site._id, reason: 'x'.repeat(1001) })).toBe('reason');
  // the campaign is the path's: a campaign_id in the body is refused
  expect(await field({ site_id: p.site._id, campaign_id: a.campaign._id })).toBeTruthy();
  expect((await a.api.get(url)).json().total).toBe(0);
});

test('permissions: others see nothing, readonly admins read, admins manage, a campaign-wide block is the admins', async () => {
  const p = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin);
  const other = as(t.app, (await register(t.app)).access_token);
  const readonly = await withRole('adminreadonly');
  const url = `/api/campaigns/${a.campaign._id}/blocked-sources`;
  const block = (await a.api.post(url, { blocked_source: { site_id: p.site._id } })).json();

  expect((await other.get(url)).statusCode).toBe(404);
  expect((await other.post(url, { blocked_source: { site_id: p.site._id } })).statusCode).toBe(404);
  expect(
    (await other.put(`/api/blocked-sources/${block._id}`, { blocked_source: { reason: 'x' } })).statusCode,
  ).toBe(404);
  expect((await other.del(`/api/blocked-sources/${block._id}`)).statusCode).toBe(404);
  expect((await other.get('/api/blocked-sources')).statusCode).toBe(403);
  // the publisher of the blocked site learns nothing about the advertiser's campaign either
  expect((await p.api.get(url)).statusCode).toBe(404);

  expect((await readonly.get(url)).json().total).toBe(1);
  expect((await readonly.get(`/api/blocked-sources/${block._id}`)).statusCode).toBe(200);
  expect((await readonly.post(url, { blocked_source: { site_id: p.site._id } })).statusCode).toBe(403);
  expect((await readonly.del(`/api/blocked-sources/${block._id}`)).statusCode).toBe(403);

  const edited = await admin.put(`/api/blocked-sources/${block._id}`, {
    blocked_source: { reason: 'By admin' },
  });
  expect(edited.json().reason).toBe('By admin');

  // a block for every campaign: admins only, readable by readonly admins, invisible to clients
  const wide = await admin.post('/api/blocked-sources', {
    blocked_source: { widget_id: p.widget._id, reason: 'Fraud' },
  });
  expect(wide.statusCode, wide.body).toBe(201);
  expect(wide.json()).toMatchObject({ campaign_id: null, widget_id: p.widget._id, reason: 'Fraud' });
  expect(
    (await a.api.post('/api/blocked-sources', { blocked_source: { site_id: p.site._id } })).statusCode,
  ).toBe(403);
  expect(
    (await readonly.post('/api/blocked-sources', { blocked_source: { site_id: p.site._id } })).statusCode,
  ).toBe(403);
  expect((await a.api.get(`/api/blocked-sources/${wide.json()._id}`)).statusCode).toBe(404);
  expect((await a.api.del(`/api/blocked-sources/${wide.json()._id}`)).statusCode).toBe(404);
  expect((await readonly.del(`/api/blocked-sources/${wide.json()._id}`)).statusCode).toBe(403);

  const none = (await readonly.get('/api/blocked-sources?campaign_id=none')).json();
  expect(none.items.map((b: { _id: string }) => b._id)).toEqual([wide.json()._id]);
  const ofCampaign = (await admin.get(`/api/blocked-sources?campaign_id=${a.campaign._id}`)).json();
  expect(ofCampaign.items.map((b: { _id: string }) => b._id)).toEqual([block._id]);
  expect((await admin.get('/api/blocked-sources')).json().total).toBeGreaterThanOrEqual(2);

  // an admin may also block for one campaign through the admin-wide call; the campaign must exist
  const one = await admin.post('/api/blocked-sources', {
    blocked_source: { campaign_id: a.campaign._id, site_id: p.site._id },
  });
  expect(one.json()).toMatchObject({ campaign_id: a.campaign._id });
  const unknown = await admin.post('/api/blocked-sources', {
    blocked_source: { campaign_id: '999999', site_id: p.site._id },
  });
  expect(unknown.statusCode).toBe(422);
  expect(unknown.json().errors[0].field).toBe('campaign_id');

  expect((await admin.del(`/api/blocked-sources/${wide.json()._id}`)).statusCode).toBe(204);
});
