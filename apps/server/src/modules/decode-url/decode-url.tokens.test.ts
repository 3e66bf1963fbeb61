import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settings } from '../../db/schema/index.ts';
import {
  publisherWithWidget,
  runningCampaign,
  settle,
} from '../../delivery/delivery-fixtures.test-helper.ts';
import { createTokenSigner } from '../../delivery/tokens.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';

/** The newer delivery URLs: in-markup and material clicks, and the exchange's click, win and billing URLs. */
const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' };
const AUCTION_PRICE = ['$', '{AUCTION_PRICE}'].join('');
let t: TestApp;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(async () => {
  await t.close();
});

const decode = (url: string) => admin.post('/api/decode-url', { url });

describe('decode-URL of the newer delivery URLs', () => {
  test('a click reported from inside advertiser markup (/serve/c/<T>.<position>) reads as its click URL does', async () => {
    const p = await publisherWithWidget(t, admin);
    const a = await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    await settle(t);
    const res = await t.app.inject({
      method: 'GET',
      url: `/serve/widgets/${p.widget._id}`,
      headers: browser,
    });
    const sponsored = res.json().items.find((i: { sponsored: boolean }) => i.sponsored);
    const token = new URL(sponsored.url).pathname.slice('/click/'.length);
    const d = (await decode(`https://ads.example/serve/c/${token}`)).json();
    expect(d).toMatchObject({ kind: 'markup_click', error: null, bid: null });
    expect(d.token.items[d.token.position]).toMatchObject({ campaign_id: String(a.campaign._id) });
    expect(d.token).toMatchObject({ status: 'valid', widget_id: String(p.widget._id), material_id: null });
  });

  test("a click on one of the site's own materials (/serve/m/<T>.<material id>) names the material", async () => {
    const [row] = await t.database.db.select().from(settings).where(eq(settings.key, 'delivery_secret'));
    const signer = createTokenSigner(String(row?.value), 3600);
    const answer = signer.signAnswer({
      impressionId: signer.newImpressionId(),
      issuedAt: Math.floor(Date.now() / 1000),
      widgetId: 5,
      siteId: 4,
      visitorId: 'v-material',
      country: 'DE',
      device: 'mobile',
      os: 'android',
      browser: 'chrome',
      items: [],
      materials: [42, 43],
    });
    const d = (await decode(`/serve/m/${answer}.43`)).json();
    expect(d).toMatchObject({ kind: 'material_click', error: null });
    expect(d.token).toMatchObject({
      material_id: '43',
      device: 'mobile',
      visitor_id: 'v-material',
      site_id: '4',
      items: [],
    });
    // a material the answer did not show is not a URL we made
    expect((await decode(`/serve/m/${answer}.44`)).json()).toMatchObject({ token: null, error: 'malformed' });
  });

  test("the exchange's win, billing and click URLs: the partner, the campaign, our bid and the notices", async () => {
    const partner = (
      await admin.post('/api/rtbpartners', { rtbpartner: { name: 'SSP decode', max_request_ms: 1000 } })
    ).json();
    const running = await runningCampaign(t, admin, {
      campaign: { openrtb: { enabled: true, ecpm_bid: 4, only_openrtb: true } },
      fund: 50,
    });
    await t.database.db.execute(
      sql`update banners set images = '{"landscape":"c.jpg"}'::jsonb where id = ${Number(running.banner._id)}`,
    );
    await settle(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/rtb/openrtb2/${partner.key}`,
      payload: {
        id: 'decode-1',
        imp: [{ id: '1', banner: { w: 300, h: 250 } }],
        site: { domain: 'news.example', page: 'https://news.example/a' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const bid = res.json().seatbid[0].bid[0];
    const before = (await decode(bid.nurl)).json();
    expect(before).toMatchObject({ kind: 'rtb_nurl', token: null, error: null });
    expect(before.bid).toMatchObject({
      status: 'valid',
      channel: 'rtb',
      partner_id: String(partner._id),
      partner_name: 'SSP decode',
      campaign_id: String(running.campaign._id),
      campaign_title: running.campaign.title,
      banner_id: String(running.banner._id),
      source: 'news.example',
      bid: 4,
      nurl: null,
      burl: null,
    });
    expect(Date.parse(before.bid.expires_at) - Date.parse(before.bid.issued_at)).toBe(86_400_000);

    // the partner sends the win and billing notices: the decoded URL shows them
    for (const url of [bid.nurl, bid.burl]) {
      const fired = await t.app.inject({
        method: 'GET',
        url: String(url).replace('http://localhost:8080', '').replace(AUCTION_PRICE, '2.5'),
      });
      expect(fired.statusCode).toBe(204);
    }
    const after = (await decode(bid.burl)).json();
    expect(after.kind).toBe('rtb_burl');
    // a clearing price of 2.50 per 1000 impressions (the win as sent), 0.0025 for this impression, billed once
    expect(after.bid.nurl).toMatchObject({ price: 2.5, charged: 0 });
    expect(after.bid.burl).toMatchObject({ price: 0.0025, charged: 0.0025 });

    const token = new URL(bid.nurl).pathname.slice('/rtb/nurl/'.length);
    const click = (await decode(`https://ads.example/rtb/click/${token}`)).json();
    expect(click).toMatchObject({ kind: 'rtb_click', error: null, bid: { bid_id: before.bid.bid_id } });
    // an altered bid is forged, and not our token at all is malformed
    const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    expect((await decode(`/rtb/click/${flipped}`)).json()).toMatchObject({ bid: null, error: 'forged' });
    expect((await decode('/rtb/nurl/garbage')).json()).toMatchObject({ bid: null, error: 'malformed' });
  });

  test('the tracking parameters are the redirect macros, UTM and the networks’ click ids (one list)', async () => {
    const d = (
      await decode(
        'https://shop.example/?utm_source=a&click_id=c1&widget_id=3&timestamp=1&device=mobile&fbclid=f&color=red',
      )
    ).json();
    const tracking = Object.fromEntries(
      d.params.map((p: { name: string; tracking: boolean }) => [p.name, p.tracking]),
    );
    expect(tracking).toEqual({
      utm_source: true,
      click_id: true,
      widget_id: true,
      timestamp: true,
      device: true,
      fbclid: true,
      color: false,
    });
  });
});
