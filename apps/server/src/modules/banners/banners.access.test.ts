import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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
async function advertiser() {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const campaign = (
    await api.post('/api/campaigns', { campaign: { title: `Access ${++n} ${u.user_id}`, clickprice: 0.1 } })
  ).json();
  const pixel = (await api.post('/api/pixels', { pixel: { title: 'Shop' } })).json();
  const creative = async (extra: Record<string, unknown> = {}) =>
    (
      await api.post('/api/banners', {
        banner: { campaign_id: campaign._id, title: 'Boots', url: 'https://a.example', ...extra },
      })
    ).json();
  return { ...u, api, campaign, pixel, creative };
}
const pixels = (state: string, values: string[]) => ({ targeting: { pixels: { state, values } } });

describe('creatives: every route checks access', () => {
  test('the list pages, filters by campaign and moderation, and shows only what the caller may read', async () => {
    const a = await advertiser();
    const b = await advertiser();
    for (let i = 0; i < 3; i++) await a.creative({ title: `A${i}` });
    await b.creative();
    const page = (await a.api.get(`/api/banners?limit=2&page=2`)).json();
    expect(page).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0].user_id).toBe(a.user_id);
    expect((await a.api.get(`/api/banners?campaign_id=${b.campaign._id}`)).json().total).toBe(0);
    expect((await admin.get(`/api/banners?campaign_id=${b.campaign._id}`)).json().total).toBe(1);
    expect((await a.api.get('/api/banners?moderation=approved')).json().total).toBe(0);
    expect((await a.api.get('/api/banners?moderation=pending')).json().total).toBe(3);
    expect((await a.api.get('/api/banners?limit=501')).statusCode).toBe(422);
  });

  test('another advertiser gets 404 on every route naming a creative it cannot see', async () => {
    const a = await advertiser();
    const b = await advertiser();
    const c = await a.creative();
    expect((await b.api.get(`/api/banners/${c._id}`)).statusCode).toBe(404);
    expect((await b.api.put(`/api/banners/${c._id}`, { banner: { title: 'Mine' } })).statusCode).toBe(404);
    expect((await b.api.post(`/api/banners/copy/${c._id}`)).statusCode).toBe(404);
    expect((await b.api.del(`/api/banners/${c._id}`)).statusCode).toBe(404);
    expect((await b.api.post(`/api/banners/${c._id}/moderate`, { decision: 'approve' })).statusCode).toBe(
      404,
    );
    expect((await a.api.get('/api/banners/999999')).statusCode).toBe(404);
    expect((await a.api.get(`/api/banners/${c._id}`)).json().title).toBe('Boots');
  });

  test('a read-only admin reads every creative and changes none', async () => {
    const a = await advertiser();
    const c = await a.creative();
    const ro = await userWithRole(t, 'adminreadonly');
    const api = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
    expect((await api.get(`/api/banners/${c._id}`)).statusCode).toBe(200);
    expect((await api.put(`/api/banners/${c._id}`, { banner: { title: 'X' } })).statusCode).toBe(403);
    expect((await api.del(`/api/banners/${c._id}`)).statusCode).toBe(403);
    expect((await api.post(`/api/banners/copy/${c._id}`)).statusCode).toBe(403);
    expect((await api.post(`/api/banners/${c._id}/moderate`, { decision: 'approve' })).statusCode).toBe(403);
    const created = await api.post('/api/banners', {
      banner: { campaign_id: a.campaign._id, title: 'X', url: 'https://a.example' },
    });
    expect(created.statusCode).toBe(403);
  });

  test('a creative on an unknown campaign is a 422 on campaign_id', async () => {
    const a = await advertiser();
    const res = await a.api.post('/api/banners', {
      banner: { campaign_id: '999999', title: 'X', url: 'https://a.example' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'campaign_id', code: 'not_found' });
  });

  test('moderation: reject with a reason, approve clears it; an admin copy keeps the decision', async () => {
    const a = await advertiser();
    const c = await a.creative();
    const noReason = await admin.post(`/api/banners/${c._id}/moderate`, { decision: 'reject' });
    expect(noReason.statusCode).toBe(422);
    const rejected = await admin.post(`/api/banners/${c._id}/moderate`, {
      decision: 'reject',
      reason: 'Misleading',
    });
    expect(rejected.json()).toMatchObject({ moderation: 'rejected', moderation_reason: 'Misleading' });
    expect((await a.api.get('/api/banners?moderation=rejected')).json().total).toBe(1);
    const approved = (await admin.post(`/api/banners/${c._id}/moderate`, { decision: 'approve' })).json();
    expect(approved).toMatchObject({ moderation: 'approved', moderation_reason: null });
    expect((await admin.post(`/api/banners/copy/${c._id}`)).json().moderation).toBe('approved');
    // the owner's copy is new material for a moderator
    const mine = (await a.api.post(`/api/banners/copy/${c._id}`)).json();
    expect(mine.moderation).toBe('pending');
    // a long title of emoji is cut by characters, never inside one
    const emoji = `a${'😀'.repeat(59)}`;
    await a.api.put(`/api/banners/${mine._id}`, { banner: { title: emoji } });
    const copied = (await a.api.post(`/api/banners/copy/${mine._id}`)).json().title as string;
    expect(copied).toBe(emoji);
    expect(copied).not.toContain('\uFFFD');
    // an admin's edit of what the visitor sees does not wait for another admin
    expect(
      (await admin.put(`/api/banners/${c._id}`, { banner: { url: 'https://b.example' } })).json(),
    ).toMatchObject({ moderation: 'approved', url: 'https://b.example' });
    expect(
      (await a.api.put(`/api/banners/${c._id}`, { banner: { text: 'New text' } })).json().moderation,
    ).toBe('pending');
    // deleting removes it for good
    expect((await a.api.del(`/api/banners/${c._id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/banners/${c._id}`)).statusCode).toBe(404);
  });
});

describe("creatives: remarketing targets only the owner's pixels", () => {
  test("the owner's pixel is accepted, in either direction", async () => {
    const a = await advertiser();
    const c = await a.creative(pixels('active', [a.pixel._id]));
    expect(c.targeting.pixels).toEqual({ state: 'active', values: [a.pixel._id] });
    const res = await a.api.put(`/api/banners/${c._id}`, { banner: pixels('negative', [a.pixel._id]) });
    expect(res.statusCode).toBe(200);
  });

  test("attacker: another advertiser's pixel is a 422 on targeting.pixels, on create and on update", async () => {
    const a = await advertiser();
    const victim = await advertiser();
    const res = await a.api.post('/api/banners', {
      banner: {
        campaign_id: a.campaign._id,
        title: 'Steal',
        url: 'https://a.example',
        ...pixels('active', [a.pixel._id, victim.pixel._id]),
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ field: 'targeting.pixels', code: 'pixel_not_owned' }),
    ]);
    expect(res.json().errors[0].detail).toContain(victim.pixel._id);
    expect((await a.api.get(`/api/banners?campaign_id=${a.campaign._id}`)).json().total).toBe(0);

    const c = await a.creative();
    const put = await a.api.put(`/api/banners/${c._id}`, { banner: pixels('negative', [victim.pixel._id]) });
    expect(put.statusCode).toBe(422);
    expect(put.json().errors[0]).toMatchObject({ field: 'targeting.pixels', code: 'pixel_not_owned' });
    expect((await a.api.get(`/api/banners/${c._id}`)).json().targeting.pixels.values).toEqual([]);
  });

  test('a pixel id that does not exist is refused the same way, with a translated message', async () => {
    const a = await advertiser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/banners',
      headers: { authorization: `Bearer ${a.access_token}`, 'accept-language': 'de' },
      payload: {
        banner: {
          campaign_id: a.campaign._id,
          title: 'X',
          url: 'https://a.example',
          ...pixels('active', ['987654']),
        },
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({
      field: 'targeting.pixels',
      code: 'pixel_not_owned',
      detail: 'Nur eigene Remarketing-Pixel des Inhabers können ausgewählt werden (nicht: 987654)',
    });
  });

  test("an admin editing a user's creative may name the user's pixels, not the admin's own", async () => {
    const a = await advertiser();
    const adminPixel = (await admin.post('/api/pixels', { pixel: { title: 'Admin audience' } })).json();
    const c = await a.creative();
    const bad = await admin.put(`/api/banners/${c._id}`, { banner: pixels('active', [adminPixel._id]) });
    expect(bad.statusCode).toBe(422);
    const good = await admin.put(`/api/banners/${c._id}`, { banner: pixels('active', [a.pixel._id]) });
    expect(good.statusCode).toBe(200);
  });
});

describe('creatives: site targeting names live sites only', () => {
  test('a live site is accepted; an unknown or unapproved site is a 422 on targeting.sites', async () => {
    const a = await advertiser();
    const pub = await register(t.app);
    const pubApi = as(t.app, pub.access_token);
    const site = (
      await pubApi.post('/api/sites', {
        site: { title: 'Mag', domain: `targeted-${pub.user_id}.example`, category: 'news' },
      })
    ).json();
    const sites = (values: string[]) => ({ targeting: { sites: { state: 'negative', values } } });
    const pending = await a.api.post('/api/banners', {
      banner: {
        campaign_id: a.campaign._id,
        title: 'X',
        url: 'https://a.example',
        ...sites([site._id, '987654']),
      },
    });
    expect(pending.statusCode).toBe(422);
    expect(pending.json().errors).toEqual([
      expect.objectContaining({ field: 'targeting.sites', code: 'site_unavailable' }),
    ]);
    expect(pending.json().errors[0].detail).toContain(`${site._id}, 987654`);
    await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
    const c = await a.creative(sites([site._id]));
    expect(c.targeting.sites.values).toEqual([site._id]);
  });
});
