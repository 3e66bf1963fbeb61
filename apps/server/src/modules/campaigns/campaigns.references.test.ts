import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

/** A publisher's site and widget; approved by the admin unless told otherwise. */
async function inventory(approve = true) {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'Mag', domain: `mag-${u.user_id}.example`, category: 'news' },
    })
  ).json();
  const widget = (await api.post('/api/widgets', { widget: { title: 'W', site_id: site._id } })).json();
  if (approve) {
    await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
    await admin.post(`/api/widgets/${widget._id}/moderate`, { decision: 'approve' });
  }
  return { api, site, widget };
}

let n = 0;
async function advertiser() {
  const u = await register(t.app);
  return { ...u, api: as(t.app, u.access_token) };
}
const create = (api: ReturnType<typeof as>, extra: Record<string, unknown>) =>
  api.post('/api/campaigns', { campaign: { title: `Refs ${++n}`, clickprice: 0.2, ...extra } });
const fields = (res: { json: () => { errors: { field: string; code: string }[] } }) =>
  res.json().errors.map((e) => `${e.field}:${e.code}`);

describe("a campaign's site and widgets must exist and be live", () => {
  test("any publisher's live site and widgets may be targeted", async () => {
    const pub = await inventory();
    const a = await advertiser();
    const res = await create(a.api, { site_id: pub.site._id, widgets: [pub.widget._id] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ site_id: pub.site._id, widgets: [pub.widget._id] });
  });

  test('attacker: a site id that does not exist is a 422 on site_id, with a translated message', async () => {
    const a = await advertiser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns',
      headers: { authorization: `Bearer ${a.access_token}`, 'accept-language': 'ru' },
      payload: { campaign: { title: `Refs ${++n}`, clickprice: 0.2, site_id: '987654321' } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      {
        field: 'site_id',
        code: 'site_unavailable',
        detail: 'Нет активного одобренного сайта с таким id: 987654321',
      },
    ]);
    expect((await a.api.get('/api/campaigns')).json().total).toBe(0);
  });

  test('unknown widgets and a site or widget no moderator approved are refused, each on its field', async () => {
    const pending = await inventory(false);
    const live = await inventory();
    const a = await advertiser();
    const res = await create(a.api, {
      site_id: pending.site._id,
      widgets: [live.widget._id, pending.widget._id, '99999999'],
    });
    expect(res.statusCode).toBe(422);
    expect(fields(res)).toEqual(['site_id:site_unavailable', 'widgets:widget_unavailable']);
    expect(res.json().errors[1].detail).toContain(`${pending.widget._id}, 99999999`);
    expect(res.json().errors[1].detail).not.toContain(live.widget._id);
    // a switched-off widget is not live either
    await live.api.put(`/api/widgets/${live.widget._id}`, { widget: { status: 'inactive' } });
    expect(fields(await create(a.api, { widgets: [live.widget._id] }))).toEqual([
      'widgets:widget_unavailable',
    ]);
  });

  test('an update is checked the same way; ids the campaign already holds may be sent back', async () => {
    const pub = await inventory();
    const a = await advertiser();
    const c = (await create(a.api, { site_id: pub.site._id, widgets: [pub.widget._id] })).json();
    const bad = await a.api.put(`/api/campaigns/${c._id}`, {
      campaign: { widgets: [pub.widget._id, '88888888'] },
    });
    expect(bad.statusCode).toBe(422);
    expect(fields(bad)).toEqual(['widgets:widget_unavailable']);
    const badSite = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { site_id: '77777777' } });
    expect(fields(badSite)).toEqual(['site_id:site_unavailable']);
    expect((await a.api.get(`/api/campaigns/${c._id}`)).json()).toMatchObject({
      site_id: pub.site._id,
      widgets: [pub.widget._id],
    });
    // the site goes offline later: the campaign's other edits still save with the form sending it back
    await pub.api.put(`/api/sites/${pub.site._id}`, { site: { status: 'inactive' } });
    const edit = await a.api.put(`/api/campaigns/${c._id}`, {
      campaign: { title: `Renamed ${c._id}`, site_id: pub.site._id, widgets: [pub.widget._id] },
    });
    expect(edit.statusCode).toBe(200);
    // clearing is always allowed
    const cleared = await a.api.put(`/api/campaigns/${c._id}`, { campaign: { site_id: null, widgets: [] } });
    expect(cleared.json()).toMatchObject({ site_id: null, widgets: [] });
  });
});

test('naming an owner one may not act for: a 422 on user_id, the same whether the id exists or not', async () => {
  const a = await advertiser();
  const other = await register(t.app);
  for (const userId of [other.user_id, '987654321'])
    for (const path of ['/api/campaigns', '/api/sites', '/api/pixels', '/api/landings']) {
      const body =
        path === '/api/campaigns'
          ? { campaign: { title: `Owner ${++n}`, clickprice: 0.2, user_id: userId } }
          : path === '/api/sites'
            ? {
                site: {
                  title: 'S',
                  domain: `owner${++n}.example`,
                  category: 'news',
                  language: 'en',
                  user_id: userId,
                },
              }
            : path === '/api/pixels'
              ? { pixel: { title: 'P', user_id: userId } }
              : { landing: { title: 'L', user_id: userId } };
      const res = await a.api.post(path, body);
      expect(res.statusCode, `${path} ${userId}`).toBe(422);
      expect(res.json().errors, `${path} ${userId}`).toEqual([
        expect.objectContaining({ field: 'user_id', code: 'not_found' }),
      ]);
    }
  const unknown = await create(admin, { user_id: '987654321' });
  expect(fields(unknown)).toEqual(['user_id:not_found']);
});
