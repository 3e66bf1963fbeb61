import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { agencyMembers, users } from '../../db/schema/index.ts';
import { ADMIN, as, createTestApp, login, type TestApp, userWithRole } from '../../test/test-app.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

let seq = 0;
/** An agency user, its agency and one member created by it. */
async function agencyWithMember() {
  seq += 1;
  const owner = await userWithRole(t, 'agency');
  const agency = as(t.app, owner.access_token);
  const created = await agency.post('/api/agencies', { agency: { title: `Agency ${seq}` } });
  const agencyId = created.json()._id as string;
  const member = {
    name: `Member ${seq}`,
    email: `role-member${seq}@test.local`,
    password: 'member-password-1',
  };
  const added = await agency.post(`/api/agencies/${agencyId}/addmember`, { member });
  expect(added.statusCode).toBe(201);
  return { owner, agency, agencyId, member: { ...member, _id: added.json()._id as string } };
}

async function userRow(id: string) {
  const [row] = await t.database.db
    .select()
    .from(users)
    .where(eq(users.id, Number(id)));
  return row;
}

test('a member made admin leaves its agency: the agency can no longer rename, re-address, reset or remove it', async () => {
  const { agency, agencyId, member } = await agencyWithMember();
  // while it is a member the agency manages it
  const rename = await agency.put(`/api/agencies/${agencyId}/members/${member._id}`, {
    member: { name: 'Renamed' },
  });
  expect(rename.statusCode).toBe(200);

  const promoted = await admin.post(`/api/users/${member._id}/changeroles`, { role: 'admin' });
  expect(promoted.statusCode).toBe(200);
  const rows = await t.database.db
    .select()
    .from(agencyMembers)
    .where(eq(agencyMembers.userId, Number(member._id)));
  expect(rows).toEqual([]);

  // the takeover: new name and the attacker's address, then a password reset to that address
  const viaAgency = await agency.put(`/api/agencies/${agencyId}/members/${member._id}`, {
    member: { name: 'Hijacked', email: 'attacker@test.local' },
  });
  expect(viaAgency.statusCode).toBe(404);
  const viaUsers = await agency.put(`/api/users/${member._id}`, {
    user: { name: 'Hijacked', email: 'attacker@test.local' },
  });
  expect(viaUsers.statusCode).toBe(404);
  const password = await agency.post(`/api/users/${member._id}/changepassword`, {
    password: 'taken-over-password-1',
    current_password: member.password,
  });
  expect(password.statusCode).toBe(404);
  expect((await agency.get(`/api/users/${member._id}`)).statusCode).toBe(404);
  const remove = await agency.post(`/api/agencies/${agencyId}/removemember`, { user_id: member._id });
  expect(remove.statusCode).toBe(422);
  expect(remove.json().errors[0]).toMatchObject({ field: 'user_id', code: 'not_a_member' });
  const members = await agency.get(`/api/agencies/${agencyId}/members`);
  expect(members.json().total).toBe(0);

  const row = await userRow(member._id);
  expect(row).toMatchObject({ role: 'admin', name: 'Renamed', email: member.email });
  // the new admin still logs in with its own password
  await login(t.app, member.email, member.password);
});

test('every role but agencymember ends the membership; a role set behind the API grants nothing either', async () => {
  for (const role of ['default', 'agency', 'adminreadonly', 'defaultreadonly', 'dummy']) {
    const { agency, agencyId, member } = await agencyWithMember();
    expect((await admin.post(`/api/users/${member._id}/changeroles`, { role })).statusCode).toBe(200);
    const res = await agency.put(`/api/agencies/${agencyId}/members/${member._id}`, {
      member: { name: 'x' },
    });
    expect(res.statusCode, role).toBe(404);
  }
  // a role changed directly in the database (a migration, a script) keeps the row but grants no rights
  const { agency, agencyId, member } = await agencyWithMember();
  await t.database.db
    .update(users)
    .set({ role: 'admin' })
    .where(eq(users.id, Number(member._id)));
  expect(
    (await agency.put(`/api/agencies/${agencyId}/members/${member._id}`, { member: { name: 'x' } }))
      .statusCode,
  ).toBe(404);
  expect((await agency.put(`/api/users/${member._id}`, { user: { name: 'x' } })).statusCode).toBe(404);
  expect((await agency.get(`/api/agencies/${agencyId}`)).json().members_count).toBe(0);
});

test('changing a member to agencymember again keeps it where it is', async () => {
  const { agency, agencyId, member } = await agencyWithMember();
  expect(
    (await admin.post(`/api/users/${member._id}/changeroles`, { role: 'agencymember' })).statusCode,
  ).toBe(200);
  expect(
    (await agency.put(`/api/agencies/${agencyId}/members/${member._id}`, { member: { name: 'Still mine' } }))
      .statusCode,
  ).toBe(200);
});
