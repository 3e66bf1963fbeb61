// `npm run demo`: starts the built server (building it first) with the sandbox payment page, seeds
// publishers, advertisers, sites, widgets, campaigns and creatives through the public HTTP API only,
// then drives simulated visitors through the real delivery endpoints (widget answer, impression and
// viewable beacons, clicks) so that balances and statistics are live when you log in. The server keeps
// running afterwards (Ctrl-C stops it); DEMO_EXIT=1 stops it once the report is printed.
// The exchange is live too: a local DSP (scripts/local-dsp.mjs, a node:http server started here) is a DSP
// partner that bids on the widgets' slots (some no-bids), a Prebid partner calls our Prebid bidder endpoint,
// and an agency group (agency@demo.local's) holds a site and a member's site (member@demo.local, created by
// the agency), so DSP, Prebid and agency group stats and the agency's earnings fill in. A remarketing pixel,
// a landing page with leads, a promotion, a campaign awaiting moderation, AdSense imports and a payout
// request (seedShowcase, requestPayout) fill the remaining screens.
//
// Environment: PORT (8080), DATA_DIR (./data) or DATABASE_URL, DEMO_VISITORS (3000), DEMO_SECONDS (60),
// DEMO_SEED (9), DEMO_BUILD=1 (rebuild everything, not only the server), DEMO_EXIT=1, LOG_LEVEL (warn).
// Re-running on the same data reuses the accounts and entities it finds and just drives more visitors.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalDsp } from './local-dsp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// the server's own dependencies (sharp draws the creatives, maxmind reads the shipped GeoIP database)
const serverRequire = createRequire(new URL('../apps/server/package.json', import.meta.url));

const PORT = Number(process.env.PORT ?? 8080);
const base = `http://127.0.0.1:${PORT}`;
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${PORT}`;
const VISITORS = Math.max(0, Number(process.env.DEMO_VISITORS ?? 3000));
const SECONDS = Math.max(0, Number(process.env.DEMO_SECONDS ?? 60));
const SEED = Number(process.env.DEMO_SEED ?? 9);
const EXIT = process.env.DEMO_EXIT === '1';
const CONCURRENCY = 24;

const ADMIN = {
  email: process.env.ADMIN_EMAIL ?? 'admin@demo.local',
  password: process.env.ADMIN_PASSWORD ?? 'demo-admin-password',
};
const USERS = {
  publisher: { name: 'Paula Publisher', email: 'publisher@demo.local', password: 'demo-publisher-password' },
  publisher2: { name: 'Tom Techblog', email: 'publisher2@demo.local', password: 'demo-publisher-password' },
  advertiser: {
    name: 'Ada Advertiser',
    email: 'advertiser@demo.local',
    password: 'demo-advertiser-password',
  },
  advertiser2: {
    name: 'Max Marketer',
    email: 'advertiser2@demo.local',
    password: 'demo-advertiser-password',
  },
  agency: { name: 'Nora Network', email: 'agency@demo.local', password: 'demo-agency-password' },
};
/** The agency's member: not registered like the others, but created by the agency in its group. */
const MEMBER = { name: 'Mia Member', email: 'member@demo.local', password: 'demo-member-password' };

// ---------------------------------------------------------------------------------------------- PRNG

/** mulberry32: a small deterministic PRNG, so the same DEMO_SEED drives the same visitors. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(SEED);
const chance = (p) => random() < p;
const pick = (list) => list[Math.floor(random() * list.length)];
/** One of `entries` ([value, weight]) by weight. */
function weighted(entries) {
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let r = random() * total;
  for (const [value, w] of entries) {
    r -= w;
    if (r < 0) return value;
  }
  return entries[entries.length - 1][0];
}

// ----------------------------------------------------------------------------------------- the server

const children = [];
const stoppers = [];
function stopAll() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  for (const stop of stoppers.splice(0)) stop();
}
// the server goes with the demo, however the demo ends
process.on('exit', stopAll);
process.on('SIGINT', () => {
  stopAll();
  process.exit(130);
});
process.on('SIGTERM', () => {
  stopAll();
  process.exit(143);
});

function build() {
  const has = (p) => existsSync(resolve(root, p));
  const web = has('apps/web/dist/index.html') && has('packages/widget/dist/widget.js');
  if (process.env.DEMO_BUILD === '1' || !web) {
    console.log('building the dashboard, the embed script and the server (npm run build) …');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  } else {
    // the server bundle is quick to make, so it always matches the sources
    execFileSync(process.execPath, ['build.mjs'], { cwd: resolve(root, 'apps/server'), stdio: 'ignore' });
  }
}

async function portAnswers() {
  try {
    await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

async function startServer() {
  if (await portAnswers()) {
    throw new Error(`something already answers on port ${PORT}: stop it or choose another PORT`);
  }
  const env = {
    ...process.env,
    PORT: String(PORT),
    PUBLIC_URL: publicUrl,
    DATA_DIR: resolve(process.env.DATA_DIR ?? resolve(root, 'data')),
    PAYMENT_SANDBOX: 'on',
    // the demo's users registered a minute ago: show their statistics now, not after the 24-hour rule
    STATS_DELAY_HOURS: process.env.STATS_DELAY_HOURS ?? '0',
    RATE_LIMIT: '0',
    TRUST_PROXY: '1',
    // the local DSP listens on 127.0.0.1: let the outbound auction call it
    OUTBOUND_ALLOW_LOOPBACK: '1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], { cwd: root, env, stdio: 'inherit' });
  children.push(child);
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before answering`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return child;
    } catch {}
    await sleep(200);
  }
  throw new Error('the server did not answer within 2 minutes');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// -------------------------------------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path}: ${status} ${body}`);
    this.status = status;
    this.body = body;
  }
}

async function call(token, method, path, body) {
  const headers = { 'accept-language': 'en' };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${base}${path}`, { method, headers, body: payload });
  const text = await res.text();
  if (!res.ok) throw new ApiError(method, path, res.status, text);
  return text ? JSON.parse(text) : undefined;
}

/** A logged-in caller: `api.get('/api/…')`, `api.post(path, body)`, … */
function client(token, userId) {
  return {
    token,
    userId,
    get: (p) => call(token, 'GET', p),
    post: (p, b) => call(token, 'POST', p, b ?? {}),
    put: (p, b) => call(token, 'PUT', p, b),
  };
}

async function login(email, password) {
  const res = await fetch(`${base}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  if (!res.ok) throw new ApiError('POST', '/api/auth/token', res.status, await res.text());
  const t = await res.json();
  return client(t.access_token, t.user_id);
}

/** Registers the demo user, or logs in when it exists from an earlier run. */
async function account(user) {
  try {
    const t = await call(null, 'POST', '/api/auth/register', { ...user, privacy_policy_agreed: true });
    return { api: client(t.access_token, t.user_id), fresh: true };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422 || !err.body.includes('email_taken')) throw err;
    try {
      return { api: await login(user.email, user.password), fresh: false };
    } catch {
      throw new Error(`${user.email} exists with another password: use a fresh DATA_DIR for the demo`);
    }
  }
}

// ------------------------------------------------------------------------------------------ creatives

const themes = {
  sneakers: ['#ff6b6b', '#feca57'],
  running: ['#ee5253', '#ff9ff3'],
  shipping: ['#10ac84', '#48dbfb'],
  lisbon: ['#2e86de', '#feca57'],
  alps: ['#0abde3', '#c8d6e5'],
  paris: ['#5f27cd', '#ff9ff3'],
  home: ['#222f3e', '#54a0ff'],
  bulb: ['#f368e0', '#feca57'],
  spanish: ['#ee5253', '#feca57'],
  words: ['#1dd1a1', '#576574'],
};

/** A simple picture (gradient, a sun or moon, hills, a card): no text, so it suits every language. */
async function picture(theme, n) {
  const sharp = serverRequire('sharp');
  const [a, b] = themes[theme] ?? ['#7367f0', '#ce9ffc'];
  const cx = 200 + ((n * 211) % 800);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="628" viewBox="0 0 1200 628">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="1200" height="628" fill="url(#g)"/>
<circle cx="${cx}" cy="190" r="110" fill="#fff" fill-opacity=".55"/>
<path d="M0 470 Q 300 ${330 + (n % 3) * 40} 600 450 T 1200 420 V 628 H 0 Z" fill="#000" fill-opacity=".18"/>
<path d="M0 540 Q 400 ${440 + (n % 4) * 25} 800 540 T 1200 520 V 628 H 0 Z" fill="#fff" fill-opacity=".22"/>
<rect x="${80 + (n % 5) * 60}" y="300" width="300" height="120" rx="24" fill="#fff" fill-opacity=".85"/>
<rect x="${110 + (n % 5) * 60}" y="330" width="180" height="18" rx="9" fill="${a}"/>
<rect x="${110 + (n % 5) * 60}" y="366" width="120" height="18" rx="9" fill="${b}"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

// ------------------------------------------------------------------------------------------ seed data

const SITES = [
  {
    owner: 'publisher',
    site: { title: 'Daily Harbor News', domain: 'dailyharbor.example', category: 'news', language: 'en' },
    widgets: [
      { title: 'Below the article', processor: 'default', settings: { columns: 4, rows: 1 }, weight: 5 },
      { title: 'Sidebar picks', processor: 'bannerrandom', settings: { columns: 1, rows: 3 }, weight: 3 },
    ],
  },
  {
    owner: 'publisher',
    site: {
      title: 'Wanderlust Trails',
      domain: 'wanderlust-trails.example',
      category: 'travel',
      language: 'en',
    },
    widgets: [{ title: 'Read next', processor: 'topctr', settings: { columns: 3, rows: 2 }, weight: 3 }],
  },
  {
    owner: 'publisher2',
    site: {
      title: 'Gadget Garage',
      domain: 'gadgetgarage.example',
      category: 'technology_computing',
      language: 'en',
    },
    widgets: [
      { title: 'Recommended for you', processor: 'default', settings: { columns: 4, rows: 2 }, weight: 4 },
    ],
  },
  {
    owner: 'agency',
    site: { title: 'City Bites', domain: 'citybites.example', category: 'food_drink', language: 'en' },
    widgets: [{ title: 'More to eat', processor: 'default', settings: { columns: 3, rows: 1 }, weight: 3 }],
  },
];

const MEMBER_SITE = {
  owner: 'member',
  site: { title: "Mia's Garden", domain: 'miasgarden.example', category: 'home_garden', language: 'en' },
  widgets: [{ title: 'Grow more', processor: 'default', settings: { columns: 3, rows: 1 }, weight: 2 }],
};

const SHOP_PIXEL = 'Stride shop visitors';
/** The pixel of SHOP_PIXEL once seeded; visitors who shopped at Stride load it. */
let shopPixel = null;

const utm = 'utm_source=adplatform&utm_medium=native&utm_campaign={campaign_id}&utm_content={banner_id}';
const CAMPAIGNS = [
  {
    owner: 'advertiser',
    campaign: {
      title: 'Summer sneakers sale',
      clickprice: 0.35,
      click_filter: 'onetoone',
      brand_name: 'Stride',
      // bids on the exchange's inbound side too: the demo's Prebid Server calls get its bids
      openrtb: { enabled: true, ecpm_bid: 2.5 },
    },
    fund: 250,
    banners: [
      { title: 'Sneakers at half price', text: 'Only this week at Stride', theme: 'sneakers', ctr: 0.024 },
      { title: 'Running shoes, 50 % off', text: 'Light, fast, comfortable', theme: 'running', ctr: 0.014 },
      { title: 'Free shipping on every pair', text: 'Order by Sunday', theme: 'shipping', ctr: 0.008 },
      // remarketing: only for visitors whom Stride's pixel saw in its shop (the audience cookie)
      {
        title: 'Still thinking about them?',
        text: 'Your size is waiting at Stride',
        theme: 'running',
        ctr: 0.045,
        remarketing: true,
      },
    ],
  },
  {
    owner: 'advertiser',
    campaign: {
      title: 'Budget flights to Europe',
      clickprice: 0.5,
      click_filter: 'onetoone',
      brand_name: 'FlyCheap',
      openrtb: { enabled: true, ecpm_bid: 1.8 },
    },
    fund: 250,
    banners: [
      {
        title: 'Lisbon from €39',
        text: 'Sun, sea and pastéis',
        theme: 'lisbon',
        ctr: 0.022,
        targeting: { countries: { state: 'active', values: ['DE', 'AT', 'CH', 'FR', 'GB', 'PL', 'ES'] } },
      },
      { title: 'A weekend in the Alps', text: 'Flights and hotel from €149', theme: 'alps', ctr: 0.016 },
      {
        title: 'Paris in spring',
        text: 'Book now, pay later',
        theme: 'paris',
        ctr: 0.011,
        targeting: { countries: { state: 'negative', values: ['FR'] } },
      },
    ],
  },
  {
    owner: 'advertiser2',
    campaign: {
      title: 'Smart home starter kit',
      clickprice: 0.25,
      click_filter: 'dummy',
      brand_name: 'Nestly',
    },
    fund: 200,
    banners: [
      {
        title: 'Your home, smarter in a day',
        text: 'Starter kit from $99',
        theme: 'home',
        ctr: 0.013,
        targeting: { devices: { state: 'active', values: ['desktop', 'tablet'] } },
      },
      { title: 'Lights that know you are home', text: 'Save 30 % on energy', theme: 'bulb', ctr: 0.009 },
    ],
  },
  {
    owner: 'advertiser2',
    campaign: {
      title: 'Learn Spanish in 10 minutes a day',
      clickprice: 0.2,
      click_filter: 'lock',
      brand_name: 'Habla',
    },
    fund: 150,
    banners: [
      {
        title: 'Speak Spanish this summer',
        text: '10 minutes a day on your phone',
        theme: 'spanish',
        ctr: 0.028,
        targeting: { devices: { state: 'active', values: ['mobile', 'tablet'] } },
      },
      { title: '1,000 words in 30 days', text: 'Try the first week free', theme: 'words', ctr: 0.006 },
      // left for the admin to see in moderation: a claim the moderator refuses
      {
        title: 'Fluent in 3 days, guaranteed',
        text: 'No effort needed',
        theme: 'words',
        ctr: 0.02,
        reject: true,
      },
    ],
  },
];

async function all(api, path) {
  return (await api.get(`${path}${path.includes('?') ? '&' : '?'}limit=500`)).items;
}

/** A site of `spec` and its widgets (made and approved when missing): the visitors' widget entries. */
async function ensureSite(admin, api, spec) {
  const mine = await all(api, '/api/sites');
  let site = mine.find((s) => s.domain === spec.site.domain);
  if (!site) {
    site = await api.post('/api/sites', { site: { ...spec.site, country: null } });
    await admin.post(`/api/sites/${site._id}/moderate`, { decision: 'approve' });
    // the advanced statistics (click lists, what ran on the site) are an admin's to turn on
    await admin.put(`/api/sites/${site._id}`, { site: { advanced_stats: true } });
  }
  const ws = await all(api, '/api/widgets');
  const entries = [];
  for (const w of spec.widgets) {
    let widget = ws.find((x) => x.site_id === site._id && x.title === w.title);
    if (!widget) {
      widget = await api.post('/api/widgets', {
        widget: { title: w.title, site_id: site._id, processor: w.processor, settings: w.settings },
      });
      await admin.post(`/api/widgets/${widget._id}/moderate`, { decision: 'approve' });
    }
    entries.push({ id: widget._id, title: w.title, weight: w.weight, site, owner: spec.owner });
  }
  return entries;
}

/**
 * The agency's member: an account the agency creates in its group (role agencymember), with a site of its
 * own. A click there credits the member its share and the agency its agency rate of it, so the agency's
 * balance, transactions and the group's statistics show the agency at work.
 */
async function seedAgencyMember(admin, users, group) {
  let api;
  try {
    api = await login(MEMBER.email, MEMBER.password);
  } catch {
    await users.agency.api.post(`/api/agencies/${group._id}/addmember`, { member: MEMBER });
    api = await login(MEMBER.email, MEMBER.password);
  }
  return ensureSite(admin, api, MEMBER_SITE);
}

async function seed() {
  const admin = await login(ADMIN.email, ADMIN.password);
  const users = {};
  for (const [key, u] of Object.entries(USERS)) users[key] = await account(u);
  // the agency account owns the agency group below; its new role holds from its next login
  const agencyUser = await admin.get(`/api/users/${users.agency.api.userId}`);
  if (agencyUser.role !== 'agency') {
    await admin.post(`/api/users/${users.agency.api.userId}/changeroles`, { role: 'agency' });
    users.agency.api = await login(USERS.agency.email, USERS.agency.password);
  }
  const fresh = Object.values(users).some((u) => u.fresh);
  console.log(fresh ? 'seeding the demo data through the API …' : 'demo accounts exist: reusing their data');

  // the admin pays the first advertiser; the second one tops up through the sandbox payment page
  if (users.advertiser.fresh) {
    await admin.post(`/api/users/${users.advertiser.api.userId}/payments`, { payment: { sum: 1000 } });
  }
  if (users.advertiser2.fresh) await sandboxTopup(users.advertiser2.api, 600);

  // Stride's remarketing pixel: visitors who saw its shop join the audience its last creative targets
  const pixels = await all(users.advertiser.api, '/api/pixels');
  shopPixel =
    pixels.find((x) => x.title === SHOP_PIXEL) ??
    (await users.advertiser.api.post('/api/pixels', { pixel: { title: SHOP_PIXEL, all_pages: true } }));

  const widgets = [];
  for (const spec of SITES) widgets.push(...(await ensureSite(admin, users[spec.owner].api, spec)));

  const campaigns = [];
  let n = 0;
  for (const spec of CAMPAIGNS) {
    const api = users[spec.owner].api;
    const mine = await all(api, '/api/campaigns');
    let c = mine.find((x) => x.title === spec.campaign.title);
    if (!c) {
      c = await api.post('/api/campaigns', {
        campaign: { ...spec.campaign, utm, track_urls: [] },
      });
      await api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: spec.fund } });
    } else if (c.balance < 25) {
      // later runs: keep the campaign running from the owner's balance (the admin pays when it is low)
      const me = await api.get(`/api/users/${api.userId}`);
      if (me.balance < 100) await admin.post(`/api/users/${api.userId}/payments`, { payment: { sum: 500 } });
      await api.post(`/api/campaigns/${c._id}/payments`, { payment: { sum: 100 } });
    }
    const banners = await all(api, `/api/banners?campaign_id=${c._id}`);
    const ctr = new Map();
    for (const b of spec.banners) {
      n += 1;
      let banner = banners.find((x) => x.title === b.title);
      if (!banner) {
        banner = await api.post('/api/banners', {
          banner: {
            campaign_id: c._id,
            title: b.title,
            text: b.text,
            url: `https://${spec.campaign.brand_name.toLowerCase()}.example/offer`,
            ...(b.targeting ? { targeting: b.targeting } : {}),
            ...(b.remarketing
              ? { targeting: { pixels: { state: 'active', values: [String(shopPixel._id)] } } }
              : {}),
          },
        });
        // the image goes through the real upload (multipart, checked by its bytes, resized per format)
        const form = new FormData();
        form.append('file', new Blob([await picture(b.theme, n)], { type: 'image/png' }), `${b.theme}.png`);
        banner = await call(api.token, 'POST', `/api/banners/${banner._id}?type=edit&kind=image`, form);
        await admin.post(
          `/api/banners/${banner._id}/moderate`,
          b.reject
            ? { decision: 'reject', reason: 'Misleading promise: nobody is fluent in three days.' }
            : { decision: 'approve' },
        );
      }
      ctr.set(`b${banner._id}`, b.ctr);
      if (b.remarketing) showcase.remarketingBanner = banner._id;
    }
    if (c.moderation !== 'approved')
      await admin.post(`/api/campaigns/${c._id}/moderate`, { decision: 'approve' });
    if (c.status !== 'active') await api.put(`/api/campaigns/${c._id}`, { campaign: { status: 'active' } });
    // data of an earlier demo: turn the OpenRTB block on where the spec has it
    if (spec.campaign.openrtb && !c.openrtb?.enabled)
      await api.put(`/api/campaigns/${c._id}`, { campaign: { openrtb: spec.campaign.openrtb } });
    campaigns.push({ id: c._id, title: c.title, owner: spec.owner, ctr });
  }
  return { admin, users, widgets, campaigns };
}

/**
 * The exchange's partners: the local DSP as a DSP partner (its endpoint follows the DSP's port of this
 * run), a Prebid partner and the agency group of agency@demo.local (its site's traffic is the group's).
 */
async function seedExchange(admin, users, dsp) {
  const dsps = await all(admin, '/api/dsppartners');
  const dspSpec = {
    name: 'Local demo DSP',
    endpoint: dsp.url,
    openrtb_version: '2.6',
    max_request_time: 150,
  };
  const found = dsps.find((p) => p.name === dspSpec.name);
  const dspPartner = found
    ? await admin.put(`/api/dsppartners/${found._id}`, {
        dsppartner: { endpoint: dsp.url, status: 'active' },
      })
    : await admin.post('/api/dsppartners', { dsppartner: dspSpec });
  const prebids = await all(admin, '/api/prebidpartners');
  const prebid =
    prebids.find((p) => p.name === 'Demo Prebid Server') ??
    (await admin.post('/api/prebidpartners', {
      prebidpartner: { name: 'Demo Prebid Server', bidder_code: 'adp' },
    }));
  const groups = await all(admin, '/api/partners');
  const group =
    groups.find((g) => g.title === 'Nora Network Group') ??
    (await admin.post('/api/partners', {
      partner: {
        title: 'Nora Network Group',
        user_id: users.agency.api.userId,
        agency_rate: 10,
        phoenix_rate: 5,
        campaign_rate: 3,
        showlogo: true,
        showamount: true,
      },
    }));
  return { dspPartner, prebid, group };
}

/** A Prebid Server's call to our bidder endpoint for one native slot of a demo page. */
function prebidRequest(page, v, n) {
  return {
    id: `demo-prebid-${n}`,
    imp: [
      {
        id: '1',
        tagid: String(page.widget.id),
        bidfloor: 0.2,
        bidfloorcur: 'USD',
        native: {
          ver: '1.2',
          request: JSON.stringify({
            ver: '1.2',
            assets: [
              { id: 1, required: 1, title: { len: 90 } },
              { id: 2, required: 1, img: { type: 3, wmin: 100, hmin: 100 } },
            ],
          }),
        },
        ext: { bidder: {} },
      },
    ],
    site: { domain: page.widget.site.domain, page: `https://${page.widget.site.domain}/${page.slug}` },
    device: { ua: v.ua, ip: v.ip, language: v.language.slice(0, 2) },
    tmax: 300,
    cur: ['USD'],
  };
}

/** The clearing price macro of the bids' nurl and burl. */
const AUCTION_PRICE = ['$', '{AUCTION_PRICE}'].join('');
let prebidCalls = 0;
let prebidEndpoint = null;
/** Every few page views a Prebid Server asks our bidder endpoint too (skipped when the server has none). */
async function callPrebid(page, v) {
  if (!prebidEndpoint || prebidCalls % 3 !== 0) {
    prebidCalls += 1;
    return;
  }
  prebidCalls += 1;
  const n = prebidCalls;
  const res = await fetch(toLocal(prebidEndpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-openrtb-version': '2.5' },
    body: JSON.stringify(prebidRequest(page, v, n)),
  });
  if (res.status === 404) {
    await res.arrayBuffer();
    console.warn('warning: the Prebid bidder endpoint answers 404; no Prebid traffic this run');
    prebidEndpoint = null;
    return;
  }
  if (res.status >= 500) tally.errors += 1;
  else tally.prebid += 1;
  if (res.status !== 200) {
    await res.arrayBuffer();
    return;
  }
  // as Prebid.js and the Prebid Server would: most bids win the page's auction (nurl at a clearing price
  // below our bid), and most of the winners render (burl: the impression we are paid for)
  // (rolls from the call's number, not the visitors' PRNG: answers arrive in any order)
  const roll = (k) => (((n * 7 + k) * 2654435761) >>> 0) / 2 ** 32;
  const answer = await res.json();
  for (const bid of answer.seatbid?.[0]?.bid ?? []) {
    tally.prebidBids += 1;
    if (roll(1) >= 0.7) continue;
    const price = (bid.price * (0.6 + roll(2) * 0.35)).toFixed(4);
    const fill = (url) => url.replace(AUCTION_PRICE, price);
    await hit(fill(bid.nurl), {});
    tally.prebidWins += 1;
    if (bid.burl && roll(3) < 0.85) await hit(fill(bid.burl), {});
  }
}

/** A top-up through the sandbox payment page, confirmed the way its form posts it. */
async function sandboxTopup(api, sum) {
  const topup = await api.post(`/api/users/${api.userId}/topups`, { topup: { sum } });
  const url = new URL(topup.redirect_url);
  const res = await fetch(`${base}${url.pathname}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: url.searchParams.get('token') ?? '' }),
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`sandbox top-up: ${res.status} ${await res.text()}`);
}

// ------------------------------------------------------------------------------------------- visitors

/** Countries with their share of traffic and the languages their browsers ask for. */
const COUNTRIES = [
  ['US', 30, 'en-US,en;q=0.9'],
  ['DE', 13, 'de-DE,de;q=0.9,en;q=0.8'],
  ['GB', 10, 'en-GB,en;q=0.9'],
  ['FR', 8, 'fr-FR,fr;q=0.9,en;q=0.7'],
  ['IN', 7, 'en-IN,en;q=0.9,hi;q=0.8'],
  ['BR', 7, 'pt-BR,pt;q=0.9,en;q=0.7'],
  ['CA', 5, 'en-CA,en;q=0.9,fr-CA;q=0.7'],
  ['PL', 4, 'pl-PL,pl;q=0.9,en;q=0.7'],
  ['ES', 4, 'es-ES,es;q=0.9,en;q=0.6'],
  ['UA', 3, 'uk-UA,uk;q=0.9,ru;q=0.8,en;q=0.6'],
  ['PT', 3, 'pt-PT,pt;q=0.9,en;q=0.7'],
  ['AT', 3, 'de-AT,de;q=0.9,en;q=0.7'],
  ['CH', 3, 'de-CH,de;q=0.9,fr;q=0.8,en;q=0.7'],
];

/**
 * Addresses per country from the GeoIP database the server ships with: random public IPv4 addresses
 * (seeded) looked up until every country has a few, so the server places each visitor where we meant.
 */
function ipPools() {
  const { Reader } = serverRequire('maxmind');
  const file = serverRequire.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
  const reader = new Reader(readFileSync(file));
  const pools = new Map(COUNTRIES.map(([c]) => [c, []]));
  const rnd = prng(SEED * 7919);
  for (let i = 0; i < 400_000 && [...pools.values()].some((p) => p.length < 24); i++) {
    const first = 1 + Math.floor(rnd() * 223);
    if (first === 10 || first === 127 || first === 100 || first === 169 || first === 172 || first === 192)
      continue;
    const ip = `${first}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}.${1 + Math.floor(rnd() * 254)}`;
    const rec = reader.get(ip);
    const code = rec?.country_code ?? rec?.country?.iso_code;
    const pool = pools.get(code);
    if (pool && pool.length < 24) pool.push(ip);
  }
  return pools;
}

/** Browsers as they appear in traffic: [device, weight, User-Agent]. */
const AGENTS = [
  [
    'desktop',
    18,
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ],
  [
    'desktop',
    5,
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  ],
  ['desktop', 4, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'],
  [
    'desktop',
    6,
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  ],
  [
    'desktop',
    5,
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ],
  ['desktop', 1, 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'],
  [
    'desktop',
    1,
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
  ],
  [
    'mobile',
    20,
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  ],
  [
    'mobile',
    17,
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  ],
  [
    'mobile',
    5,
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  ],
  [
    'mobile',
    3,
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  ],
  [
    'tablet',
    4,
    'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1',
  ],
  [
    'tablet',
    2,
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ],
];
const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  'python-requests/2.32.3',
];
const DEVICE_CTR = { desktop: 0.85, mobile: 1.15, tablet: 1 };
const SLUGS = [
  'city-council-approves-new-harbor-park',
  'ten-things-to-do-this-weekend',
  'how-to-save-on-your-energy-bill',
  'the-best-hiking-trails-near-you',
  'review-the-new-phone-everyone-talks-about',
  'why-coffee-prices-keep-rising',
  'a-local-bakery-turns-fifty',
  'what-the-new-rules-mean-for-renters',
];

/** What happened, by the simulation's own count (the server's statistics say what it accepted). */
const tally = {
  visitors: 0,
  pageviews: 0,
  bots: 0,
  served: 0,
  sponsored: 0,
  impressions: 0,
  viewable: 0,
  clicks: 0,
  replays: 0,
  forged: 0,
  botClicks: 0,
  early: 0,
  errors: 0,
  prebid: 0,
  prebidBids: 0,
  prebidWins: 0,
  shoppers: 0,
  leads: 0,
};

function toLocal(url) {
  const u = new URL(url);
  return `${base}${u.pathname}${u.search}`;
}

async function hit(url, headers) {
  const res = await fetch(toLocal(url), { headers, redirect: 'manual' });
  await res.arrayBuffer();
  if (res.status >= 500) tally.errors += 1;
  return res;
}

/** One visitor: a person (or a bot) who reads 1–4 pages of one site, each with a widget on it. */
function planVisitor(widgets, pools, ctrOf) {
  const [country, , language] = weighted(COUNTRIES.map((c) => [c, c[1]]));
  const pool = pools.get(country);
  const ip = pool.length ? pick(pool) : `8.8.${Math.floor(random() * 256)}.${Math.floor(random() * 254) + 1}`;
  const bot = chance(0.06);
  const [device, , ua] = bot ? ['bot', 0, pick(BOTS)] : weighted(AGENTS.map((a) => [a, a[1]]));
  const widget = weighted(widgets.map((w) => [w, w.weight]));
  const sameSite = widgets.filter((w) => w.site._id === widget.site._id);
  const pages = Array.from({ length: 1 + Math.floor(random() ** 2 * 4) }, () => ({
    widget: pick(sameSite),
    slug: pick(SLUGS),
    // decided now, from the seeded PRNG, so the visitors do not depend on the order answers arrive in
    rolls: Array.from({ length: 16 }, () => random()),
  }));
  const fraud = !bot && chance(0.012);
  // some shopped at Stride before (its pixel adds them to the remarketing audience); a few sign up on
  // Habla's landing page
  const shop =
    !bot && chance(0.3) ? `https://stride.example/sneakers/${pick(['trail', 'city', 'kids'])}` : null;
  const lead = !bot && chance(0.03);
  return { ip, ua, device, bot, language, pages, fraud, shop, lead, ctrOf };
}

/** Keeps the cookies an answer sets, as a browser would. */
function keepCookies(jar, res) {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}
const cookieHeader = (jar) => [...jar].map(([k, val]) => `${k}=${val}`).join('; ');

async function runVisitor(v) {
  tally.visitors += 1;
  if (v.bot) tally.bots += 1;
  const jar = new Map();
  if (v.shop && shopPixel) {
    // Stride's shop page loads the pixel: the visitor joins its audience (cookies set by our server)
    const shopPage = v.shop;
    const res = await fetch(`${base}/px/${shopPixel._id}.gif?u=${encodeURIComponent(shopPage)}`, {
      headers: {
        'user-agent': v.ua,
        'accept-language': v.language,
        'x-forwarded-for': v.ip,
        referer: shopPage,
      },
    });
    await res.arrayBuffer();
    if (res.status >= 500) tally.errors += 1;
    keepCookies(jar, res);
    tally.shoppers += 1;
  }
  for (const page of v.pages) {
    const pageUrl = `https://${page.widget.site.domain}/${page.slug}`;
    const headers = {
      'user-agent': v.ua,
      'accept-language': v.language,
      'x-forwarded-for': v.ip,
      referer: pageUrl,
      origin: `https://${page.widget.site.domain}`,
    };
    if (jar.size) headers.cookie = cookieHeader(jar);
    tally.pageviews += 1;
    const res = await fetch(`${base}/serve/widgets/${page.widget.id}?url=${encodeURIComponent(pageUrl)}`, {
      headers,
    });
    keepCookies(jar, res);
    if (!res.ok) {
      await res.arrayBuffer();
      if (res.status >= 500) tally.errors += 1;
      continue;
    }
    tally.served += 1;
    await callPrebid(page, v);
    const answer = await res.json();
    const ads = answer.items.filter((i) => i.sponsored && i.url);
    if (!ads.length || !answer.impression_url) continue;
    tally.sponsored += ads.length;
    const r = page.rolls;
    const shown = r[0] < 0.93; // the rest scrolled away or closed the tab before the widget rendered
    const seen = shown && r[1] < 0.62;
    if (shown) {
      await hit(answer.impression_url, headers);
      tally.impressions += 1;
    }
    if (seen) {
      await hit(answer.viewable_url, headers);
      tally.viewable += 1;
    }
    for (const [i, ad] of ads.entries()) {
      const ctr = (v.ctrOf(ad.id) ?? 0.01) * (DEVICE_CTR[v.device] ?? 1);
      const p = seen ? ctr * 1.45 : shown ? ctr * 0.3 : ctr * 0.5; // a click before the beacon is "too fast"
      const roll = r[2 + (i % 12)];
      // click fraud: a script that fetched the widget as a browser clicks with its own agent
      if (v.fraud && roll < 0.3) {
        await hit(ad.url, { ...headers, 'user-agent': 'python-requests/2.31.0' });
        tally.botClicks += 1;
        continue;
      }
      if (roll >= p) continue;
      if (!shown) tally.early += 1;
      await hit(ad.url, headers);
      tally.clicks += 1;
      const after = r[14];
      if (after < 0.05) {
        // a double click, or a link shared and opened again: the second use is a replay
        await hit(ad.url, headers);
        tally.replays += 1;
      } else if (after > 0.985) {
        // a forged token: one character changed
        const u = new URL(ad.url);
        const t = u.pathname.split('/').pop();
        const flipped = t.slice(0, -2) + (t.at(-2) === 'A' ? 'B' : 'A') + t.at(-1);
        await hit(`${u.origin}/click/${flipped}`, headers);
        tally.forged += 1;
      }
    }
  }
  if (v.lead && showcase.landing) {
    // the landing page's form, posted as a browser posts it
    const n = tally.visitors;
    const res = await fetch(toLocal(showcase.landing.public_url), {
      method: 'POST',
      headers: {
        'user-agent': v.ua,
        'accept-language': v.language,
        'x-forwarded-for': v.ip,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ name: `Visitor ${n}`, email: `visitor${n}@mail.example` }),
    });
    await res.arrayBuffer();
    if (res.status >= 500) tally.errors += 1;
    if (res.ok) tally.leads += 1;
  }
}

async function driveVisitors(widgets, campaigns) {
  const ctrs = new Map(campaigns.flatMap((c) => [...c.ctr]));
  const ctrOf = (id) => ctrs.get(id);
  const pools = ipPools();
  const plans = Array.from({ length: VISITORS }, () => planVisitor(widgets, pools, ctrOf));
  console.log(`driving ${VISITORS} visitors over about ${SECONDS} s …`);
  const started = Date.now();
  let next = 0;
  const progress = setInterval(() => {
    console.log(
      `  ${tally.visitors}/${VISITORS} visitors, ${tally.pageviews} pages, ${tally.impressions} widget impressions, ${tally.clicks} clicks`,
    );
  }, 10_000);
  async function worker() {
    while (next < plans.length) {
      const i = next++;
      // visitors arrive evenly over the run
      const due = started + (SECONDS * 1000 * i) / Math.max(1, plans.length);
      if (due > Date.now()) await sleep(due - Date.now());
      try {
        await runVisitor(plans[i]);
      } catch (err) {
        tally.errors += 1;
        if (tally.errors <= 3) console.error('visitor failed:', err.message);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(progress);
  console.log(
    `done in ${((Date.now() - started) / 1000).toFixed(0)} s: ${tally.visitors} visitors (${tally.bots} bots), ` +
      `${tally.pageviews} page views, ${tally.impressions} widget impressions, ${tally.viewable} viewable, ` +
      `${tally.clicks} clicks (${tally.early} before the impression), ${tally.replays} replays, ` +
      `${tally.forged} forged, ${tally.botClicks} scripted clicks, ${tally.errors} errors`,
  );
  console.log(
    `  ${tally.shoppers} had seen Stride's shop (its remarketing pixel), ${tally.leads} signed up on Habla's landing page`,
  );
}

/** Waits until every widget answers with a sponsored item (the ad index rebuilds on change notices). */
async function waitForAds(widgets) {
  const headers = { 'user-agent': AGENTS[0][2], 'x-forwarded-for': '8.8.8.8' };
  for (let i = 0; i < 150; i++) {
    let ready = 0;
    for (const w of widgets) {
      const res = await fetch(`${base}/serve/widgets/${w.id}`, { headers });
      if (res.ok && (await res.json()).items.some((x) => x.sponsored)) ready += 1;
    }
    if (ready === widgets.length) return;
    await sleep(400);
  }
  console.warn('warning: not every widget shows ads yet; driving visitors anyway');
}

// ------------------------------------------------------------------------------------------- showcase

/** What the showcase made that the visitors use (the landing page they sign up on). */
const showcase = { landing: null, remarketingBanner: null };

const LANDING = {
  title: 'Habla free week',
  headline: 'Speak Spanish in 10 minutes a day',
  description: 'Short daily lessons on your phone. Try the first week free, no card needed.',
  form: {
    fields: [
      { name: 'name', label: 'Your name', type: 'text', required: true },
      { name: 'email', label: 'Email', type: 'email', required: true },
    ],
    submit_label: 'Start my free week',
  },
};
const PENDING_CAMPAIGN = {
  title: 'Winter jackets clearance',
  clickprice: 0.3,
  click_filter: 'onetoone',
  brand_name: 'Nestly',
};

/** A day `n` days before today (UTC), as the AdSense report writes it. */
const daysAgo = (n) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** An AdSense report of the demo's two biggest sites for the days `from`..`to` days ago. */
function adsenseReport(from, to) {
  const lines = ['Date,Site,Page views,Impressions,Clicks,Estimated earnings (USD)'];
  for (let d = from; d >= to; d--) {
    const k = 1 + ((d * 7) % 5) / 10;
    lines.push(
      `${daysAgo(d)},dailyharbor.example,${Math.round(2400 * k)},${Math.round(5100 * k)},${Math.round(31 * k)},${(12.4 * k).toFixed(2)}`,
    );
    lines.push(
      `${daysAgo(d)},gadgetgarage.example,${Math.round(1300 * k)},${Math.round(2700 * k)},${Math.round(17 * k)},${(6.9 * k).toFixed(2)}`,
    );
  }
  return lines.join('\n');
}

async function uploadAdsense(admin, csv, name) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), name);
  return call(admin.token, 'POST', '/api/adsense/upload', form);
}

/**
 * The rest of the product, so that no screen of the demo is empty: Habla's landing page with its form
 * (visitors sign up on it), a promotion of Daily Harbor with a promotion page, a campaign waiting in the
 * admin's moderation queue, and AdSense income: one import approved (the sites were credited) and one
 * waiting for the admin's approval. Each is made once; later runs find it.
 */
async function seedShowcase(admin, users) {
  const habla = users.advertiser2.api;
  const landings = await all(habla, '/api/landings');
  let landing = landings.find((l) => l.title === LANDING.title);
  if (!landing) {
    landing = await habla.post('/api/landings', { landing: { ...LANDING, status: 'active' } });
    landing = await habla.post('/api/landings/generate', { user_id: habla.userId, page_id: landing._id });
  }
  showcase.landing = landing;

  const paula = users.publisher.api;
  const harbor = (await all(paula, '/api/sites')).find((x) => x.domain === 'dailyharbor.example');
  const promotions = await all(paula, `/api/promotions?site_id=${harbor._id}`);
  if (!promotions.some((x) => x.title === 'Weekend subscription drive')) {
    const promotion = await paula.post('/api/promotions', {
      promotion: {
        title: 'Weekend subscription drive',
        site_id: harbor._id,
        description: 'Half price for the first three months of Daily Harbor Plus.',
        url: 'https://dailyharbor.example/subscribe',
      },
    });
    const page = await paula.post('/api/promotionpages', {
      promotionpage: {
        title: 'Daily Harbor Plus: half price',
        promotion_id: promotion._id,
        text: 'Three months of news without ads',
        url: 'https://dailyharbor.example/subscribe?from=promo',
      },
    });
    const form = new FormData();
    form.append('file', new Blob([await picture('shipping', 40)], { type: 'image/png' }), 'plus.png');
    await call(paula.token, 'POST', `/api/promotionpages/${page._id}/image`, form);
  }

  const mine = await all(habla, '/api/campaigns');
  if (!mine.some((c) => c.title === PENDING_CAMPAIGN.title)) {
    const c = await habla.post('/api/campaigns', { campaign: { ...PENDING_CAMPAIGN, utm, track_urls: [] } });
    const banner = await habla.post('/api/banners', {
      banner: {
        campaign_id: c._id,
        title: 'Winter jackets, 40 % off',
        text: 'Warm, light, and only this month',
        url: 'https://nestly.example/jackets',
      },
    });
    const form = new FormData();
    form.append('file', new Blob([await picture('alps', 41)], { type: 'image/png' }), 'jackets.png');
    await call(habla.token, 'POST', `/api/banners/${banner._id}?type=edit&kind=image`, form);
  }

  if (!(await admin.get('/api/adsense?limit=1')).items.length) {
    const done = await uploadAdsense(admin, adsenseReport(7, 2), 'adsense-last-week.csv');
    await admin.post('/api/adsense/approve', { adsense: { _id: done._id } });
    await uploadAdsense(admin, adsenseReport(1, 1), 'adsense-yesterday.csv');
  }
}

/** A publisher whose earnings reach the minimum payout asks for it: the admin's withdrawals fill in. */
async function requestPayout(users) {
  const api = users.publisher.api;
  const { min_payout: min } = await api.get('/api/settings');
  const me = await api.get(`/api/users/${api.userId}`);
  const asked = await api.get(`/api/users/${api.userId}/withdrawals?limit=1`);
  if (me.balance < min || asked.items.length) return;
  await api.post(`/api/users/${api.userId}/withdrawals`, {
    withdrawal: { sum: min, method: 'paypal', details: 'paula.publisher@paypal.example' },
  });
  console.log(`  publisher@demo.local asked for a payout of ${money(min)} (admin: Withdrawals)`);
}

// --------------------------------------------------------------------------------------------- report

const money = (v) => `$${Number(v).toFixed(2)}`;

async function report({ admin, users, widgets, campaigns }) {
  await sleep(2500); // buffered impressions are written every DELIVERY_FLUSH_MS (1 s)
  console.log('\nToday, as the API reports it:');
  for (const c of campaigns) {
    const [row, stats] = await Promise.all([
      admin.get(`/api/campaigns/${c.id}`),
      admin.get(`/api/stats/campaigns/${c.id}`),
    ]);
    const t = stats.total;
    console.log(
      `  campaign «${c.title}»: balance ${money(row.balance)}, ${t.impressions} impressions, ` +
        `${t.clicks} clicks (CTR ${t.ctr} %), ${t.invalid_clicks} invalid, spent ${money(t.spent)}`,
    );
  }
  for (const w of widgets) {
    const t = (await admin.get(`/api/stats/widgets/${w.id}`)).total;
    console.log(
      `  widget «${w.title}» on ${w.site.domain}: ${t.impressions} impressions, ${t.clicks} clicks, earned ${money(t.earned)}`,
    );
  }
  // the platform keeps its share in its own ledger, not in the admin's balance
  const platform = (await admin.get('/api/stats/platform')).total;
  console.log(`  platform income today: ${money(platform.revenue ?? 0)} (admin: Statistics)`);
  for (const [key, u] of Object.entries(users)) {
    const me = await admin.get(`/api/users/${u.api.userId}`);
    console.log(`  ${USERS[key].email}: balance ${money(me.balance)}`);
  }
  const memberSite = widgets.find((w) => w.owner === 'member')?.site;
  if (memberSite) {
    const me = await admin.get(`/api/users/${memberSite.user_id}`);
    console.log(`  ${MEMBER.email}: balance ${money(me.balance)}`);
  }
  if (shopPixel && showcase.remarketingBanner) {
    const px = await admin.get(`/api/pixels/${shopPixel._id}`);
    const t = (await admin.get(`/api/stats/banners/${showcase.remarketingBanner}`)).total;
    console.log(
      `  pixel «${px.title}»: ${px.visitors} visitors in its audience; its remarketing creative: ${t.impressions} impressions, ${t.clicks} clicks`,
    );
  }
  if (showcase.landing) {
    const l = await admin.get(`/api/landings/${showcase.landing._id}`);
    console.log(`  landing page «${l.title}»: ${l.leads} leads`);
  }
}

function printAccounts(ids) {
  const line = (role, u, note) =>
    `  ${role.padEnd(11)} ${u.email.padEnd(24)} ${u.password.padEnd(26)} ${note}`;
  console.log(`\nThe demo runs at ${publicUrl} (Ctrl-C stops it). Log in as:`);
  console.log(line('admin', ADMIN, 'moderation, payments, every statistic'));
  console.log(line('publisher', USERS.publisher, 'Daily Harbor News, Wanderlust Trails'));
  console.log(line('publisher', USERS.publisher2, 'Gadget Garage'));
  console.log(line('advertiser', USERS.advertiser, 'sneakers and flights campaigns (paid by the admin)'));
  console.log(line('advertiser', USERS.advertiser2, 'smart home and Spanish campaigns (sandbox top-up)'));
  console.log(line('agency', USERS.agency, 'City Bites, owner of the agency group «Nora Network Group»'));
  console.log(
    line('member', MEMBER, "Mia's Garden, a member of the agency group (the agency earns its rate)"),
  );
  if (ids) {
    console.log(
      `  e.g. ${publicUrl}/users/${ids.advertiser}/campaigns/${ids.campaign} and ${publicUrl}/sites/${ids.site}`,
    );
  }
}

// ----------------------------------------------------------------------------------------------- main

try {
  build();
  const dsp = await startLocalDsp({ seed: SEED });
  stoppers.push(() => dsp.close());
  const server = await startServer();
  const demo = await seed();
  const exchange = await seedExchange(demo.admin, demo.users, dsp);
  demo.widgets.push(...(await seedAgencyMember(demo.admin, demo.users, exchange.group)));
  await seedShowcase(demo.admin, demo.users);
  prebidEndpoint = exchange.prebid.endpoint;
  console.log(`local DSP at ${dsp.url} (DSP partner #${exchange.dspPartner._id})`);
  await waitForAds(demo.widgets);
  if (VISITORS > 0) await driveVisitors(demo.widgets, demo.campaigns);
  // the payout first, so the balances reported are the ones the dashboard shows (the request reserves its sum)
  await requestPayout(demo.users);
  await report(demo);
  console.log(
    `  local DSP: ${dsp.counts.requests} bid requests, ${dsp.counts.bids} bids, ${dsp.counts.noBids} no-bids, ` +
      `${dsp.counts.wins} wins, ${dsp.counts.losses} losses; ${tally.prebid} Prebid bidder calls ` +
      `(${tally.prebidBids} bids, ${tally.prebidWins} won)`,
  );
  printAccounts({
    advertiser: demo.users.advertiser.api.userId,
    campaign: demo.campaigns[0].id,
    site: demo.widgets[0].site._id,
  });
  if (EXIT) {
    stopAll();
  } else {
    server.on('exit', (code) => process.exit(code ?? 0));
  }
} catch (err) {
  console.error(`demo failed: ${err.message}`);
  stopAll();
  process.exitCode = 1;
}
