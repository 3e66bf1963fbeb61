import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

type Api = ReturnType<typeof as>;

let t: TestApp;
let admin: Api;
let adminRo: Api;
let userRo: Api;
let dummy: Api;

beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  adminRo = as(t.app, (await userWithRole(t, 'adminreadonly')).access_token);
  userRo = as(t.app, (await userWithRole(t, 'defaultreadonly')).access_token);
  dummy = as(t.app, (await userWithRole(t, 'dummy')).access_token);
});
afterAll(() => t.close());

let seq = 0;
async function user(app: FastifyInstance = t.app) {
  const u = await register(app);
  return { ...u, api: as(app, u.access_token) };
}

async function created(res: Awaited<ReturnType<Api['post']>>): Promise<string> {
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._id as string;
}

async function siteOf(api: Api) {
  seq += 1;
  return created(
    await api.post('/api/sites', {
      site: { title: 'Mag', domain: `generic-delete-${seq}-${Date.now()}.example`, category: 'news' },
    }),
  );
}

async function campaignOf(api: Api) {
  seq += 1;
  return created(
    await api.post('/api/campaigns', {
      campaign: { title: `Generic delete ${seq} ${Date.now()}`, clickprice: 0.1 },
    }),
  );
}

/**
 * Each deletable type: who owns it (a plain user, or the admin for the admin-only resources) and how one
 * is made. `path` is the resource's own delete path.
 */
const kinds: {
  type: string;
  path: string;
  adminOnly?: boolean;
  make: (api: Api) => Promise<string>;
}[] = [
  { type: 'sites', path: 'sites', make: siteOf },
  {
    type: 'widgets',
    path: 'widgets',
    make: async (api) =>
      created(await api.post('/api/widgets', { widget: { title: 'W', site_id: await siteOf(api) } })),
  },
  {
    type: 'promotions',
    path: 'promotions',
    make: async (api) =>
      created(
        await api.post('/api/promotions', {
          promotion: { title: 'Sale', site_id: await siteOf(api), url: 'https://shop.example/sale' },
        }),
      ),
  },
  {
    type: 'promotionpages',
    path: 'promotionpages',
    make: async (api) => {
      const promotionId = await created(
        await api.post('/api/promotions', {
          promotion: { title: 'Sale', site_id: await siteOf(api), url: 'https://shop.example/sale' },
        }),
      );
      return created(
        await api.post('/api/promotionpages', {
          promotionpage: { title: 'TVs', promotion_id: promotionId, url: 'https://shop.example/tv' },
        }),
      );
    },
  },
  {
    type: 'socialgroups',
    path: 'socialgroups',
    make: async (api) =>
      created(
        await api.post('/api/socialgroups', {
          socialgroup: { title: 'FB', site_id: await siteOf(api), facebook_page_id: '111111' },
        }),
      ),
  },
  { type: 'campaigns', path: 'campaigns', make: campaignOf },
  {
    type: 'banners',
    path: 'banners',
    make: async (api) =>
      created(
        await api.post('/api/banners', {
          banner: { campaign_id: await campaignOf(api), title: 'Boots', url: 'https://shop.example/boots' },
        }),
      ),
  },
  {
    type: 'landings',
    path: 'landings',
    make: async (api) => created(await api.post('/api/landings', { landing: { title: 'Spring' } })),
  },
  {
    type: 'pixels',
    path: 'pixels',
    make: async (api) => created(await api.post('/api/pixels', { pixel: { title: 'Checkout' } })),
  },
  {
    type: 'agencies',
    path: 'agencies',
    make: async (api) => created(await api.post('/api/agencies', { agency: { title: 'Acme Media' } })),
  },
  {
    type: 'partners',
    path: 'partners',
    adminOnly: true,
    make: async (api) => {
      const agency = await userWithRole(t, 'agency');
      seq += 1;
      return created(
        await api.post('/api/partners', { partner: { title: `North ${seq}`, user_id: agency.user_id } }),
      );
    },
  },
  {
    type: 'dsppartners',
    path: 'dsppartners',
    adminOnly: true,
    make: async (api) => {
      seq += 1;
      return created(
        await api.post('/api/dsppartners', {
          dsppartner: { name: `Demand ${seq}`, endpoint: 'https://dsp.example/openrtb2' },
        }),
      );
    },
  },
  {
    type: 'dsppartnerblacklist',
    path: 'dsppartnerblacklist',
    adminOnly: true,
    make: async (api) => {
      seq += 1;
      const partner = await created(
        await api.post('/api/dsppartners', {
          dsppartner: { name: `Listed ${seq}`, endpoint: 'https://dsp.example/openrtb2' },
        }),
      );
      return created(
        await api.post('/api/dsppartnerblacklist', {
          dsppartnerblacklist: { dsp_partner_id: partner, source: 'spam.example' },
        }),
      );
    },
  },
  {
    type: 'prebidpartners',
    path: 'prebidpartners',
    adminOnly: true,
    make: async (api) => {
      seq += 1;
      return created(await api.post('/api/prebidpartners', { prebidpartner: { name: `PBS ${seq}` } }));
    },
  },
  {
    type: 'rtbpartners',
    path: 'rtbpartners',
    adminOnly: true,
    make: async (api) => {
      seq += 1;
      return created(await api.post('/api/rtbpartners', { rtbpartner: { name: `SSP ${seq}` } }));
    },
  },
];

/** The answer without what differs between two calls of the same kind (nothing should). */
const answer = (res: { statusCode: number; body: string }) => ({ status: res.statusCode, body: res.body });

describe('DELETE /api/entities/{type}/{id}', () => {
  for (const kind of kinds) {
    test(`${kind.type}: others get what the resource's own delete answers; the owner deletes it`, async () => {
      const owner = kind.type === 'agencies' ? await agencyUser() : await user();
      const ownerApi = kind.adminOnly ? admin : owner.api;
      const id = await kind.make(ownerApi);
      const stranger = await user();
      const strangerAgency = await agencyUser();

      // every caller who may not delete it: the generic call answers exactly what the own delete answers
      const callers: [string, Api][] = [
        ['a stranger', stranger.api],
        ['another agency', strangerAgency.api],
        ['a read-only admin', adminRo],
        ['a read-only user', userRo],
        ['a dummy', dummy],
      ];
      if (kind.adminOnly) callers.push(['the owner of nothing', owner.api]);
      for (const [who, api] of callers) {
        const own = await api.del(`/api/${kind.path}/${id}`);
        const generic = await api.del(`/api/entities/${kind.type}/${id}`);
        expect([403, 404], `${who}: ${own.body}`).toContain(own.statusCode);
        expect(answer(generic), who).toEqual(answer(own));
      }
      if (!kind.adminOnly) {
        // a foreign id is unknown to a stranger, as everywhere
        expect((await stranger.api.del(`/api/entities/${kind.type}/${id}`)).statusCode).toBe(404);
      } else {
        expect((await owner.api.del(`/api/entities/${kind.type}/${id}`)).statusCode).toBe(403);
      }
      // still there after all those refusals
      expect((await ownerApi.get(`/api/${kind.path}/${id}`)).statusCode).toBe(200);

      const res = await ownerApi.del(`/api/entities/${kind.type}/${id}`);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      expect((await ownerApi.get(`/api/${kind.path}/${id}`)).statusCode).toBe(404);
      // a second delete: gone, as the own delete says
      const again = await ownerApi.del(`/api/entities/${kind.type}/${id}`);
      expect(answer(again)).toEqual(answer(await ownerApi.del(`/api/${kind.path}/${id}`)));
      expect(again.statusCode).toBe(404);
    });
  }

  test("an admin deletes a user's entity through it; the singular name works too", async () => {
    const u = await user();
    const pixel = await kinds.find((k) => k.type === 'pixels')!.make(u.api);
    const campaign = await campaignOf(u.api);
    expect((await admin.del(`/api/entities/pixel/${pixel}`)).statusCode).toBe(204);
    expect((await admin.del(`/api/entities/Campaign/${campaign}`)).statusCode).toBe(204);
    expect((await u.api.get(`/api/pixels/${pixel}`)).statusCode).toBe(404);
    expect((await u.api.get(`/api/campaigns/${campaign}`)).statusCode).toBe(404);
  });

  test('an unknown type is a 400 in the caller language; users cannot be deleted through it', async () => {
    const u = await user();
    const res = await u.api.del('/api/entities/spaceships/1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'unknown_entity_type' });
    expect(res.json().message).toContain('Unknown entity type: spaceships');
    expect(res.json().message).toContain('campaigns');
    for (const type of ['users', 'user', 'constructor', '__proto__', 'toString']) {
      expect((await admin.del(`/api/entities/${type}/${u.user_id}`)).statusCode, type).toBe(400);
    }
    expect((await u.api.get(`/api/users/${u.user_id}`)).statusCode).toBe(200);
    const de = await t.app.inject({
      method: 'DELETE',
      url: '/api/entities/spaceships/1',
      headers: { authorization: `Bearer ${u.access_token}`, 'accept-language': 'de' },
    });
    expect(de.statusCode).toBe(400);
    expect(de.json().message).toContain('Unbekannter Objekttyp: spaceships');
  });

  test('the own delete speaks the caller language through it too; bad ids and no token', async () => {
    const u = await user();
    const de = await t.app.inject({
      method: 'DELETE',
      url: '/api/entities/campaigns/987654321',
      headers: { authorization: `Bearer ${u.access_token}`, 'accept-language': 'de' },
    });
    expect(de.statusCode).toBe(404);
    expect(de.json().message).toBe('Keine Daten gefunden.');
    expect((await u.api.del('/api/entities/campaigns/abc')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/entities/campaigns/1' })).statusCode).toBe(401);
  });
});

async function agencyUser() {
  const u = await userWithRole(t, 'agency');
  return { ...u, api: as(t.app, u.access_token) };
}
