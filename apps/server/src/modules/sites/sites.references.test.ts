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

async function publisher() {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'Mag', domain: `refs-${u.user_id}.example`, category: 'news' },
    })
  ).json();
  const widget = (await api.post('/api/widgets', { widget: { title: 'W', site_id: site._id } })).json();
  return { ...u, api, site, widget };
}
const fields = (res: { json: () => { errors: { field: string; code: string }[] } }) =>
  res.json().errors.map((e) => `${e.field}:${e.code}`);

describe("a site's billing widget and affiliate must be real", () => {
  test("the site's own widget and an existing affiliate are accepted", async () => {
    const p = await publisher();
    const referrer = await register(t.app);
    const res = await admin.put(`/api/sites/${p.site._id}`, {
      site: { billing_widget: p.widget._id, affiliate_user_id: referrer.user_id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ billing_widget: p.widget._id, affiliate_user_id: referrer.user_id });
  });

  test("attacker: another site's widget as billing widget is a 422 on billing_widget, with a translated message", async () => {
    const p = await publisher();
    const other = await publisher();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${p.site._id}`,
      headers: { authorization: (await adminHeader()).authorization, 'accept-language': 'fr' },
      payload: { site: { billing_widget: other.widget._id } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      {
        field: 'billing_widget',
        code: 'billing_widget_not_of_site',
        detail: 'Le widget de facturation doit être un widget de ce site',
      },
    ]);
    expect(
      fields(await admin.put(`/api/sites/${p.site._id}`, { site: { billing_widget: '99999999' } })),
    ).toEqual(['billing_widget:billing_widget_not_of_site']);
    expect((await admin.get(`/api/sites/${p.site._id}`)).json().billing_widget).toBeNull();
  });

  test('a new site has no widgets yet, so it cannot name a billing widget', async () => {
    const p = await publisher();
    const res = await admin.post('/api/sites', {
      site: {
        title: 'New',
        domain: `new-${p.user_id}.example`,
        category: 'news',
        user_id: p.user_id,
        billing_widget: p.widget._id,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(fields(res)).toEqual(['billing_widget:billing_widget_not_of_site']);
  });

  test("an admin's own referral terms on a site are another admin's to set", async () => {
    const p = await publisher();
    const me = await login(t.app, ADMIN.email, ADMIN.password);
    const self = await admin.put(`/api/sites/${p.site._id}`, {
      site: { affiliate_user_id: me.user_id, affiliate_earn_percent: 50 },
    });
    expect(self.statusCode).toBe(422);
    expect(fields(self)).toEqual(['affiliate_user_id:own_earn_percent']);
    // another admin makes it the affiliate; then its percent is that admin's to change, not its own
    const other = as(t.app, (await userWithRole(t, 'admin')).access_token);
    expect(
      (await other.put(`/api/sites/${p.site._id}`, { site: { affiliate_user_id: me.user_id } })).statusCode,
    ).toBe(200);
    const percent = await admin.put(`/api/sites/${p.site._id}`, { site: { affiliate_earn_percent: 50 } });
    expect(fields(percent)).toEqual(['affiliate_earn_percent:own_earn_percent']);
    expect(
      (await other.put(`/api/sites/${p.site._id}`, { site: { affiliate_earn_percent: 5 } })).json(),
    ).toMatchObject({ affiliate_user_id: me.user_id, affiliate_earn_percent: 5 });
    // other changes of the site stay the admin's to make
    expect((await admin.put(`/api/sites/${p.site._id}`, { site: { title: 'Renamed' } })).statusCode).toBe(
      200,
    );
  });

  test('attacker: an affiliate user that does not exist is a 422 on affiliate_user_id', async () => {
    const p = await publisher();
    const res = await admin.put(`/api/sites/${p.site._id}`, { site: { affiliate_user_id: '987654321' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      { field: 'affiliate_user_id', code: 'user_unknown', detail: 'There is no user with this id' },
    ]);
    const created = await admin.post('/api/sites', {
      site: {
        title: 'New',
        domain: `aff-${p.user_id}.example`,
        category: 'news',
        user_id: p.user_id,
        affiliate_user_id: '987654321',
      },
    });
    expect(fields(created)).toEqual(['affiliate_user_id:user_unknown']);
  });
});

async function adminHeader() {
  return { authorization: `Bearer ${(await login(t.app, ADMIN.email, ADMIN.password)).access_token}` };
}
