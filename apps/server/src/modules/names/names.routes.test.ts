import { campaignNamesAnswer, namesAnswer, validationErrorBody } from '@adp/contract';
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
let anna: Awaited<ReturnType<typeof client>>;
let boris: Awaited<ReturnType<typeof client>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  anna = await client('Anna');
  boris = await client('Boris');
});
afterAll(() => t.close());

let n = 0;
async function client(name: string, role?: string) {
  const u = role ? await userWithRole(t, role) : await register(t.app, { name });
  const api = as(t.app, u.access_token);
  n += 1;
  const site = await api.post('/api/sites', {
    site: { title: `${name} news ${n}`, domain: `${name.toLowerCase()}-${n}.example`, category: 'news' },
  });
  const campaign = await api.post('/api/campaigns', {
    campaign: { title: `${name} sale ${n}`, clickprice: 0.2 },
  });
  return {
    ...u,
    api,
    site: site.json() as { _id: string; title: string; domain: string },
    campaign: campaign.json() as { _id: string; title: string },
  };
}

describe('name lookups', () => {
  test('a user gets the names of its own sites and campaigns; campaigns carry owner and currency', async () => {
    const sites = await anna.api.post('/api/sites/names', { ids: [anna.site._id] });
    expect(sites.statusCode).toBe(200);
    expect(namesAnswer.parse(sites.json()).items).toEqual([{ _id: anna.site._id, name: anna.site.title }]);
    const campaigns = await anna.api.post('/api/campaigns/names', {
      ids: [anna.campaign._id, anna.campaign._id],
    });
    expect(campaigns.statusCode).toBe(200);
    expect(campaignNamesAnswer.parse(campaigns.json()).items).toEqual([
      { _id: anna.campaign._id, name: anna.campaign.title, user_id: anna.user_id, currency: 'USD' },
    ]);
  });

  test("another user's ids and unknown ids are 422 on ids, one entry each, and nothing is answered", async () => {
    const res = await anna.api.post('/api/sites/names', { ids: [anna.site._id, boris.site._id, '999999'] });
    expect(res.statusCode).toBe(422);
    const body = validationErrorBody.parse(res.json());
    expect(body.errors).toHaveLength(2);
    expect(body.errors.map((e) => e.field)).toEqual(['ids', 'ids']);
    expect(body.errors[0]!.detail).toContain(boris.site._id);
    expect(body.errors[1]!.detail).toContain('999999');
    expect(res.body).not.toContain(boris.site.title);
    const foreign = await anna.api.post('/api/campaigns/names', { ids: [boris.campaign._id] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.body).not.toContain(boris.campaign.title);
  });

  test('the detail is in the caller language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/names',
      headers: { authorization: `Bearer ${anna.access_token}`, 'accept-language': 'de' },
      payload: { ids: ['424242'] },
    });
    expect(res.json().errors[0].detail).toBe('Unbekannte oder für Sie nicht sichtbare ID: 424242');
  });

  test('admins read every name; bad bodies are 422, never 500', async () => {
    const res = await admin.post('/api/campaigns/names', { ids: [anna.campaign._id, boris.campaign._id] });
    expect(res.json().items.map((c: { name: string }) => c.name)).toEqual([
      anna.campaign.title,
      boris.campaign.title,
    ]);
    for (const payload of [
      {},
      { ids: [] },
      { ids: ['x'] },
      { ids: Array(501).fill('1') },
      { ids: ['1'], x: 1 },
    ]) {
      const bad = await admin.post('/api/sites/names', payload);
      expect(bad.statusCode).toBe(422);
    }
  });

  test('an agency reads the names of its members, not of others; a dummy may not look up', async () => {
    const agency = await userWithRole(t, 'agency');
    const ag = as(t.app, agency.access_token);
    const group = (await ag.post('/api/agencies', { agency: { title: 'Acme group' } })).json();
    const member = await ag.post(`/api/agencies/${group._id}/addmember`, {
      member: { name: 'Mia', email: `mia-${Date.now()}@test.local`, password: 'member-password-1' },
    });
    expect(member.statusCode).toBe(201);
    const memberId = member.json()._id as string;
    const site = await ag.post('/api/sites', {
      site: { title: 'Mia blog', domain: `mia-${Date.now()}.example`, category: 'news', user_id: memberId },
    });
    expect(site.statusCode).toBe(201);
    const ok = await ag.post('/api/sites/names', { ids: [site.json()._id] });
    expect(ok.json().items).toEqual([{ _id: site.json()._id, name: 'Mia blog' }]);
    expect((await ag.post('/api/sites/names', { ids: [anna.site._id] })).statusCode).toBe(422);

    const partners = await ag.post('/api/partners/names', { ids: [group._id] });
    expect(partners.json().items).toEqual([{ _id: group._id, name: 'Acme group' }]);
    // a plain user reads no agency at all; another agency reads only its own
    expect((await anna.api.post('/api/partners/names', { ids: [group._id] })).statusCode).toBe(403);
    const other = as(t.app, (await userWithRole(t, 'agency')).access_token);
    expect((await other.post('/api/partners/names', { ids: [group._id] })).statusCode).toBe(422);

    const dummy = await userWithRole(t, 'dummy');
    expect((await as(t.app, dummy.access_token).post('/api/sites/names', { ids: ['1'] })).statusCode).toBe(
      403,
    );
  });

  test('DSP domains are for admins: the domain of each site asked for, for an existing partner', async () => {
    const dsp = (
      await admin.post('/api/dsppartners', {
        dsppartner: { name: 'Names DSP', endpoint: 'https://dsp.example/rtb', max_request_time: 100 },
      })
    ).json()._id as string;
    const none = await admin.post('/api/dsppartners/domains', {
      dsp_id: '999999',
      site_ids: [anna.site._id],
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors[0]).toMatchObject({ field: 'dsp_id', code: 'unknown_id' });
    const res = await admin.post('/api/dsppartners/domains', { dsp_id: dsp, site_ids: [anna.site._id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([{ _id: anna.site._id, name: anna.site.domain }]);
    const unknown = await admin.post('/api/dsppartners/domains', { dsp_id: dsp, site_ids: ['777777'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0].field).toBe('site_ids');
    expect(
      (await anna.api.post('/api/dsppartners/domains', { dsp_id: '1', site_ids: [anna.site._id] }))
        .statusCode,
    ).toBe(403);
  });

  test('without a token the lookups are 401', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sites/names', payload: { ids: ['1'] } });
    expect(res.statusCode).toBe(401);
  });
});
