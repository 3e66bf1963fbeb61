import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agencyMembers, users } from '../../db/schema/index.ts';
import {
  ADMIN,
  as,
  createTestApp,
  login,
  register,
  type TestApp,
  userWithRole,
} from '../../test/test-app.ts';

type Client = ReturnType<typeof as>;

let t: TestApp;
let dataDir: string;
let admin: Client;
/** Two agency users, a plain client, a readonly admin. */
let agencyA: Awaited<ReturnType<typeof register>>;
let agencyB: Awaited<ReturnType<typeof register>>;
let client: Awaited<ReturnType<typeof register>>;
let readonlyAdmin: Awaited<ReturnType<typeof register>>;
let a: Client;
let b: Client;
let d: Client;
let ro: Client;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'adp-agencies-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  agencyA = await userWithRole(t, 'agency');
  agencyB = await userWithRole(t, 'agency');
  client = await register(t.app);
  readonlyAdmin = await userWithRole(t, 'adminreadonly');
  a = as(t.app, agencyA.access_token);
  b = as(t.app, agencyB.access_token);
  d = as(t.app, client.access_token);
  ro = as(t.app, readonlyAdmin.access_token);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const input = (over: Record<string, unknown> = {}) => ({ agency: { title: 'Acme Media', ...over } });

async function newAgency(owner: Client, over: Record<string, unknown> = {}) {
  const res = await owner.post('/api/agencies', input(over));
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json() as { _id: string; user_id: string; logo: string | null };
}

let memberSeq = 0;
async function addMember(owner: Client, agencyId: string, over: Record<string, unknown> = {}) {
  memberSeq += 1;
  const member = {
    name: `Member ${memberSeq}`,
    email: `member${memberSeq}-${Date.now()}@test.local`,
    password: 'member-password-1',
    ...over,
  };
  const res = await owner.post(`/api/agencies/${agencyId}/addmember`, { member });
  if (res.statusCode !== 201) throw new Error(`addmember failed: ${res.statusCode} ${res.body}`);
  return { ...(res.json() as { _id: string; email: string }), password: member.password };
}

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
function multipart(bytes: Buffer, filename: string, type: string) {
  const boundary = '----adpTestBoundary7MA4YWxkTrZu0gW';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    '0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d49444154089963f8cfc0f01f00050001ffabce36890000000049454e44ae426082',
    'hex',
  ),
]);
const GIF = Buffer.from(
  '474946383961010001008000004c697100000021f90405000000002c00000000010001000002024c01003b',
  'hex',
);

async function uploadLogo(
  token: string,
  agencyId: string,
  bytes: Buffer,
  name = 'logo.png',
  type = 'image/png',
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/agencies/${agencyId}/logo`,
    ...multipart(bytes, name, type),
    headers: { ...multipart(bytes, name, type).headers, authorization: `Bearer ${token}` },
  });
}

describe('creating', () => {
  test('an agency user creates its own agency (its rates are the admin-set defaults)', async () => {
    const res = await a.post('/api/agencies', input({ agency_rate: 0, showlogo: false }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      user_id: agencyA.user_id,
      title: 'Acme Media',
      logo: null,
      agency_rate: 0,
      phoenix_rate: 0,
      campaign_rate: 0,
      showlogo: false,
      showamount: true,
      members_count: 0,
    });
    expect(res.json()._id).toMatch(/^\d+$/);
  });

  test("an agency user cannot create one for someone else (422 on user_id); clients, readonly admins and dummies can't at all", async () => {
    const foreign = await a.post('/api/agencies', input({ user_id: agencyB.user_id }));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors[0]).toMatchObject({ field: 'user_id', code: 'not_found' });
    expect((await d.post('/api/agencies', input())).statusCode).toBe(403);
    expect((await ro.post('/api/agencies', input({ user_id: agencyB.user_id }))).statusCode).toBe(403);
    const dummy = await userWithRole(t, 'dummy');
    expect((await as(t.app, dummy.access_token).post('/api/agencies', input())).statusCode).toBe(403);
    const member = await userWithRole(t, 'agencymember');
    expect((await as(t.app, member.access_token).post('/api/agencies', input())).statusCode).toBe(403);
  });

  test('an admin creates one for an agency user; the owner must have the agency role', async () => {
    const res = await admin.post('/api/agencies', input({ title: 'B for admin', user_id: agencyB.user_id }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ user_id: agencyB.user_id, title: 'B for admin' });
    for (const body of [input({ user_id: client.user_id }), input(), input({ user_id: '999999' })]) {
      const bad = await admin.post('/api/agencies', body);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors[0]).toMatchObject({ field: 'user_id', code: 'role_not_agency' });
      expect(bad.json().errors[0].detail).toBe('Only a user with the agency role can own an agency');
    }
  });

  test('bad input is 422 with translated details', async () => {
    const res = await a.post('/api/agencies', input({ title: '  ', agency_rate: 101, showamount: 'yes' }));
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors as { field: string; detail: string }[];
    expect(errors.map((e) => e.field).sort()).toEqual(['agency_rate', 'showamount', 'title']);
    expect(errors.find((e) => e.field === 'title')?.detail).toBe("Title can't be blank");
    expect(errors.find((e) => e.field === 'agency_rate')?.detail).toMatch(/^Agency rate .*100/);
    const ru = await t.app.inject({
      method: 'POST',
      url: '/api/agencies',
      headers: { authorization: `Bearer ${agencyA.access_token}`, 'accept-language': 'ru' },
      payload: { agency: { title: '' } },
    });
    expect(ru.statusCode).toBe(422);
    expect(ru.json().errors[0].detail).toBe('Поле «Название» не может быть пустым');
    expect((await a.post('/api/agencies', { title: 'unwrapped' })).statusCode).toBe(422);
    expect((await a.post('/api/agencies', input({ logo: 'x.png' }))).statusCode).toBe(422);
  });
});

describe('reading', () => {
  test('an admin lists every agency, filtered by owner with account; a readonly admin too', async () => {
    const all = await admin.get('/api/agencies?limit=500');
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBeGreaterThanOrEqual(2);
    const ofB = await admin.get(`/api/agencies?account=${agencyB.user_id}`);
    expect(ofB.json().items.every((x: { user_id: string }) => x.user_id === agencyB.user_id)).toBe(true);
    expect(ofB.json().total).toBeGreaterThanOrEqual(1);
    expect((await ro.get('/api/agencies')).json().total).toBe(all.json().total);
    const paged = await admin.get('/api/agencies?limit=1&page=2');
    expect(paged.json()).toMatchObject({ page: 2, limit: 1, total: all.json().total });
    expect(paged.json().items).toHaveLength(1);
    expect((await admin.get('/api/agencies?account=abc')).statusCode).toBe(422);
  });

  test('an agency user lists only its own, whatever account it asks for', async () => {
    const mine = await a.get('/api/agencies');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().total).toBeGreaterThanOrEqual(1);
    expect(mine.json().items.every((x: { user_id: string }) => x.user_id === agencyA.user_id)).toBe(true);
    expect((await a.get(`/api/agencies?account=${agencyB.user_id}`)).json()).toMatchObject({
      total: 0,
      items: [],
    });
  });

  test('one agency: its owner and admins see it; another agency and a client get 404', async () => {
    const mine = await newAgency(a, { title: 'Visible' });
    expect((await a.get(`/api/agencies/${mine._id}`)).json()).toMatchObject({
      _id: mine._id,
      title: 'Visible',
    });
    expect((await admin.get(`/api/agencies/${mine._id}`)).statusCode).toBe(200);
    expect((await ro.get(`/api/agencies/${mine._id}`)).statusCode).toBe(200);
    expect((await b.get(`/api/agencies/${mine._id}`)).statusCode).toBe(404);
    expect((await d.get(`/api/agencies/${mine._id}`)).statusCode).toBe(404);
    expect((await admin.get('/api/agencies/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/agencies/x1')).statusCode).toBe(404);
  });

  test('a client cannot list agencies', async () => {
    expect((await d.get('/api/agencies')).statusCode).toBe(403);
  });
});

describe('editing', () => {
  test('the owner and an admin edit; another agency gets 404, a readonly admin 403', async () => {
    const mine = await newAgency(a);
    const res = await a.put(`/api/agencies/${mine._id}`, {
      agency: { title: 'Renamed', campaign_rate: 0 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Renamed', campaign_rate: 0, agency_rate: 0 });
    expect(
      (await admin.put(`/api/agencies/${mine._id}`, { agency: { title: 'By admin' } })).json().title,
    ).toBe('By admin');
    expect((await b.put(`/api/agencies/${mine._id}`, { agency: { title: 'x' } })).statusCode).toBe(404);
    expect((await ro.put(`/api/agencies/${mine._id}`, { agency: { title: 'x' } })).statusCode).toBe(403);
    const bad = await a.put(`/api/agencies/${mine._id}`, { agency: { title: '', user_id: agencyB.user_id } });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['title', 'user_id']);
  });

  test('fields left out of an edit keep their values (no create defaults on update)', async () => {
    const mine = await newAgency(admin, {
      user_id: agencyA.user_id,
      agency_rate: 12.5,
      showlogo: false,
      showamount: false,
    });
    const put = await a.put(`/api/agencies/${mine._id}`, { agency: { title: 'Only the title' } });
    expect(put.json()).toMatchObject({
      title: 'Only the title',
      agency_rate: 12.5,
      showlogo: false,
      showamount: false,
    });
    const settings = await admin.post(`/api/agencies/${mine._id}/settings`, {
      settings: { phoenix_rate: 3 },
    });
    expect(settings.json()).toMatchObject({
      phoenix_rate: 3,
      agency_rate: 12.5,
      showlogo: false,
      showamount: false,
    });
  });

  test('settings change the rates (an admin) and flags', async () => {
    const mine = await newAgency(a);
    const res = await admin.post(`/api/agencies/${mine._id}/settings`, {
      settings: {
        agency_rate: 10,
        phoenix_rate: 20.5,
        campaign_rate: 30,
        showlogo: false,
        showamount: false,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      agency_rate: 10,
      phoenix_rate: 20.5,
      campaign_rate: 30,
      showlogo: false,
      showamount: false,
      title: 'Acme Media',
    });
    // the database keeps two decimals: a third is refused, not rounded to 100
    const fine = await admin.post(`/api/agencies/${mine._id}/settings`, {
      settings: { agency_rate: 99.999 },
    });
    expect(fine.statusCode).toBe(422);
    expect(fine.json().errors[0]).toMatchObject({ field: 'agency_rate', code: 'percent' });
    const bad = await a.post(`/api/agencies/${mine._id}/settings`, {
      settings: { phoenix_rate: -1, title: 'x' },
    });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['phoenix_rate', 'title']);
    expect(
      (await ro.post(`/api/agencies/${mine._id}/settings`, { settings: { agency_rate: 1 } })).statusCode,
    ).toBe(403);
    expect(
      (await b.post(`/api/agencies/${mine._id}/settings`, { settings: { agency_rate: 1 } })).statusCode,
    ).toBe(404);
  });
});

describe('members', () => {
  test('an agency creates a member: a new agencymember user that can log in', async () => {
    const mine = await newAgency(a);
    const member = await addMember(a, mine._id, { phone: '+49 30 1234567' });
    expect(member).toMatchObject({ role: 'agencymember', balance: 0, phone: '+49 30 1234567' });
    const tokens = await login(t.app, member.email, member.password);
    expect(tokens.role).toBe('agencymember');
    expect((await a.get(`/api/agencies/${mine._id}`)).json().members_count).toBe(1);
    const list = await a.get(`/api/agencies/${mine._id}/members`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, page: 1, limit: 20, items: [{ _id: member._id }] });
  });

  test('a taken e-mail is 422 email_taken; bad fields are 422; only the owner and admins add', async () => {
    const mine = await newAgency(a);
    const taken = await a.post(`/api/agencies/${mine._id}/addmember`, {
      member: { name: 'Dup', email: client.email.toUpperCase(), password: 'password-123' },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors[0]).toMatchObject({
      field: 'email',
      code: 'email_taken',
      detail: 'This email is already registered',
    });
    const bad = await a.post(`/api/agencies/${mine._id}/addmember`, {
      member: { name: '', email: 'not-an-email', password: 'short' },
    });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'name', 'password']);
    const body = { member: { name: 'N', email: 'nobody-new@test.local', password: 'password-123' } };
    expect((await ro.post(`/api/agencies/${mine._id}/addmember`, body)).statusCode).toBe(403);
    expect((await b.post(`/api/agencies/${mine._id}/addmember`, body)).statusCode).toBe(404);
    expect((await d.post(`/api/agencies/${mine._id}/addmember`, body)).statusCode).toBe(404);
    const byAdmin = await admin.post(`/api/agencies/${mine._id}/addmember`, body);
    expect(byAdmin.statusCode).toBe(201);
  });

  test("an agency reads and updates its member's account, not a stranger's; a member sees only its own", async () => {
    const mine = await newAgency(a);
    const member = await addMember(a, mine._id);
    const memberClient = as(t.app, (await login(t.app, member.email, member.password)).access_token);

    const read = await a.get(`/api/users/${member._id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ _id: member._id, role: 'agencymember' });
    const upd = await a.put(`/api/users/${member._id}`, { user: { name: 'Renamed by agency' } });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().name).toBe('Renamed by agency');
    expect((await a.get(`/api/users/${client.user_id}`)).statusCode).toBe(404);
    expect((await b.get(`/api/users/${member._id}`)).statusCode).toBe(404);
    const listed = (await a.get('/api/users?limit=500')).json().items.map((u: { _id: string }) => u._id);
    expect(listed).toContain(member._id);
    expect(listed).toContain(agencyA.user_id);
    expect(listed).not.toContain(client.user_id);

    expect((await memberClient.get(`/api/users/${member._id}`)).statusCode).toBe(200);
    expect((await memberClient.get(`/api/users/${agencyA.user_id}`)).statusCode).toBe(404);
    // the member sees the agency it belongs to, and only that one, and cannot change it
    expect((await memberClient.get(`/api/agencies/${mine._id}`)).statusCode).toBe(200);
    const its = await memberClient.get('/api/agencies');
    expect(its.json()).toMatchObject({ total: 1, items: [{ _id: mine._id }] });
    expect((await memberClient.put(`/api/agencies/${mine._id}`, { agency: { title: 'x' } })).statusCode).toBe(
      403,
    );
    // …nor the other members' accounts
    expect((await memberClient.get(`/api/agencies/${mine._id}/members`)).statusCode).toBe(403);
    expect((await ro.get(`/api/agencies/${mine._id}/members`)).statusCode).toBe(200);
    expect((await admin.get(`/api/agencies/${mine._id}/members`)).json().total).toBe(1);

    // the dashboard's stored ability carries the member ids
    const me = (await a.get('/api/auth/me')).json();
    expect(JSON.stringify(me.ability)).toContain(`"${member._id}"`);
  });

  test("an agency sees and manages its members' sites; another agency does not", async () => {
    const mine = await newAgency(a);
    const member = await addMember(a, mine._id);
    const memberClient = as(t.app, (await login(t.app, member.email, member.password)).access_token);
    const created = await memberClient.post('/api/sites', {
      site: { title: 'Member news', domain: 'member-news.example', category: 'business' },
    });
    expect(created.statusCode).toBe(201);
    const siteId = created.json()._id as string;
    const byAgency = await a.post('/api/sites', {
      site: {
        title: 'Made by agency',
        domain: 'agency-made.example',
        category: 'business',
        user_id: member._id,
      },
    });
    expect(byAgency.statusCode).toBe(201);
    expect(byAgency.json().user_id).toBe(member._id);

    const listed = await a.get(`/api/sites?account=${member._id}`);
    expect(listed.json().total).toBe(2);
    expect((await a.get(`/api/sites/${siteId}`)).statusCode).toBe(200);
    const renamed = await a.put(`/api/sites/${siteId}`, { site: { title: 'Renamed by agency' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().title).toBe('Renamed by agency');

    expect((await b.get(`/api/sites/${siteId}`)).statusCode).toBe(404);
    expect((await b.get(`/api/sites?account=${member._id}`)).json().total).toBe(0);
    // the member sees its own sites only, not the agency's
    expect((await memberClient.get('/api/sites')).json().total).toBe(2);
    expect((await memberClient.get(`/api/sites?account=${agencyA.user_id}`)).json().total).toBe(0);
  });

  test("an agency sees and manages its members' campaigns; another agency does not", async () => {
    const mine = await newAgency(a);
    const member = await addMember(a, mine._id);
    const memberClient = as(t.app, (await login(t.app, member.email, member.password)).access_token);
    const created = await memberClient.post('/api/campaigns', {
      campaign: { title: `Member campaign ${member._id}`, clickprice: 0.2 },
    });
    expect(created.statusCode).toBe(201);
    const campaignId = created.json()._id as string;
    expect((await a.get(`/api/campaigns?account=${member._id}`)).json().total).toBe(1);
    const renamed = await a.put(`/api/campaigns/${campaignId}`, { campaign: { brand_name: 'Agency brand' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().brand_name).toBe('Agency brand');
    expect((await b.get(`/api/campaigns/${campaignId}`)).statusCode).toBe(404);
    expect((await b.get(`/api/campaigns?account=${member._id}`)).json().total).toBe(0);
    // the member sees only its own campaigns
    const agencyOwn = await a.post('/api/campaigns', {
      campaign: { title: `Agency own ${mine._id}`, clickprice: 0.2 },
    });
    expect((await memberClient.get(`/api/campaigns/${agencyOwn.json()._id}`)).statusCode).toBe(404);
  });

  test('a member is edited through its agency, not its e-mail (admins only); uniqueness holds; strangers are 404', async () => {
    const mine = await newAgency(a);
    const member = await addMember(a, mine._id);
    const url = `/api/agencies/${mine._id}/members/${member._id}`;
    const res = await a.put(url, { member: { name: 'New name', phone: '+1 555 0100', email: member.email } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'New name', phone: '+1 555 0100', email: member.email });
    // an agency that set its member's address could take the account over with a password reset mailed
    // there: the address is the member's own or an admin's to change, through either door
    for (const attempt of [
      () => a.put(url, { member: { email: `NEW-${member.email}` } }),
      () => a.put(`/api/users/${member._id}`, { user: { email: `new-${member.email}` } }),
    ]) {
      const refused = await attempt();
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors[0]).toMatchObject({ field: 'email', code: 'email_change_not_allowed' });
    }
    expect((await a.get(`/api/users/${member._id}`)).json().email).toBe(member.email);
    const byAdmin = await admin.put(url, { member: { email: `NEW-${member.email}` } });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json().email).toBe(`new-${member.email}`);
    const taken = await admin.put(url, { member: { email: agencyB.email } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors[0]).toMatchObject({ field: 'email', code: 'email_taken' });
    // its own e-mail again is fine, for the agency too
    expect((await a.put(url, { member: { email: `new-${member.email}` } })).statusCode).toBe(200);
    expect(
      (await a.put(`/api/agencies/${mine._id}/members/${client.user_id}`, { member: { name: 'x' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await b.put(`/api/agencies/${mine._id}/members/${member._id}`, { member: { name: 'x' } })).statusCode,
    ).toBe(404);
    expect(
      (await ro.put(`/api/agencies/${mine._id}/members/${member._id}`, { member: { name: 'x' } })).statusCode,
    ).toBe(403);
    expect(
      (await a.put(`/api/agencies/${mine._id}/members/${member._id}`, { member: { phone: 'call me' } }))
        .statusCode,
    ).toBe(422);
  });

  test('removing a member detaches it: the user stays, the agency loses sight of it', async () => {
    const mine = await newAgency(a);
    const member = await addMember(a, mine._id);
    const notMember = await a.post(`/api/agencies/${mine._id}/removemember`, { user_id: client.user_id });
    expect(notMember.statusCode).toBe(422);
    expect(notMember.json().errors[0]).toMatchObject({
      field: 'user_id',
      code: 'not_a_member',
      detail: 'This user is not a member of the agency',
    });
    expect(
      (await ro.post(`/api/agencies/${mine._id}/removemember`, { user_id: member._id })).statusCode,
    ).toBe(403);
    expect((await b.post(`/api/agencies/${mine._id}/removemember`, { user_id: member._id })).statusCode).toBe(
      404,
    );
    expect((await a.post(`/api/agencies/${mine._id}/removemember`, { user_id: 'x' })).statusCode).toBe(422);

    const res = await a.post(`/api/agencies/${mine._id}/removemember`, { user_id: member._id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: mine._id, members_count: 0 });
    const [row] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.id, Number(member._id)));
    // the account stays, as a default user's
    expect(row?.role).toBe('default');
    await login(t.app, member.email, member.password);
    expect((await a.get(`/api/users/${member._id}`)).statusCode).toBe(404);
    expect((await a.post(`/api/agencies/${mine._id}/removemember`, { user_id: member._id })).statusCode).toBe(
      422,
    );
  });

  test('the members list is paged', async () => {
    const mine = await newAgency(a);
    for (let i = 0; i < 3; i++) await addMember(a, mine._id);
    const page = await a.get(`/api/agencies/${mine._id}/members?limit=2&page=2`);
    expect(page.json()).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.json().items).toHaveLength(1);
    expect((await b.get(`/api/agencies/${mine._id}/members`)).statusCode).toBe(404);
  });
});

describe('owns.agencies', () => {
  test('the account counts the agencies its user owns', async () => {
    const owner = await userWithRole(t, 'agency');
    const c = as(t.app, owner.access_token);
    expect((await c.get(`/api/users/${owner.user_id}`)).json().owns).toEqual({
      pixels: 0,
      agencies: 0,
      sites: 0,
      campaigns: 0,
    });
    const first = await newAgency(c);
    await admin.post('/api/agencies', input({ user_id: owner.user_id }));
    expect((await c.get(`/api/users/${owner.user_id}`)).json().owns.agencies).toBe(2);
    expect((await c.get('/api/auth/me')).json().account.owns.agencies).toBe(2);
    const listed = (await admin.get('/api/users?limit=500'))
      .json()
      .items.find((u: { _id: string }) => u._id === owner.user_id);
    expect(listed.owns.agencies).toBe(2);
    expect(
      (await c.put(`/api/users/${owner.user_id}`, { user: { name: 'Owner' } })).json().owns.agencies,
    ).toBe(2);
    await c.del(`/api/agencies/${first._id}`);
    expect((await c.get(`/api/users/${owner.user_id}`)).json().owns.agencies).toBe(1);
  });
});

describe('logo', () => {
  test('a png logo is stored and served publicly with cache headers', async () => {
    const mine = await newAgency(a);
    const res = await uploadLogo(agencyA.access_token, mine._id, PNG);
    expect(res.statusCode).toBe(200);
    const logo = res.json().logo as string;
    expect(logo).toMatch(new RegExp(`^/uploads/agencies/${mine._id}-[0-9a-f]{16}\\.png$`));
    const served = await t.app.inject({ method: 'GET', url: logo });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // what is stored is the logo written again as PNG, not the uploaded bytes
    expect(served.rawPayload.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);
    expect(existsSync(join(dataDir, 'uploads', logo.slice('/uploads/'.length)))).toBe(true);

    // a replacement gets a new key and the old file goes
    const gif = await uploadLogo(agencyA.access_token, mine._id, GIF, 'x.gif', 'image/gif');
    // a GIF is stored as the PNG we write of it
    expect(gif.json().logo).toMatch(/\.png$/);
    expect(gif.json().logo).not.toBe(logo);
    expect((await t.app.inject({ method: 'GET', url: logo })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: gif.json().logo })).headers['content-type']).toBe(
      'image/png',
    );
  });

  test("a member's session names its agency: title, the logo while showlogo, whether its money shows", async () => {
    const mine = await newAgency(a, { title: 'Nordlicht Media' });
    const logo = (await uploadLogo(agencyA.access_token, mine._id, PNG)).json().logo as string;
    const member = await addMember(a, mine._id);
    const meOf = async () =>
      (
        await as(t.app, (await login(t.app, member.email, member.password)).access_token).get('/api/auth/me')
      ).json().agency;
    expect(await meOf()).toEqual({ title: 'Nordlicht Media', logo, showamount: true });
    await a.put(`/api/agencies/${mine._id}`, { agency: { showlogo: false, showamount: false } });
    expect(await meOf()).toEqual({ title: 'Nordlicht Media', logo: null, showamount: false });
    // the owner and everyone outside an agency: none
    expect((await a.get('/api/auth/me')).json().agency).toBeNull();
    expect((await d.get('/api/auth/me')).json().agency).toBeNull();
    // a removed member is a default user again, with no agency
    await a.post(`/api/agencies/${mine._id}/removemember`, { user_id: member._id });
    expect(await meOf()).toBeNull();
  });

  test('the type is read from the bytes: a renamed text file, an svg, a big file or no file are 422', async () => {
    const mine = await newAgency(a);
    const cases = [
      await uploadLogo(
        agencyA.access_token,
        mine._id,
        Buffer.from('hello, not an image'),
        'logo.png',
        'image/png',
      ),
      await uploadLogo(
        agencyA.access_token,
        mine._id,
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'logo.svg',
        'image/svg+xml',
      ),
      await uploadLogo(
        agencyA.access_token,
        mine._id,
        Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]),
        'big.png',
        'image/png',
      ),
      await t.app.inject({
        method: 'POST',
        url: `/api/agencies/${mine._id}/logo`,
        headers: { authorization: `Bearer ${agencyA.access_token}` },
        payload: { logo: 'x' },
      }),
    ];
    for (const res of cases) {
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ field: 'file', code: 'invalid_file' });
      expect(res.json().errors[0].detail).toBe('This file type or size is not accepted');
    }
    expect((await a.get(`/api/agencies/${mine._id}`)).json().logo).toBeNull();
  });

  test('only the owner and admins upload; unknown files are 404', async () => {
    const mine = await newAgency(a);
    expect((await uploadLogo(readonlyAdmin.access_token, mine._id, PNG)).statusCode).toBe(403);
    expect((await uploadLogo(agencyB.access_token, mine._id, PNG)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/uploads/agencies/1-0000.png' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/uploads/../../etc/passwd' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/uploads/%2e%2e/secret.png' })).statusCode).toBe(404);
  });
});

describe('deleting', () => {
  test('the owner deletes its agency; members keep their accounts but are detached; the logo goes', async () => {
    const mine = await newAgency(a);
    const member = await addMember(a, mine._id);
    const logo = (await uploadLogo(agencyA.access_token, mine._id, PNG)).json().logo as string;
    expect((await b.del(`/api/agencies/${mine._id}`)).statusCode).toBe(404);
    expect((await ro.del(`/api/agencies/${mine._id}`)).statusCode).toBe(403);
    const memberClient = as(t.app, (await login(t.app, member.email, member.password)).access_token);
    expect((await memberClient.del(`/api/agencies/${mine._id}`)).statusCode).toBe(403);

    const res = await a.del(`/api/agencies/${mine._id}`);
    expect(res.statusCode).toBe(204);
    expect((await a.get(`/api/agencies/${mine._id}`)).statusCode).toBe(404);
    expect(
      await t.database.db
        .select()
        .from(agencyMembers)
        .where(eq(agencyMembers.userId, Number(member._id))),
    ).toEqual([]);
    // in no agency now: a default user, no longer labelled a member
    expect((await admin.get(`/api/users/${member._id}`)).json().role).toBe('default');
    expect((await a.get(`/api/users/${member._id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: logo })).statusCode).toBe(404);
  });

  test('an admin deletes any agency', async () => {
    const theirs = await newAgency(b);
    expect((await admin.del(`/api/agencies/${theirs._id}`)).statusCode).toBe(204);
    expect((await admin.del(`/api/agencies/${theirs._id}`)).statusCode).toBe(404);
  });
});
