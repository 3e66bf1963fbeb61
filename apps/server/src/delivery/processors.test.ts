import { fromMicros } from '@adp/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { banners, campaigns, materials, promotionPages, promotions } from '../db/schema/index.ts';
import { insertRollups } from '../test/rollups.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { publisherWithWidget, runningCampaign, settle } from './delivery-fixtures.test-helper.ts';
import { FeedServer } from './feeds/feed-server.test-helper.ts';

/**
 * One test per widget processor (SPEC.md section 3), each through the serving endpoint as a visitor's
 * browser calls it, showing what that processor does that the others do not.
 */

let t: TestApp;
let admin: ReturnType<typeof as>;
const feed = new FeedServer();
const chrome = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'en-US,en;q=0.9',
};

beforeAll(async () => {
  await feed.start();
  t = await createTestApp({ OUTBOUND_ALLOW_LOOPBACK: '1' });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(async () => {
  await t.close();
  await feed.stop();
});

interface Item {
  id: string;
  title: string;
  url: string;
  sponsored: boolean;
  html?: string;
  video?: string;
  brand?: string;
}
interface Answer {
  items: Item[];
  impression_url: string | null;
}

const path = (url: string) => url.replace('http://localhost:8080', '');
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: path(url), headers: { ...chrome, ...headers } });
const serve = async (widgetId: string, query = '', headers: Record<string, string> = {}) => {
  const res = await get(`/serve/widgets/${widgetId}${query}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Answer;
};
const titles = (a: Answer) => a.items.map((i) => i.title);
const sponsored = (a: Answer) => a.items.filter((i) => i.sponsored);

const HOUR = 3_600_000;
/** Parsed articles of a site, as the content parser leaves them. */
async function addMaterials(
  siteId: string,
  rows: { url: string; title: string; text?: string; language?: string; hoursAgo?: number }[],
) {
  await t.database.db.insert(materials).values(
    rows.map((r, i) => ({
      siteId: Number(siteId),
      url: r.url,
      title: r.title,
      description: r.text ?? '',
      image: `https://img.example/${i}.jpg`,
      language: r.language ?? null,
      publishedAt: new Date(Date.now() - (r.hoursAgo ?? i + 1) * HOUR),
      expiresAt: new Date(Date.now() + 30 * 24 * HOUR),
    })),
  );
}

/** A widget of one size with a processor, on a new publisher's site. */
const widgetWith = (processor: string, columns = 2, rows = 1) =>
  publisherWithWidget(t, admin, { processor, settings: { columns, rows } });

describe('widget processors', () => {
  // first: the exchange pool is every serving site's materials, cached for a minute
  test("exchange processors show other sites' articles: any site, same category, same owner", async () => {
    const any = await widgetWith('exchangerandom', 4, 2);
    const group = await publisherWithWidget(t, admin, {
      processor: 'exchangesitesgrouprandom',
      settings: { columns: 4, rows: 2 },
    });
    // a second site of the first publisher, in another category, with an exchangeownerrss widget
    const sports = (
      await any.api.post('/api/sites', {
        site: { title: 'Sports', domain: `sport-${any.user_id}.example`, category: 'sports' },
      })
    ).json();
    await admin.post(`/api/sites/${sports._id}/moderate`, { decision: 'approve' });
    const owner = (
      await any.api.post('/api/widgets', {
        widget: {
          title: 'Owner',
          site_id: sports._id,
          processor: 'exchangeownerrss',
          settings: { columns: 4, rows: 2 },
        },
      })
    ).json();
    await admin.post(`/api/widgets/${owner._id}/moderate`, { decision: 'approve' });
    await addMaterials(any.site._id, [{ url: 'https://a.example/1', title: 'News of site A' }]);
    await addMaterials(group.site._id, [{ url: 'https://b.example/1', title: 'News of site B' }]);
    await addMaterials(sports._id, [{ url: 'https://c.example/1', title: 'Sports of site C' }]);
    await settle(t);

    const a = await serve(any.widget._id);
    expect(titles(a)).toContain('News of site B');
    expect(titles(a)).toContain('Sports of site C');
    expect(titles(a)).not.toContain('News of site A');
    expect(a.items.find((i) => i.title === 'News of site B')).toMatchObject({
      url: 'https://b.example/1',
      sponsored: false,
    });
    // same category (news) as site B: site A's news, not the sports site
    const g = await serve(group.widget._id);
    expect(titles(g)).toContain('News of site A');
    expect(titles(g)).not.toContain('Sports of site C');
    expect(titles(g)).not.toContain('News of site B');
    // the sports site's owner also owns site A: only that
    expect(titles(await serve(owner._id))).toEqual(['News of site A']);
  });

  test('default mixes sponsored creatives and the site materials; bannerrandom shows only creatives', async () => {
    const p = await widgetWith('default', 3);
    const b = await widgetWith('bannerrandom', 3);
    for (const s of [p, b])
      await addMaterials(s.site._id, [{ url: `https://${s.site.domain}/a`, title: 'Our own article' }]);
    await runningCampaign(t, admin, { campaign: { widgets: [p.widget._id, b.widget._id] } });
    await settle(t);
    const mixed = await serve(p.widget._id);
    expect(mixed.items.map((i) => [i.title, i.sponsored])).toEqual([
      ['Great shoes', true],
      ['Our own article', false],
    ]);
    const only = await serve(b.widget._id);
    expect(only.items.map((i) => [i.title, i.sponsored])).toEqual([['Great shoes', true]]);
  });

  test('social, news, marketplace and postback campaigns serve as native cards; external ones do not', async () => {
    const p = await widgetWith('bannerrandom', 5);
    for (const adstype of ['social', 'news', 'marketplace', 'postback'])
      await runningCampaign(t, admin, {
        campaign: { site_id: p.site._id, adstype },
        banner: { title: adstype },
      });
    await runningCampaign(t, admin, {
      campaign: {
        site_id: p.site._id,
        adstype: 'external',
        cpc_feed_processor: 'mgid',
        src_code: JSON.stringify({ widget_id: '1', token: 'tok', endpoint: feed.json('/none/', 200, []) }),
      },
      banner: { title: 'external' },
    });
    await settle(t);
    const a = await serve(p.widget._id);
    expect(a.items.map((i) => [i.title, i.sponsored, i.html]).sort()).toEqual([
      ['marketplace', true, undefined],
      ['news', true, undefined],
      ['postback', true, undefined],
      ['social', true, undefined],
    ]);
  });

  test('bannerrandom picks by campaign weight', async () => {
    const p = await widgetWith('bannerrandom', 1);
    await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id, weight: 1 },
      banner: { title: 'Light' },
    });
    await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id, weight: 1000 },
      banner: { title: 'Heavy' },
    });
    await settle(t);
    const seen: string[] = [];
    for (let i = 0; i < 30; i++) seen.push(...titles(await serve(p.widget._id)));
    // 1 in 1001 per answer: the light one may show once in a while, never as often as the heavy one
    expect(seen.filter((x) => x === 'Heavy').length).toBeGreaterThanOrEqual(25);
  });

  test('topctr shows the creative with the best observed CTR first', async () => {
    const p = await widgetWith('topctr', 2);
    const low = await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id },
      banner: { title: 'Low CTR' },
    });
    const high = await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id },
      banner: { title: 'High CTR' },
    });
    const row = (c: typeof low, clicks: number) => ({
      hour: new Date(Math.floor(Date.now() / HOUR) * HOUR - HOUR),
      campaignId: Number(c.campaign._id),
      bannerId: Number(c.banner._id),
      siteId: Number(p.site._id),
      widgetId: Number(p.widget._id),
      country: '',
      device: '',
      os: '',
      browser: '',
      impressions: 2000,
      clicks,
    });
    await insertRollups(t.database.db, [row(low, 4), row(high, 120)]);
    await settle(t);
    for (let i = 0; i < 5; i++) expect(titles(await serve(p.widget._id))).toEqual(['High CTR', 'Low CTR']);
  });

  test('articlerelevant ranks the creative closest to the article being read first', async () => {
    const p = await widgetWith('articlerelevant', 1);
    const page = `https://${p.site.domain}/reviews/running-shoes`;
    await addMaterials(p.site._id, [
      {
        url: page,
        title: 'The best running shoes for winter',
        text: 'We tested twelve running shoes on snow.',
      },
    ]);
    await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id, weight: 1000 },
      banner: { title: 'Fresh coffee beans', text: 'Roasted this morning' },
    });
    await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id, weight: 1 },
      banner: { title: 'Running shoes sale', text: 'Winter running shoes, half price' },
    });
    await settle(t);
    // the page comes as ?url= or as the Referer
    for (let i = 0; i < 5; i++)
      expect(titles(await serve(p.widget._id, `?url=${encodeURIComponent(page)}`))).toEqual([
        'Running shoes sale',
      ]);
    expect(titles(await serve(p.widget._id, '', { referer: `${page}#comments` }))).toEqual([
      'Running shoes sale',
    ]);
    // an unknown page: weighted random, where the heavy coffee campaign nearly always wins
    const unknown: string[] = [];
    for (let i = 0; i < 10; i++)
      unknown.push(...titles(await serve(p.widget._id, '?url=https://elsewhere.example/')));
    expect(unknown.filter((x) => x === 'Fresh coffee beans').length).toBeGreaterThanOrEqual(8);
  });

  test("articlelanguage puts the site's materials in the visitor's language first", async () => {
    const p = await widgetWith('articlelanguage', 2, 2);
    await addMaterials(p.site._id, [
      { url: 'https://m.example/1', title: 'English one', language: 'en', hoursAgo: 1 },
      { url: 'https://m.example/2', title: 'Deutsch eins', language: 'de', hoursAgo: 2 },
      { url: 'https://m.example/3', title: 'English two', language: 'en', hoursAgo: 3 },
      { url: 'https://m.example/4', title: 'Deutsch zwei', language: 'de-AT', hoursAgo: 4 },
    ]);
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    await settle(t);
    const de = await serve(p.widget._id, '', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(titles(de)).toEqual(['Deutsch eins', 'Deutsch zwei', 'English one', 'English two']);
    expect(sponsored(de)).toEqual([]);
    const en = await serve(p.widget._id, '', { 'accept-language': 'en' });
    expect(titles(en)).toEqual(['English one', 'English two', 'Deutsch eins', 'Deutsch zwei']);
  });

  test('articlerecommend shows the most similar other articles of the site, never the page itself', async () => {
    const p = await widgetWith('articlerecommend', 2);
    const page = `https://${p.site.domain}/espresso-at-home`;
    await addMaterials(p.site._id, [
      { url: page, title: 'Espresso at home', text: 'Grinding coffee beans for espresso', hoursAgo: 1 },
      { url: `https://${p.site.domain}/election`, title: 'Election results tonight', hoursAgo: 2 },
      {
        url: `https://${p.site.domain}/grinders`,
        title: 'Coffee grinders compared',
        text: 'Burr grinders for espresso',
        hoursAgo: 5,
      },
      { url: `https://${p.site.domain}/football`, title: 'Football scores', hoursAgo: 3 },
    ]);
    await settle(t);
    const a = await serve(p.widget._id, `?url=${encodeURIComponent(page)}`);
    expect(titles(a)[0]).toBe('Coffee grinders compared');
    expect(titles(a)).not.toContain('Espresso at home');
  });

  test('articlerandom and rssrandom show the site materials in random order, no ads', async () => {
    for (const processor of ['articlerandom', 'rssrandom']) {
      const p = await widgetWith(processor, 3, 2);
      const names = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];
      await addMaterials(
        p.site._id,
        names.map((n) => ({ url: `https://${p.site.domain}/${n}`, title: n })),
      );
      await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
      await settle(t);
      const orders = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const a = await serve(p.widget._id);
        expect([...titles(a)].sort()).toEqual([...names].sort());
        expect(sponsored(a)).toEqual([]);
        orders.add(titles(a).join());
      }
      expect(orders.size).toBeGreaterThan(1);
    }
  });

  test('newsrandom shows the materials of the last day, newest first, after at most two sponsored news', async () => {
    const p = await widgetWith('newsrandom', 3);
    await addMaterials(p.site._id, [
      { url: 'https://n.example/old', title: 'Three days old', hoursAgo: 72 },
      { url: 'https://n.example/morning', title: 'This morning', hoursAgo: 5 },
      { url: 'https://n.example/now', title: 'Just now', hoursAgo: 0.1 },
    ]);
    await settle(t);
    expect(titles(await serve(p.widget._id))).toEqual(['Just now', 'This morning']);
    // news campaigns (at most two of them) come first; a native campaign is not news
    for (const title of ['Sponsored news 1', 'Sponsored news 2', 'Sponsored news 3'])
      await runningCampaign(t, admin, {
        campaign: { site_id: p.site._id, adstype: 'news' },
        banner: { title },
      });
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id }, banner: { title: 'Native' } });
    await settle(t);
    const a = await serve(p.widget._id);
    expect(sponsored(a)).toHaveLength(2);
    expect(sponsored(a).every((i) => i.title.startsWith('Sponsored news'))).toBe(true);
    expect(titles(a).slice(2)).toEqual(['Just now']);
  });

  test("promotionpagerandom shows the site's active promotion pages", async () => {
    const p = await widgetWith('promotionpagerandom', 3);
    const [running, ended] = await t.database.db
      .insert(promotions)
      .values([
        { siteId: Number(p.site._id), userId: Number(p.user_id), title: 'Spring', url: 'https://p.example/' },
        {
          siteId: Number(p.site._id),
          userId: Number(p.user_id),
          title: 'Last year',
          url: 'https://p.example/',
          endsAt: new Date(Date.now() - 24 * HOUR),
        },
      ])
      .returning();
    const page = (promotionId: number, title: string, status = 'active') => ({
      promotionId,
      userId: Number(p.user_id),
      title,
      url: `https://p.example/${title.replace(/ /g, '-')}`,
      status,
      image: 'promo/1.jpg',
    });
    await t.database.db
      .insert(promotionPages)
      .values([
        page(running!.id, 'Spring offer'),
        page(running!.id, 'Paused offer', 'inactive'),
        page(ended!.id, 'Old offer'),
      ]);
    await settle(t);
    const a = await serve(p.widget._id);
    expect(a.items).toEqual([
      expect.objectContaining({
        title: 'Spring offer',
        url: 'https://p.example/Spring-offer',
        image: 'http://localhost:8080/uploads/promo/1.jpg',
        sponsored: false,
      }),
    ]);
  });

  // the titles, markup and feed items beyond ASCII: answers are written as UTF-8 bytes (byteString)
  test('videobannerrandom shows video creatives with their video', async () => {
    const p = await widgetWith('videobannerrandom', 2);
    const v = await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id, adstype: 'video' },
      banner: { title: 'Дивіться це ▶' },
    });
    await t.database.db
      .update(banners)
      .set({ video: 'videos/clip.mp4' })
      .where(eq(banners.id, Number(v.banner._id)));
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id }, banner: { title: 'Native ad' } });
    await settle(t);
    const a = await serve(p.widget._id);
    expect(a.items).toEqual([
      expect.objectContaining({
        title: 'Дивіться це ▶',
        video: 'http://localhost:8080/uploads/videos/clip.mp4',
        sponsored: true,
      }),
    ]);
  });

  test('criteo and adsensebannerrandom answer the campaign markup; with none they degrade to default', async () => {
    const c = await widgetWith('criteo', 2);
    const g = await widgetWith('adsensebannerrandom', 2);
    const markup =
      '<div id="criteo-zone" title="Реклама · ★"><script src="https://static.criteo.net/js/ld/publishertag.js"></script></div>';
    await runningCampaign(t, admin, {
      campaign: { site_id: c.site._id, adstype: 'criteo', src_code: markup },
      banner: { title: 'Criteo zone' },
    });
    await runningCampaign(t, admin, {
      campaign: { site_id: g.site._id },
      banner: { title: 'Native fallback' },
    });
    await settle(t);
    const a = await serve(c.widget._id);
    expect(a.items).toEqual([
      expect.objectContaining({ title: 'Criteo zone', html: markup, sponsored: true }),
    ]);
    expect(a.impression_url).toMatch(/\/serve\/i\//);
    // no adsense campaign for this site: the default plan serves rather than an empty or failed answer
    const b = await serve(g.widget._id);
    expect(b.items.map((i) => [i.title, i.html])).toEqual([['Native fallback', undefined]]);
    // a criteo widget set to native shows the criteo campaign's creative as a card, not its markup
    const put = await c.api.put(`/api/widgets/${c.widget._id}`, { widget: { criteo_type: 'native' } });
    expect(put.statusCode, put.body).toBe(200);
    await admin.post(`/api/widgets/${c.widget._id}/moderate`, { decision: 'approve' });
    await settle(t);
    const n = await serve(c.widget._id);
    expect(n.items.map((i) => [i.title, i.html, i.sponsored])).toEqual([['Criteo zone', undefined, true]]);
    // native or not, a criteo widget without a criteo campaign serves the default plan
    const none = await publisherWithWidget(t, admin, {
      processor: 'criteo',
      criteo_type: 'native',
      settings: { columns: 1, rows: 1 },
    });
    await runningCampaign(t, admin, {
      campaign: { site_id: none.site._id },
      banner: { title: 'Plain native' },
    });
    await settle(t);
    expect(titles(await serve(none.widget._id))).toEqual(['Plain native']);
  });

  test("a widget's marketplace URL travels with its settings, where the embed script links its logo", async () => {
    const p = await publisherWithWidget(t, admin, { marketplace_url: 'https://market.example/offers' });
    const plain = await widgetWith('default');
    await settle(t);
    const res = await get(`/serve/widgets/${p.widget._id}`);
    expect(res.json().widget.settings.marketplace_url).toBe('https://market.example/offers');
    expect((await get(`/serve/widgets/${plain.widget._id}`)).json().widget.settings).not.toHaveProperty(
      'marketplace_url',
    );
  });

  test('cpcfeedapi shows the items of the campaign feed, charges its click price, and degrades to default on timeout', async () => {
    const p = await widgetWith('cpcfeedapi', 2);
    const endpoint = feed.json('/mgid/', 200, [
      {
        id: 1,
        title: 'Feed ad one — ünï 👟',
        description: 'From the feed',
        url: 'https://clck.feed.example/1',
        image: 'https://img.feed.example/1.jpg',
        domain: 'feed-shop.example',
      },
      {
        id: 2,
        title: 'Feed ad two',
        description: 'Also from the feed',
        url: 'https://clck.feed.example/2',
        image: 'https://img.feed.example/2.jpg',
      },
    ]);
    const fc = await runningCampaign(t, admin, {
      campaign: {
        site_id: p.site._id,
        adstype: 'cpcfeed',
        cpc_feed_processor: 'mgid',
        clickprice: 0.3,
        src_code: JSON.stringify({ widget_id: '282540', token: 'tok', endpoint }),
      },
      banner: { title: 'Feed placeholder' },
    });
    await runningCampaign(t, admin, {
      campaign: { site_id: p.site._id },
      banner: { title: 'Native fallback' },
    });
    await settle(t);

    const a = await serve(p.widget._id, `?url=${encodeURIComponent('https://mag.example/story')}`);
    expect(a.items.map((i) => [i.title, i.sponsored])).toEqual([
      ['Feed ad one — ünï 👟', true],
      ['Feed ad two', true],
    ]);
    const call = feed.lastCall('/mgid/');
    expect(call?.query).toMatchObject({
      count: '2',
      lu: 'https://mag.example/story',
      ua: chrome['user-agent'],
    });
    // a click goes through our click URL to the feed's own, and charges the campaign its click price
    expect((await get(a.impression_url!)).statusCode).toBe(204);
    const click = await get(a.items[0]!.url);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://clck.feed.example/1');
    const [row] = await t.database.db
      .select({ balance: campaigns.balance })
      .from(campaigns)
      .where(eq(campaigns.id, Number(fc.campaign._id)));
    expect(fromMicros(row!.balance)).toBe(99.7);

    // the feed stops answering: the widget still answers in time, with the default plan
    feed.silent('/mgid/');
    const b = await serve(p.widget._id);
    expect(titles(b)).toEqual(['Native fallback']);
    // externalapi is the same processor under its other name
    const x = await publisherWithWidget(t, admin, {
      processor: 'externalapi',
      settings: { columns: 1, rows: 1 },
    });
    await t.database.db
      .update(campaigns)
      .set({ siteId: Number(x.site._id) })
      .where(eq(campaigns.id, Number(fc.campaign._id)));
    feed.json('/mgid/', 200, [
      {
        id: 3,
        title: 'External',
        url: 'https://clck.feed.example/3',
        image: 'https://img.feed.example/3.jpg',
      },
    ]);
    await settle(t);
    expect(titles(await serve(x.widget._id))).toEqual(['External']);

    // an external campaign is a feed too, shown by externalapi widgets only: cpcfeedapi ones pass it by
    const e = await runningCampaign(t, admin, {
      campaign: {
        site_id: p.site._id,
        adstype: 'external',
        cpc_feed_processor: 'mgid',
        src_code: JSON.stringify({
          widget_id: '9',
          token: 'tok',
          endpoint: feed.json('/ext/', 200, [
            {
              id: 9,
              title: 'From external',
              url: 'https://clck.feed.example/9',
              image: 'https://img.feed.example/9.jpg',
            },
          ]),
        }),
      },
      banner: { title: 'External placeholder' },
    });
    await settle(t);
    expect(titles(await serve(p.widget._id))).toEqual(['Native fallback']);
    await t.database.db
      .update(campaigns)
      .set({ siteId: Number(x.site._id) })
      .where(eq(campaigns.id, Number(e.campaign._id)));
    await t.database.db
      .update(campaigns)
      .set({ siteId: Number(p.site._id) })
      .where(eq(campaigns.id, Number(fc.campaign._id)));
    await settle(t);
    expect(titles(await serve(x.widget._id))).toEqual(['From external']);
  });

  test('dummy shows nothing', async () => {
    const p = await widgetWith('dummy', 2);
    await addMaterials(p.site._id, [{ url: 'https://d.example/1', title: 'Not shown' }]);
    await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    await settle(t);
    const a = await serve(p.widget._id);
    expect(a.items).toEqual([]);
    expect(a.impression_url).toBeNull();
  });
});
