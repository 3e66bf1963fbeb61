import { afterAll, beforeAll, expect, test } from 'vitest';
import { publisherWithWidget, runningCampaign } from '../delivery/delivery-fixtures.test-helper.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';

// A PUT that names one field of a nested block (a campaign's OpenRTB settings, a creative's targeting, a
// widget's settings, a site's parser, a landing's form) changes that field only: the others keep their
// stored values instead of going back to the defaults.
let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t?.close());

test("a campaign's OpenRTB block: the fields sent change, bidding stays on", async () => {
  const c = await runningCampaign(t, admin, { campaign: { openrtb: { enabled: true, ecpm_bid: 4 } } });
  const url = `/api/campaigns/${c.campaign._id}`;
  const put = await c.api.put(url, { campaign: { openrtb: { daily_budget_limit: 5 } } });
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json().openrtb).toMatchObject({ enabled: true, ecpm_bid: 4, daily_budget_limit: 5 });
  expect((await c.api.get(url)).json().openrtb).toMatchObject({ enabled: true, ecpm_bid: 4 });
  // the merged block is checked whole, with the field's full path
  const bad = await c.api.put(url, { campaign: { openrtb: { ecpm_bid: -1 } } });
  expect(bad.statusCode).toBe(422);
  expect(bad.json().errors[0].field).toBe('openrtb.ecpm_bid');
  const unknown = await c.api.put(url, { campaign: { openrtb: { surprise: 1 } } });
  expect(unknown.statusCode).toBe(422);
  // the partner lists name RTB partners that exist
  const partner = (await admin.post('/api/rtbpartners', { rtbpartner: { name: 'Merge SSP' } })).json();
  const lists = await c.api.put(url, {
    campaign: { openrtb: { dsp_whitelist: [partner._id, '999999'], dsp_blacklist: ['999998'] } },
  });
  expect(lists.statusCode).toBe(422);
  expect(lists.json().errors).toEqual([
    expect.objectContaining({ field: 'openrtb.dsp_whitelist', code: 'unknown_ids' }),
    expect.objectContaining({ field: 'openrtb.dsp_blacklist', code: 'unknown_ids' }),
  ]);
  expect(lists.json().errors[0].detail).toContain('999999');
  const known = await c.api.put(url, { campaign: { openrtb: { dsp_whitelist: [partner._id] } } });
  expect(known.statusCode, known.body).toBe(200);
  await c.api.put(url, { campaign: { openrtb: { dsp_whitelist: [] } } });
  expect((await c.api.get(url)).json().openrtb).toMatchObject({ ecpm_bid: 4, daily_budget_limit: 5 });
});

test("a creative's targeting: the dimensions not sent keep their rules", async () => {
  const c = await runningCampaign(t, admin);
  const url = `/api/banners/${c.banner._id}`;
  const countries = { state: 'active', values: ['DE', 'FR'] };
  expect((await c.api.put(url, { banner: { targeting: { countries } } })).statusCode).toBe(200);
  const devices = { state: 'negative', values: ['mobile'] };
  const put = await c.api.put(url, { banner: { targeting: { devices } } });
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json().targeting).toMatchObject({ countries, devices });
  // rules across the dimensions hold on the merged whole: an end before the stored start is refused
  expect((await c.api.put(url, { banner: { targeting: { start_date: '2030-06-10' } } })).statusCode).toBe(
    200,
  );
  const bad = await c.api.put(url, { banner: { targeting: { end_date: '2030-06-01' } } });
  expect(bad.statusCode).toBe(422);
  expect(bad.json().errors[0].field).toMatch(/^targeting\./);
  // "only these" with an empty list would show the creative nowhere: refused; "all but these" empty is harmless
  const empty = await c.api.put(url, { banner: { targeting: { hours: { state: 'active', values: [] } } } });
  expect(empty.statusCode).toBe(422);
  expect(empty.json().errors[0]).toMatchObject({ field: 'targeting.hours', code: 'targeting_empty' });
  const none = await c.api.put(url, { banner: { targeting: { hours: { state: 'negative', values: [] } } } });
  expect(none.statusCode, none.body).toBe(200);
  // the partner rules name partners that exist (RTB partners for dsp_partners, Prebid partners)
  for (const dimension of ['dsp_partners', 'prebid_partners']) {
    const unknown = await c.api.put(url, {
      banner: { targeting: { [dimension]: { state: 'negative', values: ['424242'] } } },
    });
    expect(unknown.statusCode, dimension).toBe(422);
    expect(unknown.json().errors[0]).toMatchObject({ field: `targeting.${dimension}`, code: 'unknown_ids' });
  }
  const ssp = (await admin.post('/api/rtbpartners', { rtbpartner: { name: 'Targeted SSP' } })).json();
  const known = await c.api.put(url, {
    banner: { targeting: { dsp_partners: { state: 'active', values: [ssp._id] } } },
  });
  expect(known.statusCode, known.body).toBe(200);
});

test("a widget's settings and a site's parser: the fields not sent keep their values", async () => {
  const p = await publisherWithWidget(t, admin, { settings: { columns: 3, rows: 2, font_size: 17 } });
  const widget = await p.api.put(`/api/widgets/${p.widget._id}`, { widget: { settings: { rows: 4 } } });
  expect(widget.statusCode, widget.body).toBe(200);
  expect(widget.json().settings).toMatchObject({ columns: 3, rows: 4, font_size: 17 });

  const site = `/api/sites/${p.site._id}`;
  const rss = 'https://mag.example/feed.xml';
  expect((await p.api.put(site, { site: { parser: { rss_url: rss } } })).statusCode).toBe(200);
  const put = await p.api.put(site, { site: { parser: { title_mask: 'h1' } } });
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json().parser).toMatchObject({ rss_url: rss, title_mask: 'h1' });
});

test("a landing's form: the submit label alone changes, the fields stay", async () => {
  const u = await login(t.app, ADMIN.email, ADMIN.password);
  const api = as(t.app, u.access_token);
  const fields = [{ name: 'email', label: 'E-mail', type: 'email', required: true }];
  const created = await api.post('/api/landings', { landing: { title: 'Merge', form: { fields } } });
  expect(created.statusCode, created.body).toBe(201);
  const url = `/api/landings/${created.json()._id}`;
  const put = await api.put(url, { landing: { form: { submit_label: 'Send' } } });
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json().form).toMatchObject({ fields: [{ name: 'email' }], submit_label: 'Send' });
});
