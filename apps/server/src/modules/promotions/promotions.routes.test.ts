import { afterAll, beforeAll, expect, test } from 'vitest';
import { as, createTestApp, register, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(file: Buffer, filename: string, contentType: string) {
  const boundary = '----adp-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function publisher() {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'S', domain: `promo-${u.user_id}.example`, category: 'shopping' },
    })
  ).json();
  return { ...u, api, site };
}

test('a publisher creates a promotion and its pages, uploads an image, and sees them listed', async () => {
  const p = await publisher();
  const res = await p.api.post('/api/promotions', {
    promotion: {
      title: 'Black Friday',
      site_id: p.site._id,
      url: 'https://shop.example/bf',
      starts_at: '2026-11-27T00:00:00Z',
      ends_at: '2026-11-30T23:59:59Z',
    },
  });
  expect(res.statusCode).toBe(201);
  const promo = res.json();
  expect(promo).toMatchObject({
    title: 'Black Friday',
    status: 'active',
    pages_count: 0,
    starts_at: '2026-11-27T00:00:00.000Z',
  });

  const page = await p.api.post('/api/promotionpages', {
    promotionpage: { title: 'TVs -40%', promotion_id: promo._id, url: 'https://shop.example/tv' },
  });
  expect(page.statusCode).toBe(201);
  expect(page.json()).toMatchObject({ image: null, site_id: p.site._id });

  const upload = await t.app.inject({
    method: 'POST',
    url: `/api/promotionpages/${page.json()._id}/image?type=promotion`,
    headers: { authorization: `Bearer ${p.access_token}`, ...multipart(PNG, 'tv.png', 'image/png').headers },
    payload: multipart(PNG, 'tv.png', 'image/png').payload,
  });
  expect(upload.statusCode).toBe(200);
  const imageUrl: string = upload.json().image;
  expect(imageUrl).toMatch(/^http:\/\/localhost:8080\/uploads\/promotions\/\d+-[0-9a-f]+\.png$/);
  const served = await t.app.inject({ method: 'GET', url: new URL(imageUrl).pathname });
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('image/png');
  expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');

  expect((await p.api.get(`/api/promotions/${promo._id}`)).json().pages_count).toBe(1);
  expect((await p.api.get(`/api/promotionpages?promotion_id=${promo._id}`)).json().total).toBe(1);
  const edited = await p.api.put(`/api/promotionpages/${page.json()._id}`, {
    promotionpage: { title: 'TVs -50%' },
  });
  expect(edited.json()).toMatchObject({ title: 'TVs -50%', url: 'https://shop.example/tv' });

  // deleting the promotion deletes its pages' image files as well
  expect((await p.api.del(`/api/promotions/${promo._id}`)).statusCode).toBe(204);
  expect((await t.app.inject({ method: 'GET', url: new URL(imageUrl).pathname })).statusCode).toBe(404);
});

test("deleting a site deletes its promotions' page images", async () => {
  const p = await publisher();
  const promo = (
    await p.api.post('/api/promotions', {
      promotion: { title: 'Gone', site_id: p.site._id, url: 'https://shop.example/' },
    })
  ).json();
  const page = (
    await p.api.post('/api/promotionpages', {
      promotionpage: { title: 'x', promotion_id: promo._id, url: 'https://shop.example/x' },
    })
  ).json();
  const upload = await t.app.inject({
    method: 'POST',
    url: `/api/promotionpages/${page._id}/image?type=promotion`,
    headers: { authorization: `Bearer ${p.access_token}`, ...multipart(PNG, 'x.png', 'image/png').headers },
    payload: multipart(PNG, 'x.png', 'image/png').payload,
  });
  const path = new URL(upload.json().image as string).pathname;
  expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
  expect((await p.api.del(`/api/sites/${p.site._id}`)).statusCode).toBe(204);
  expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
});

test('uploads are checked by their bytes; dates must be in order; titles are short', async () => {
  const p = await publisher();
  const promo = (
    await p.api.post('/api/promotions', {
      promotion: { title: 'P', site_id: p.site._id, url: 'https://shop.example/' },
    })
  ).json();
  const page = (
    await p.api.post('/api/promotionpages', {
      promotionpage: { title: 'x', promotion_id: promo._id, url: 'https://shop.example/x' },
    })
  ).json();
  const uploadImage = (text: string, name: string, type: string) => {
    const file = multipart(Buffer.from(text), name, type);
    return t.app.inject({
      method: 'POST',
      url: `/api/promotionpages/${page._id}/image?type=promotion`,
      headers: { authorization: `Bearer ${p.access_token}`, ...file.headers },
      payload: file.payload,
    });
  };
  const res = await uploadImage('<script>alert(1)</script>', 'evil.png', 'image/png');
  expect(res.statusCode).toBe(422);
  expect(res.json().errors[0]).toMatchObject({ field: 'file', code: 'image_type' });
  // a GIF's first bytes and a script after them are no image either
  const gif = await uploadImage('GIF89a<script>alert(1)</script>', 'x.gif', 'image/gif');
  expect(gif.statusCode).toBe(422);
  expect(gif.json().errors[0]).toMatchObject({ field: 'file', code: 'image_type' });
  const backwards = await p.api.put(`/api/promotions/${promo._id}`, {
    promotion: { starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' },
  });
  expect(backwards.statusCode).toBe(422);
  expect(backwards.json().errors[0]).toMatchObject({ field: 'ends_at', code: 'ends_before_start' });
  // years the database cannot hold (0) or would read as another (1 → 2001) are a 422, not a 500
  for (const starts_at of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '0099-03-04T00:00:00+01:00']) {
    const res = await p.api.put(`/api/promotions/${promo._id}`, { promotion: { starts_at } });
    expect(res.statusCode, starts_at).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'starts_at', code: 'date' });
  }
  const long = await p.api.post('/api/promotionpages', {
    promotionpage: { title: 'x'.repeat(61), promotion_id: promo._id, url: 'https://a.example' },
  });
  expect(long.statusCode).toBe(422);
});

test('another publisher sees and changes nothing', async () => {
  const a = await publisher();
  const b = await publisher();
  const promo = (
    await a.api.post('/api/promotions', {
      promotion: { title: 'P', site_id: a.site._id, url: 'https://shop.example/' },
    })
  ).json();
  expect((await b.api.get(`/api/promotions/${promo._id}`)).statusCode).toBe(404);
  expect(
    (
      await b.api.post('/api/promotions', {
        promotion: { title: 'P', site_id: a.site._id, url: 'https://x.example/' },
      })
    ).statusCode,
  ).toBe(422);
  expect(
    (
      await b.api.post('/api/promotionpages', {
        promotionpage: { title: 'x', promotion_id: promo._id, url: 'https://x.example/' },
      })
    ).statusCode,
  ).toBe(422);
  expect((await b.api.get('/api/promotions')).json().total).toBe(0);
  expect((await b.api.del(`/api/promotions/${promo._id}`)).statusCode).toBe(404);
  expect((await a.api.del(`/api/promotions/${promo._id}`)).statusCode).toBe(204);
});

test('promotion and page URLs must be http(s): javascript: is a translated 422 on the url field', async () => {
  const p = await publisher();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/promotions',
    headers: { authorization: `Bearer ${p.access_token}`, 'accept-language': 'fr' },
    payload: { promotion: { title: 'XSS', site_id: p.site._id, url: 'javascript:alert(1)' } },
  });
  expect(res.statusCode).toBe(422);
  expect(res.json().errors).toEqual([expect.objectContaining({ field: 'url', code: 'http_url' })]);
  expect(res.json().errors[0].detail).toContain('http:// ou https://');
  const promo = (
    await p.api.post('/api/promotions', {
      promotion: { title: 'Fine', site_id: p.site._id, url: 'https://shop.example/' },
    })
  ).json();
  const page = await p.api.post('/api/promotionpages', {
    promotionpage: {
      title: 'Page',
      promotion_id: promo._id,
      url: 'data:text/html,<script>alert(1)</script>',
    },
  });
  expect(page.statusCode).toBe(422);
  expect(page.json().errors[0]).toMatchObject({ field: 'url', code: 'http_url' });
  const put = await p.api.put(`/api/promotions/${promo._id}`, { promotion: { url: 'vbscript:msgbox(1)' } });
  expect(put.statusCode).toBe(422);
});
