import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { runningCampaign, settle } from '../../delivery/delivery-fixtures.test-helper.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../../test/test-app.ts';

const base = '/work/shared/conformance/openrtb';
const conformance = new URL(`file://${process.env.OPENRTB_CONFORMANCE ?? base}/`);
const requestsDir = new URL('requests/', conformance);
const read = (dir: URL, name: string) => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));

/** The 2.6 schema (draft 2020-12, every file under its $id) and the strict 2.5 one (draft-04). */
function validators(): { v26: ValidateFunction; v25: ValidateFunction } {
  const dir26 = new URL('schema/openrtb-2.6-pr179/', conformance);
  const ajv26 = new Ajv2020({ strict: false, allErrors: true });
  for (const f of readdirSync(dir26)) ajv26.addSchema(read(dir26, f));
  const v26 = ajv26.getSchema('https://iabtechlab.com/openrtb/2.6/BidResponse.json');
  // draft-04 without the draft-04 keywords that differ (none used: no boolean exclusiveMinimum, no `id`),
  // so Ajv's default draft reads it the same; the README's `nbr` ref bug only bites responses with `nbr`
  const s25 = read(
    new URL('schema/openrtb-2.5-validator/', conformance),
    'openrtb-schema_bid-response_v2-5.json',
  );
  delete s25.$schema;
  // README: `properties.nbr` names `nobid_reason`, the definition is `nobid_reason_code`
  s25.properties.nbr.$ref = '#/definitions/nobid_reason_code';
  const v25 = new Ajv({ strict: false, allErrors: true }).compile(s25);
  if (!v26) throw new Error('2.6 BidResponse schema missing');
  return { v26, v25 };
}

/**
 * Why each conformance request gets no bid (every other one must get a schema-valid bid):
 * video-only imps, a native request that is not one, a seat list without ours, a floor above our bid, a
 * required image asset none of our image's sizes or types meets.
 */
const noBid: Record<string, string> = {
  '2.4-google-kitchen-sink-banner-video-native-pmp-geo.json': 'seat_not_allowed', // wseat ['seat1']
  '2.5-openrtb-validator-ex4-video-companions-site-tmax.json': 'no_matching_imp', // video
  '2.5-openrtb-validator-ex6-native1.0-placeholder-site.json': 'no_matching_imp', // unparseable placeholder
  '2.5-pbs-evolution-video-site-instream-geo-tmax.json': 'no_matching_imp',
  '2.5-pbs-madvertise-video-app-gdpr-consent-geo.json': 'no_matching_imp',
  // a required video asset (we have none)
  '2.5-pbs-seedingalliance-native1.2-site-content-video-asset.json': 'no_matching_imp',
  '2.5-pbs-taboola-native1.1-malformed-double-encoded-request-string.json': 'no_matching_imp',
  '2.6-iab-impl-dooh-banner-multiformat-pmp-qty.json': 'no_matching_imp', // floor 5 GBP > our 4 GBP
  '2.6-iab-impl-dooh-video-pmp-qty.json': 'no_matching_imp',
  '2.6-iab-spec-ex4-video-companions-site-tmax.json': 'no_matching_imp',
  '2.6-pbs-ix-video-structured-pod.json': 'no_matching_imp',
  '2.6-pbs-openx-video-rewarded-rwdd.json': 'no_matching_imp',
  '2.6-pbs-thetradedesk-video-site-plcmt-cattax-sua.json': 'no_matching_imp',
  // a required image of an exact size we do not render (120×100; ours: 150×100, 300×300, 640×360, 1200×628)
  '2.5-pbs-outbrain-native1.2-site-infeed-minimal.json': 'no_matching_imp',
  // a required image in JPEG, PNG or GIF only (ours are WebP)
  '2.5-pbs-evolution-native1.1-site-recommendation-widget-bcat-gdpr.json': 'no_matching_imp',
  '2.5-pbs-zentotem-native1.2-site-geo-multicur-at2.json': 'no_matching_imp',
};

/** The OpenRTB clearing price macro. */
const AUCTION_PRICE = ['$', '{AUCTION_PRICE}'].join('');

let t: TestApp;
let admin: ReturnType<typeof as>;
let key: string;
let v: ReturnType<typeof validators>;

beforeAll(async () => {
  v = validators();
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const p = await admin.post('/api/rtbpartners', { rtbpartner: { name: 'SSP', max_request_ms: 5000 } });
  expect(p.statusCode, p.body).toBe(201);
  key = p.json().key;
  const c = await runningCampaign(t, admin, {
    campaign: { openrtb: { enabled: true, ecpm_bid: 5 } },
    banner: { title: 'Great shoes at half price', text: 'Only this week', url: 'https://shop.example/shoes' },
  });
  await t.database.db.execute(
    // the four sizes an upload renders (WebP)
    sql`update banners set images = '{"landscape":"c-l.webp","square":"c-s.webp","wide":"c-w.webp","thumb":"c-t.webp"}'::jsonb where id = ${Number(c.banner._id)}`,
  );
  await t.database.db.execute(
    sql`update campaigns set brand_name = 'Shoe Shop' where id = ${Number(c.campaign._id)}`,
  );
  // campaigns whose ads are a feed's items or a tag never bid, however high their bid: their creative is
  // only a placeholder (every bid below names shop.example)
  for (const campaign of [
    {
      adstype: 'cpcfeed',
      cpc_feed_processor: 'mgid',
      src_code: JSON.stringify({ widget_id: '1', token: 'tok' }),
    },
    { adstype: 'criteo', src_code: '<div id="criteo-zone"></div>' },
  ]) {
    const other = await runningCampaign(t, admin, {
      campaign: { ...campaign, openrtb: { enabled: true, ecpm_bid: 50 } },
      banner: { title: 'Placeholder', url: 'https://placeholder.example/' },
    });
    await t.database.db.execute(
      sql`update banners set images = '{"landscape":"p-l.webp","square":"p-s.webp","wide":"p-w.webp","thumb":"p-t.webp"}'::jsonb where id = ${Number(other.banner._id)}`,
    );
  }
  contextOf(t.app).rates.replace([
    ['USD', '1'],
    ['EUR', '0.9'],
    ['CHF', '0.88'],
    ['GBP', '0.8'],
    ['RUB', '90'],
  ]);
  await settle(t);
});
afterAll(() => t?.close());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/rtb/openrtb2/${key}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });

describe('every conformance bid request', () => {
  const files = readdirSync(requestsDir).filter((f) => f.endsWith('.json') && !f.startsWith('native1.2-'));
  test.each(files)('%s', async (file) => {
    const request = read(requestsDir, file);
    const version = file.startsWith('2.6') ? '2.6' : '2.5';
    const res = await post(request, { 'x-openrtb-version': version });
    if (noBid[file]) {
      expect(res.statusCode, res.body).toBe(204);
      expect(res.headers['x-nobid-reason']).toBe(noBid[file]);
      return;
    }
    expect(res.statusCode, `${res.headers['x-nobid-reason']} ${res.body}`).toBe(200);
    const answer = res.json();
    expect(answer.id).toBe(request.id);
    expect(v.v26(answer), JSON.stringify(v.v26.errors)).toBe(true);
    if (version === '2.5') expect(v.v25(answer), JSON.stringify(v.v25.errors)).toBe(true);
    const impIds = new Set(request.imp.map((i: { id: string }) => i.id));
    for (const bid of answer.seatbid[0].bid) {
      expect(impIds.has(bid.impid)).toBe(true);
      expect(bid.nurl).toContain(AUCTION_PRICE);
      expect(bid.burl).toContain(AUCTION_PRICE);
      expect(bid.adomain).toEqual(['shop.example']);
      const imp = request.imp.find((i: { id: string }) => i.id === bid.impid);
      if (imp.native) {
        const adm = JSON.parse(bid.adm);
        const body = adm.native ?? adm;
        expect(body.assets.length).toBeGreaterThan(0);
        expect(body.link.url).toContain('/rtb/click/');
        if (body.ver === '1.2') expect(body.eventtrackers ?? body.imptrackers).toBeTruthy();
        else expect(body.imptrackers).toHaveLength(1);
      } else {
        expect(bid.adm).toContain('<img');
        expect(bid.w).toBeGreaterThan(0);
      }
    }
  });

  test('the native 1.2 markup requests, inside a bid request, get Native 1.2 answers with eventtrackers', async () => {
    for (const file of readdirSync(requestsDir).filter((f) => f.startsWith('native1.2-markup-request-'))) {
      const native = readFileSync(new URL(file, requestsDir), 'utf8');
      const res = await post({ id: file, imp: [{ id: '1', native: { request: native, ver: '1.2' } }] });
      if (res.statusCode === 204) {
        // a required asset we do not have (a video): a reasoned no-bid
        expect(
          JSON.parse(native).assets.some(
            (a: { video?: unknown; required?: number }) => a.video && a.required,
          ),
        ).toBe(true);
        continue;
      }
      expect(res.statusCode, res.body).toBe(200);
      const adm = JSON.parse(res.json().seatbid[0].bid[0].adm);
      expect(adm.ver).toBe('1.2');
      const request = JSON.parse(native);
      const imgAllowed =
        !request.eventtrackers ||
        request.eventtrackers.some(
          (e: { event: number; methods: number[] }) => e.event === 1 && e.methods.includes(1),
        );
      if (imgAllowed) expect(adm.eventtrackers).toEqual([expect.objectContaining({ event: 1, method: 1 })]);
      else expect(adm.imptrackers).toHaveLength(1);
    }
  });
});

describe('malformed requests: 400 with a reason, never a crash', () => {
  test.each([
    ['not JSON', '{"id":', 'body is not JSON'],
    ['an empty body', '', 'body is not JSON'],
    ['no imp', { id: 'x' }, 'imp'],
    ['imp empty', { id: 'x', imp: [] }, 'imp'],
    ['id a number', { id: 5, imp: [{ id: '1', banner: {} }] }, 'id'],
    ['imp id missing', { id: 'x', imp: [{ banner: {} }] }, 'imp.0.id'],
    ['tmax a string', { id: 'x', tmax: 'soon', imp: [{ id: '1', banner: {} }] }, 'tmax'],
    ['cur not a list', { id: 'x', cur: 'USD', imp: [{ id: '1', banner: {} }] }, 'cur'],
    ['an array', [1, 2], 'request'],
    ['null', 'null', 'request'],
  ])('%s', async (_name, body, reason) => {
    const res = await post(body as never);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().reason).toContain(reason);
  });

  test('a body that is not gzip though it says so, an unknown version, an unknown key', async () => {
    const gz = await post('not gzip', { 'content-encoding': 'gzip' });
    expect(gz.statusCode).toBe(400);
    expect(gz.json().reason).toContain('gzip');
    const ver = await post({ id: 'x', imp: [{ id: '1', banner: {} }] }, { 'x-openrtb-version': '3.0' });
    expect(ver.statusCode).toBe(400);
    expect(ver.json().reason).toContain('version');
    // an unknown key is 404 (as on the Prebid endpoint), checked before the body
    const unknown = await t.app.inject({ method: 'POST', url: '/rtb/openrtb2/nope', payload: '{}' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', reason: 'unknown partner key' });
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/rtb/openrtb2/nope',
      headers: { 'content-type': 'application/json' },
      payload: '{"id":',
    });
    expect(notJson.statusCode).toBe(404);
  });

  test('gzip bodies are read', async () => {
    const request = read(requestsDir, '2.6-iab-spec-ex1-banner-simple-site.json');
    const res = await post(gzipSync(JSON.stringify(request)), { 'content-encoding': 'gzip' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(request.id);
  });
});

describe('the bid response is JSON text joined from escaped parts', () => {
  test('titles with markup and quotes, ids with escapes: the text is what JSON.stringify writes of it', async () => {
    const title = `Shoes "50%" <b>&'now'</b> \\ — 🙂`;
    await t.database.db.execute(
      sql`update banners set title = ${title} where title = 'Great shoes at half price'`,
    );
    await settle(t);
    const request = read(requestsDir, '2.6-iab-spec-ex1-banner-simple-site.json');
    request.id = 'req "1" \\ é\u2028';
    request.imp[0].id = 'imp "a"\n';
    const res = await post(request, { 'x-openrtb-version': '2.6' });
    expect(res.statusCode, res.body).toBe(200);
    // the same characters and escapes as a serialiser's: valid JSON, nothing doubly or wrongly escaped
    expect(res.body).toBe(JSON.stringify(res.json()));
    const answer = res.json();
    expect(answer.id).toBe(request.id);
    expect(v.v26(answer), JSON.stringify(v.v26.errors)).toBe(true);
    const [bid] = answer.seatbid[0].bid;
    expect(bid.impid).toBe(request.imp[0].id);
    const html = 'Shoes &quot;50%&quot; &lt;b&gt;&amp;&#39;now&#39;&lt;/b&gt; \\ — 🙂';
    expect(bid.adm).toContain(`alt="${html}"`);
    expect(bid.adm).toContain(`>${html}</span></a>`);
    expect(bid.adm).not.toContain('<b>');
    const token = bid.nurl.split('/rtb/nurl/')[1].split('?')[0];
    expect(bid.adm).toMatch(new RegExp(`^<a href="[^"]+/rtb/click/${token}" target="_blank"`));
    expect(bid.adm).toContain(`<img src="${bid.burl}" width="1" height="1"`);
    expect(bid).toMatchObject({ w: 300, h: 250, mtype: 1, cid: expect.any(String), crid: bid.adid });
  });
});
