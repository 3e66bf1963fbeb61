import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import {
  publisherWithWidget,
  runningCampaign,
  settle,
} from '../../delivery/delivery-fixtures.test-helper.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' };
let t: TestApp;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(async () => {
  await t.close();
});

/** A real widget answer: its click URLs and beacons, as a widget on a page gets them. */
async function answer() {
  const p = await publisherWithWidget(t, admin);
  const a = await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
  await settle(t);
  const res = await t.app.inject({
    method: 'GET',
    url: `/serve/widgets/${p.widget._id}`,
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36',
      cookie: 'vid=v-decode-1',
    },
  });
  const body = res.json();
  const sponsored = body.items.find((i: { sponsored: boolean }) => i.sponsored);
  expect(sponsored, res.body).toBeTruthy();
  const vid = /vid=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1];
  expect(vid).toBeTruthy();
  return { p, a, body, vid, click: sponsored.url as string };
}

const decode = (url: unknown, api = admin) => api.post('/api/decode-url', { url });

describe('POST /api/decode-url', () => {
  test('a click URL copied from a widget: the answer, the item, its price, and what became of it', async () => {
    const { p, a, body, vid, click } = await answer();
    const before = await decode(click);
    expect(before.statusCode, before.body).toBe(200);
    const d = before.json();
    expect(d).toMatchObject({ kind: 'click', error: null, path: expect.stringMatching(/^\/click\//) });
    expect(d.token).toMatchObject({
      status: 'valid',
      site_id: String(p.site._id),
      site_title: 'Mag',
      widget_id: String(p.widget._id),
      widget_title: 'Below article',
      visitor_id: vid,
      device: 'desktop',
      impression_counted: false,
      view_counted: false,
      click: null,
    });
    const item = d.token.items[d.token.position];
    expect(item).toMatchObject({
      campaign_id: String(a.campaign._id),
      campaign_title: a.campaign.title,
      banner_id: String(a.banner._id),
      banner_title: 'Great shoes',
      price: 0.5,
    });
    expect(Date.parse(d.token.expires_at) - Date.parse(d.token.issued_at)).toBe(3600_000);

    // the visitor sees the ad, then clicks: the decoded URL says so, with the charged click
    const seen = await t.app.inject({
      method: 'GET',
      url: new URL(body.impression_url).pathname,
      headers: browser,
    });
    expect(seen.statusCode).toBe(204);
    const path = new URL(click).pathname;
    const cookie = `vid=${vid}`;
    expect(
      (await t.app.inject({ method: 'GET', url: path, headers: { ...browser, cookie } })).statusCode,
    ).toBe(302);
    const after = (await decode(path)).json();
    expect(after.token).toMatchObject({ impression_counted: true, view_counted: false });
    expect(after.token.click).toMatchObject({ status: 'charged', reason: null, price: 0.5 });
  });

  test('beacons decode to their answer; an altered token is forged, garbage is malformed', async () => {
    const { body, click } = await answer();
    const imp = (await decode(body.impression_url)).json();
    expect(imp).toMatchObject({ kind: 'impression', error: null, token: { position: null, click: null } });
    expect((await decode(body.viewable_url)).json()).toMatchObject({ kind: 'view', error: null });

    const token = new URL(click).pathname.slice('/click/'.length);
    const [signed = '', position] = token.split('.');
    // one character of the signed part changed: the signature no longer holds
    const flipped = `${signed.slice(0, 20)}${signed[20] === 'A' ? 'B' : 'A'}${signed.slice(21)}`;
    const forged = (await decode(`https://ads.example/click/${flipped}.${position}`)).json();
    expect(forged).toMatchObject({ kind: 'click', token: null, error: 'forged' });
    const garbage = (await decode('https://ads.example/serve/i/not-a-token')).json();
    expect(garbage).toMatchObject({ kind: 'impression', token: null, error: 'malformed' });
  });

  test('any other URL: its tracking parameters', async () => {
    const res = await decode(
      'https://shop.example/shoes?utm_source=adp&utm_campaign=7&gclid=abc&color=red&cid=xyz',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'other',
      origin: 'https://shop.example',
      path: '/shoes',
      token: null,
      error: null,
      params: [
        { name: 'utm_source', value: 'adp', tracking: true },
        { name: 'utm_campaign', value: '7', tracking: true },
        { name: 'gclid', value: 'abc', tracking: true },
        { name: 'color', value: 'red', tracking: false },
        { name: 'cid', value: 'xyz', tracking: false },
      ],
    });
    // a host without its scheme is read as https
    expect((await decode('shop.example/x?utm_medium=cpc')).json()).toMatchObject({
      origin: 'https://shop.example',
      params: [{ name: 'utm_medium', tracking: true }],
    });
  });

  test('the URL must not be empty; a value that is no URL is refused (422, translated)', async () => {
    for (const url of ['', '   ', undefined]) {
      const res = await decode(url);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ field: 'url' });
    }
    const notUrl = await decode('http://exa mple.com:99999/');
    expect(notUrl.statusCode, notUrl.body).toBe(422);
    expect(notUrl.json().errors[0]).toMatchObject({ field: 'url' });
  });

  test('admins and read-only admins only', async () => {
    const readonly = await userWithRole(t, 'adminreadonly');
    const ro = as(t.app, (await login(t.app, readonly.email, readonly.password)).access_token);
    expect((await decode('https://x.example/?utm_source=a', ro)).statusCode).toBe(200);
    const user = await register(t.app);
    expect((await decode('https://x.example/', as(t.app, user.access_token))).statusCode).toBe(403);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/decode-url',
      payload: { url: 'https://x.example/' },
    });
    expect(anon.statusCode).toBe(401);
    expect(contextOf(t.app).decodeUrl).toBeDefined();
  });
});
