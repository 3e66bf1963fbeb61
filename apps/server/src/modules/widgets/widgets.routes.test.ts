import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../../app.ts';
import { materials } from '../../db/schema/index.ts';
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

async function publisherWithSite() {
  const u = await register(t.app);
  const api = as(t.app, u.access_token);
  const site = (
    await api.post('/api/sites', {
      site: { title: 'Mag', domain: `mag-${u.user_id}.example`, category: 'news' },
    })
  ).json();
  return { ...u, api, site };
}

describe('widgets', () => {
  test('a publisher creates a widget on its site with defaults for every setting', async () => {
    const p = await publisherWithSite();
    const res = await p.api.post('/api/widgets', {
      widget: {
        title: 'Below article',
        site_id: p.site._id,
        settings: { type: 'slide', slider_timer: 5, direction: 'rtl' },
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Below article',
      site_id: p.site._id,
      user_id: p.user_id,
      moderation: 'pending',
      processor: 'default',
      earn_processor: 'percent',
      earn_value: 50,
      settings: {
        type: 'slide',
        slider_timer: 5,
        direction: 'rtl',
        columns: 4,
        text_max_length: null,
        open_in_new_tab: true,
      },
    });
    const list = (await p.api.get(`/api/widgets?site_id=${p.site._id}`)).json();
    expect(list.total).toBe(1);
    // a site id that names no site filters to nothing (0 once dropped the filter and listed every widget)
    for (const siteId of ['0', '00', '999999'])
      expect((await p.api.get(`/api/widgets?site_id=${siteId}`)).json().total, siteId).toBe(0);
  });

  test('bad settings are refused field by field', async () => {
    const p = await publisherWithSite();
    const res = await p.api.post('/api/widgets', {
      widget: {
        title: 'x',
        site_id: p.site._id,
        settings: {
          type: 'carousel',
          columns: 0,
          title_color: 'red',
          blocks: [{ type: 'native', format: 9 }],
        },
      },
    });
    expect(res.statusCode).toBe(422);
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['settings.blocks.0.format', 'settings.columns', 'settings.title_color', 'settings.type']);
  });

  test('widgets of another publisher are invisible; readonly cannot write; admins moderate', async () => {
    const p = await publisherWithSite();
    const other = await publisherWithSite();
    const w = (await p.api.post('/api/widgets', { widget: { title: 'W', site_id: p.site._id } })).json();
    expect((await other.api.get(`/api/widgets/${w._id}`)).statusCode).toBe(404);
    expect((await other.api.put(`/api/widgets/${w._id}`, { widget: { title: 'x' } })).statusCode).toBe(404);
    expect(
      (await other.api.post('/api/widgets', { widget: { title: 'W', site_id: p.site._id } })).statusCode,
    ).toBe(422);
    const ro = await userWithRole(t, 'adminreadonly');
    expect(
      (await as(t.app, ro.access_token).put(`/api/widgets/${w._id}`, { widget: { title: 'x' } })).statusCode,
    ).toBe(403);
    expect((await p.api.post(`/api/widgets/${w._id}/moderate`, { decision: 'approve' })).statusCode).toBe(
      403,
    );
    const approved = await admin.post(`/api/widgets/${w._id}/moderate`, { decision: 'approve' });
    expect(approved.json().moderation).toBe('approved');
    const styled = await p.api.put(`/api/widgets/${w._id}`, {
      widget: { settings: { type: 'default', columns: 3 } },
    });
    expect(styled.json()).toMatchObject({ moderation: 'approved', settings: { columns: 3 } });
    const repriced = await admin.put(`/api/widgets/${w._id}`, {
      widget: { earn_processor: 'fixed', earn_value: 0.05 },
    });
    expect(repriced.json()).toMatchObject({
      moderation: 'approved',
      earn_value: 0.05,
      settings: { columns: 3 },
      title: 'W',
    });
    // a percent above 100 would pay the publisher more than the click costs: refused on the stored terms
    const overpaid = await admin.put(`/api/widgets/${w._id}`, {
      widget: { earn_processor: 'percent', earn_value: 150 },
    });
    expect(overpaid.statusCode).toBe(422);
    expect(overpaid.json().errors).toEqual([
      {
        field: 'earn_value',
        code: 'earn_percent_too_big',
        detail: 'A percent of the revenue can be at most 100',
      },
    ]);
    // 150 is a fixed price per click, not a percent: switching only the processor is refused too
    expect((await admin.put(`/api/widgets/${w._id}`, { widget: { earn_value: 150 } })).statusCode).toBe(200);
    const toPercent = await admin.put(`/api/widgets/${w._id}`, { widget: { earn_processor: 'percent' } });
    expect(toPercent.json().errors[0]).toMatchObject({ field: 'earn_value', code: 'earn_percent_too_big' });
    expect(
      (
        await admin.post('/api/widgets', {
          widget: { title: 'Over', site_id: w.site_id, earn_processor: 'percent', earn_value: 100.5 },
        })
      ).statusCode,
    ).toBe(422);
    await admin.put(`/api/widgets/${w._id}`, { widget: { earn_value: 0.05 } });
    // the dashboard's form sends every field back: unchanged values keep the approval
    const { processor, earn_processor, earn_value } = repriced.json();
    const resaved = await p.api.put(`/api/widgets/${w._id}`, {
      widget: { title: 'W2', processor, earn_processor, earn_value },
    });
    expect(resaved.json()).toMatchObject({ moderation: 'approved', title: 'W2' });
    const reprocessed = await p.api.put(`/api/widgets/${w._id}`, {
      widget: { processor: 'bannerrandom', earn_processor, earn_value },
    });
    expect(reprocessed.json()).toMatchObject({ moderation: 'pending', processor: 'bannerrandom' });
    expect((await p.api.del(`/api/widgets/${w._id}`)).statusCode).toBe(204);
  });

  test('the preview renders unsaved settings with the site materials, or samples without them', async () => {
    const p = await publisherWithSite();
    const empty = await p.api.post('/api/widgets/preview', {
      widget: { settings: { type: 'default', columns: 2 }, site_id: p.site._id },
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().settings.columns).toBe(2);
    expect(empty.json().items[0].image).toBe('http://localhost:8080/serve/sample/1.svg');
    expect(empty.json().items[1].title).toBe('Sample headline number 2 for your widget preview');
    // the placeholders speak the reader's language
    const german = await t.app.inject({
      method: 'POST',
      url: '/api/widgets/preview',
      payload: { widget: { settings: {}, site_id: p.site._id } },
      headers: { authorization: `Bearer ${p.access_token}`, 'accept-language': 'de' },
    });
    expect(german.json().items[0]).toMatchObject({
      title: 'Beispielüberschrift Nummer 1 für Ihre Widget-Vorschau',
      text: expect.stringContaining('Widget-Einstellungen'),
    });
    await t.database.db.insert(materials).values({
      siteId: Number(p.site._id),
      url: 'https://mag.example/a',
      title: 'Real article',
      image: 'https://mag.example/a.jpg',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const real = (
      await p.api.post('/api/widgets/preview', { widget: { settings: {}, site_id: p.site._id } })
    ).json();
    expect(real.items).toEqual([
      expect.objectContaining({ title: 'Real article', url: 'https://mag.example/a', sponsored: false }),
    ]);
    const v2 = await p.api.post('/api/widgets/preview/v2', {
      widget: { settings: { type: 'builder', blocks: [{ type: '3_2_1', format: 0 }] }, title: 'Mine' },
    });
    expect(v2.headers['content-type']).toContain('text/html');
    expect(v2.body).toContain('<script src="/widget.js"></script>');
    expect(v2.body).toContain('"type":"3_2_1"');
    // the page has the caller's language, which the embed script's sponsored label follows
    expect(v2.body).toContain('<html lang="en">');
    const ru = await t.app.inject({
      method: 'POST',
      url: '/api/widgets/preview/v2',
      headers: {
        authorization: `Bearer ${p.access_token}`,
        'accept-language': 'ru-RU,ru;q=0.9',
      },
      payload: { widget: { settings: {} } },
    });
    expect(ru.body).toContain('<html lang="ru">');
    const other = await publisherWithSite();
    expect(
      (await other.api.post('/api/widgets/preview', { widget: { settings: {}, site_id: p.site._id } }))
        .statusCode,
    ).toBe(422);
  });
});

describe('delivery', () => {
  test('an approved, active widget serves its settings and items to any origin; others do not serve', async () => {
    const p = await publisherWithSite();
    await t.database.db.insert(materials).values(
      Array.from({ length: 6 }, (_, i) => ({
        siteId: Number(p.site._id),
        url: `https://mag.example/${i}`,
        title: `Article ${i}`,
        image: `https://mag.example/${i}.jpg`,
        publishedAt: new Date(Date.UTC(2026, 10, 1 + i)),
        expiresAt: new Date(Date.now() + 86_400_000),
      })),
    );
    const w = (
      await p.api.post('/api/widgets', {
        widget: { title: 'W', site_id: p.site._id, settings: { columns: 2, rows: 2, type: 'infinite' } },
      })
    ).json();
    expect((await t.app.inject({ method: 'GET', url: `/serve/widgets/${w._id}` })).statusCode).toBe(404);
    await admin.post(`/api/widgets/${w._id}/moderate`, { decision: 'approve' });
    // delivery's index follows the change notice within a moment; rebuild now rather than wait
    await contextOf(t.app).delivery.index.rebuild();
    const served = await t.app.inject({
      method: 'GET',
      url: `/serve/widgets/${w._id}`,
      headers: { origin: 'https://publisher.example' },
    });
    expect(served.statusCode).toBe(200);
    // the page's origin with credentials, so the visitor cookie travels
    expect(served.headers['access-control-allow-origin']).toBe('https://publisher.example');
    expect(served.headers['access-control-allow-credentials']).toBe('true');
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const body = served.json();
    expect(body.widget).toMatchObject({ _id: w._id, settings: { columns: 2, rows: 2, type: 'infinite' } });
    expect(body.items.map((i: { title: string }) => i.title)).toEqual([
      'Article 5',
      'Article 4',
      'Article 3',
      'Article 2',
    ]);
    const more = (await t.app.inject({ method: 'GET', url: `/serve/widgets/${w._id}/more?offset=4` })).json();
    expect(more.items.map((i: { title: string }) => i.title)).toEqual(['Article 1', 'Article 0']);
    expect((await t.app.inject({ method: 'GET', url: '/serve/widgets/999999' })).statusCode).toBe(404);
  });

  test('the embed script and sample pictures are served publicly', async () => {
    // the server serves the built script; build it when this checkout has not yet
    const dist = new URL('../../../../../packages/widget/dist/widget.js', import.meta.url);
    if (!existsSync(dist))
      execFileSync(process.execPath, ['build.mjs'], {
        cwd: new URL('../../../../../packages/widget/', import.meta.url),
      });
    const js = await t.app.inject({ method: 'GET', url: '/widget.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.body).toContain('AdpWidget');
    const svg = await t.app.inject({ method: 'GET', url: '/serve/sample/3.svg' });
    expect(svg.headers['content-type']).toContain('image/svg+xml');
  });
});
