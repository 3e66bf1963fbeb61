import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

function upload(token: string, url: string, file: Buffer, filename: string, contentType: string) {
  const boundary = 'b4nn3r';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
}

let n = 0;
async function advertiserWithCampaign() {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const campaign = (
    await api.post('/api/campaigns', {
      campaign: { title: `Creative test ${++n} ${u.user_id}`, clickprice: 0.1 },
    })
  ).json();
  return { ...u, api, campaign };
}

describe('creatives', () => {
  test('a creative URL and campaign tracking URLs must be http(s); javascript: is a 422 on the field', async () => {
    const a = await advertiserWithCampaign();
    const res = await a.api.post('/api/banners', {
      banner: { campaign_id: a.campaign._id, title: 'Boots', url: 'javascript:alert(1)' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'url', code: 'http_url' })]);
    const track = await a.api.put(`/api/campaigns/${a.campaign._id}`, {
      campaign: { track_urls: ['https://track.example/p', 'file:///etc/passwd'] },
    });
    expect(track.statusCode).toBe(422);
    expect(track.json().errors[0]).toMatchObject({ field: 'track_urls.1', code: 'http_url' });
  });

  test('a creative with country + device targeting; title at most 60 characters', async () => {
    const a = await advertiserWithCampaign();
    const res = await a.api.post('/api/banners', {
      banner: {
        campaign_id: a.campaign._id,
        title: 'Warm boots for cold days',
        text: 'Free delivery this week',
        url: 'https://shop.example/boots?utm_source=adp',
        targeting: {
          countries: { state: 'active', values: ['DE', 'AT'] },
          devices: { state: 'negative', values: ['tv'] },
        },
      },
    });
    expect(res.statusCode).toBe(201);
    const b = res.json();
    expect(b).toMatchObject({
      title: 'Warm boots for cold days',
      moderation: 'pending',
      images: null,
      targeting: {
        countries: { state: 'active', values: ['DE', 'AT'] },
        devices: { state: 'negative', values: ['tv'] },
        os: { state: 'inactive', values: [] },
      },
    });
    const long = await a.api.post('/api/banners', {
      banner: {
        campaign_id: a.campaign._id,
        title: 'x'.repeat(61),
        text: 'y'.repeat(61),
        url: 'https://a.example',
      },
    });
    expect(
      long
        .json()
        .errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`)
        .sort(),
    ).toEqual(['text:too_long', 'title:too_long']);
    const badTargeting = await a.api.post('/api/banners', {
      banner: {
        campaign_id: a.campaign._id,
        title: 'T',
        url: 'https://a.example',
        targeting: {
          countries: { state: 'maybe', values: ['Germany'] },
          ips: { state: 'active', values: ['1.2.3.4/99'] },
        },
      },
    });
    expect(
      badTargeting
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['targeting.countries.state', 'targeting.countries.values.0', 'targeting.ips.values.0']);
    // dates that could never match: an end before the start, a range whose last day comes first
    const backwards = await a.api.post('/api/banners', {
      banner: {
        campaign_id: a.campaign._id,
        title: 'Backwards',
        url: 'https://a.example',
        targeting: {
          start_date: '2026-12-10',
          end_date: '2026-12-01',
          dates: { state: 'active', values: [{ from: '2026-12-24', to: '2026-12-20' }] },
        },
      },
    });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors).toEqual([
      {
        field: 'targeting.dates.values.0.to',
        code: 'after',
        detail: expect.stringContaining('must be after 2026-12-23'),
      },
      {
        field: 'targeting.end_date',
        code: 'after',
        detail: expect.stringContaining('must be after 2026-12-09'),
      },
    ]);
    // one day (start = end) is a range
    const oneDay = await a.api.post('/api/banners', {
      banner: {
        campaign_id: a.campaign._id,
        title: 'One day',
        url: 'https://a.example',
        targeting: { start_date: '2026-12-10', end_date: '2026-12-10' },
      },
    });
    expect(oneDay.statusCode).toBe(201);
    await a.api.del(`/api/banners/${oneDay.json()._id}`);
    expect((await a.api.get(`/api/banners?campaign_id=${a.campaign._id}`)).json().total).toBe(1);
    expect((await a.api.get(`/api/campaigns/${a.campaign._id}`)).json().banners_count).toBe(1);
  });

  test('an uploaded image is checked by its bytes and size, and resized to every widget format', async () => {
    const a = await advertiserWithCampaign();
    const b = (
      await a.api.post('/api/banners', {
        banner: { campaign_id: a.campaign._id, title: 'Img', url: 'https://a.example' },
      })
    ).json();
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const res = await upload(
      a.access_token,
      `/api/banners/${b._id}?type=edit&kind=image`,
      photo,
      'photo.png',
      'image/png',
    );
    expect(res.statusCode).toBe(200);
    const images = res.json().images;
    expect(Object.keys(images).sort()).toEqual(['landscape', 'square', 'thumb', 'wide']);
    const wide = await t.app.inject({ method: 'GET', url: new URL(images.wide).pathname });
    expect(wide.headers['content-type']).toBe('image/webp');
    expect(await sharp(wide.rawPayload).metadata()).toMatchObject({
      width: 1200,
      height: 628,
      format: 'webp',
    });

    const tiny = await sharp({ create: { width: 100, height: 80, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const small = await upload(
      a.access_token,
      `/api/banners/${b._id}?type=edit&kind=image`,
      tiny,
      't.png',
      'image/png',
    );
    expect(small.statusCode).toBe(422);
    expect(small.json().errors[0]).toMatchObject({
      field: 'file',
      code: 'image_too_small',
      detail: 'The image must be at least 300×200 pixels',
    });
    const html = await upload(
      a.access_token,
      `/api/banners/${b._id}?type=edit&kind=image`,
      Buffer.from('<html>hi</html>'),
      'x.jpg',
      'image/jpeg',
    );
    expect(html.json().errors[0]).toMatchObject({ field: 'file', code: 'invalid_file' });
  });

  test('a video must really be MP4 or WebM', async () => {
    const a = await advertiserWithCampaign();
    const b = (
      await a.api.post('/api/banners', {
        banner: { campaign_id: a.campaign._id, title: 'Vid', url: 'https://a.example' },
      })
    ).json();
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64)]);
    const ok = await upload(
      a.access_token,
      `/api/banners/${b._id}?type=edit&kind=video`,
      mp4,
      'v.mp4',
      'video/mp4',
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().video).toMatch(/\/uploads\/banners\/.+\.mp4$/);
    const fake = await upload(
      a.access_token,
      `/api/banners/${b._id}?type=edit&kind=video`,
      Buffer.from('not a video at all'),
      'v.mp4',
      'video/mp4',
    );
    expect(fake.statusCode).toBe(422);
    // the video goes again: only its owner (or an admin) takes it away; its image would stay
    const other = await advertiserWithCampaign();
    expect((await other.api.del(`/api/banners/${b._id}/video`)).statusCode).toBe(404);
    const removed = await a.api.del(`/api/banners/${b._id}/video`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ video: null, title: 'Vid' });
    expect((await a.api.get(`/api/banners/${b._id}`)).json().video).toBeNull();
    expect((await a.api.del(`/api/banners/${b._id}/video`)).statusCode).toBe(200);
  });

  test('copy, IP import into targeting, ownership and moderation', async () => {
    const a = await advertiserWithCampaign();
    const b = (
      await a.api.post('/api/banners', {
        banner: { campaign_id: a.campaign._id, title: 'Original', url: 'https://a.example' },
      })
    ).json();
    const copy = await a.api.post(`/api/banners/copy/${b._id}`);
    expect(copy.statusCode).toBe(201);
    expect(copy.json()).toMatchObject({ title: 'Original (copy)', campaign_id: a.campaign._id });
    const csv = 'ip\n203.0.113.0/24\nbogus\n2001:db8::1\n';
    const imported = await upload(
      a.access_token,
      `/api/banners/${b._id}/import-ips`,
      Buffer.from(csv),
      'ips.csv',
      'text/csv',
    );
    expect(imported.json()).toEqual({ imported: 2, total: 2, errors: [{ line: 3, value: 'bogus' }] });
    expect((await a.api.get(`/api/banners/${b._id}`)).json().targeting.ips).toEqual({
      state: 'active',
      values: ['203.0.113.0/24', '2001:db8::1'],
    });

    const other = await advertiserWithCampaign();
    expect((await other.api.get(`/api/banners/${b._id}`)).statusCode).toBe(404);
    expect(
      (
        await other.api.post('/api/banners', {
          banner: { campaign_id: a.campaign._id, title: 'x', url: 'https://a.example' },
        })
      ).statusCode,
    ).toBe(422);
    expect((await a.api.post(`/api/banners/${b._id}/moderate`, { decision: 'approve' })).statusCode).toBe(
      403,
    );
    expect(
      (await admin.post(`/api/banners/${b._id}/moderate`, { decision: 'approve' })).json().moderation,
    ).toBe('approved');
    const retargeted = await a.api.put(`/api/banners/${b._id}`, {
      banner: { targeting: { weekdays: { state: 'active', values: [1, 2, 3] } } },
    });
    expect(retargeted.json()).toMatchObject({ moderation: 'approved', title: 'Original' });
    // a dimension sent without its state keeps the stored one (and the capping its other fields)
    const listOnly = await a.api.put(`/api/banners/${b._id}`, {
      banner: { targeting: { weekdays: { values: [6, 7] }, capping: { state: 'active', impressions: 3 } } },
    });
    expect(listOnly.statusCode).toBe(200);
    const cappedMore = await a.api.put(`/api/banners/${b._id}`, {
      banner: { targeting: { capping: { impressions: 5 } } },
    });
    expect(cappedMore.json().targeting).toMatchObject({
      weekdays: { state: 'active', values: [6, 7] },
      capping: { state: 'active', impressions: 5, period_hours: 24 },
    });
    const unknownField = await a.api.put(`/api/banners/${b._id}`, {
      banner: { targeting: { weekdays: { sate: 'inactive' } } },
    });
    expect(unknownField.statusCode).toBe(422);
    const retitled = await a.api.put(`/api/banners/${b._id}`, { banner: { title: 'Changed' } });
    expect(retitled.json().moderation).toBe('pending');
    expect((await a.api.del(`/api/banners/${b._id}`)).statusCode).toBe(204);
  });
});
