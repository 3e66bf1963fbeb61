import { afterAll, beforeAll, expect, test } from 'vitest';
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
  t = await createTestApp({ MIN_PAYOUT: '20' });
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

async function publisherWith(balance: number) {
  const u = await register(t.app);
  await admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum: balance } });
  return { ...u, api: as(t.app, u.access_token) };
}

const request = { method: 'bank_transfer', details: 'IBAN DE89 3704 0044 0532 0130 00' };

test('a publisher requests a payout: the amount is reserved, an admin approves with a reference', async () => {
  const p = await publisherWith(100);
  const res = await p.api.post(`/api/users/${p.user_id}/withdrawals`, {
    withdrawal: { sum: 60, ...request },
  });
  expect(res.statusCode).toBe(201);
  const w = res.json();
  expect(w).toMatchObject({ status: 'pending', sum: 60, method: 'bank_transfer', user_id: p.user_id });
  expect((await p.api.get(`/api/users/${p.user_id}`)).json().balance).toBe(40);
  // the reserved money cannot be asked for twice
  const twice = await p.api.post(`/api/users/${p.user_id}/withdrawals`, {
    withdrawal: { sum: 60, ...request },
  });
  expect(twice.statusCode).toBe(422);
  expect(twice.json().errors[0]).toMatchObject({ field: 'sum', code: 'insufficient_balance' });

  const queue = (await admin.get('/api/withdrawals?status=pending')).json();
  expect(queue.items.map((x: { _id: string }) => x._id)).toContain(w._id);
  const approved = await admin.post(`/api/withdrawals/${w._id}/approve`, { reference: 'SEPA-2026-001' });
  expect(approved.statusCode).toBe(200);
  expect(approved.json()).toMatchObject({ status: 'paid', reference: 'SEPA-2026-001' });
  expect((await p.api.get(`/api/users/${p.user_id}`)).json().balance).toBe(40);
  const mine = (await p.api.get(`/api/users/${p.user_id}/withdrawals`)).json();
  expect(mine.items[0]).toMatchObject({ _id: w._id, status: 'paid' });
  // decided once
  expect((await admin.post(`/api/withdrawals/${w._id}/reject`, { reason: 'late' })).statusCode).toBe(409);
});

test('a rejection releases the reservation through the ledger', async () => {
  const p = await publisherWith(50);
  const w = (
    await p.api.post(`/api/users/${p.user_id}/withdrawals`, { withdrawal: { sum: 30, ...request } })
  ).json();
  const rejected = await admin.post(`/api/withdrawals/${w._id}/reject`, {
    reason: 'Details do not match the account holder',
  });
  expect(rejected.json()).toMatchObject({
    status: 'rejected',
    reason: 'Details do not match the account holder',
  });
  expect((await p.api.get(`/api/users/${p.user_id}`)).json().balance).toBe(50);
  const tx = (await p.api.get(`/api/users/${p.user_id}/transactions`)).json().items;
  expect(tx.map((e: { type: string; sum: number }) => [e.type, e.sum])).toEqual([
    ['refund', 30],
    ['withdrawal', -30],
    ['admin_payment', 50],
  ]);
  expect(await t.ctxLedgerSum(p.user_id)).toBe(50);
});

test('the minimum payout is a setting the admin changes', async () => {
  const p = await publisherWith(100);
  const small = await p.api.post(`/api/users/${p.user_id}/withdrawals`, {
    withdrawal: { sum: 15, ...request },
  });
  expect(small.statusCode).toBe(422);
  expect(small.json().errors[0]).toMatchObject({
    field: 'sum',
    code: 'below_min_payout',
    detail: 'The minimum payout is 20',
  });
  expect((await p.api.get('/api/settings')).json()).toMatchObject({ min_payout: 20 });
  expect((await p.api.put('/api/settings', { settings: { min_payout: 5 } })).statusCode).toBe(403);
  expect((await admin.put('/api/settings', { settings: { min_payout: 5 } })).json()).toMatchObject({
    min_payout: 5,
  });
  expect(
    (await p.api.post(`/api/users/${p.user_id}/withdrawals`, { withdrawal: { sum: 15, ...request } }))
      .statusCode,
  ).toBe(201);
});

test('only admins decide; users see only their own requests', async () => {
  const p = await publisherWith(100);
  const w = (
    await p.api.post(`/api/users/${p.user_id}/withdrawals`, { withdrawal: { sum: 25, ...request } })
  ).json();
  expect((await p.api.post(`/api/withdrawals/${w._id}/approve`, { reference: 'self' })).statusCode).toBe(403);
  const ro = await userWithRole(t, 'adminreadonly');
  expect(
    (await as(t.app, ro.access_token).post(`/api/withdrawals/${w._id}/approve`, { reference: 'x' }))
      .statusCode,
  ).toBe(403);
  const stranger = await register(t.app);
  expect(
    (await as(t.app, stranger.access_token).post(`/api/withdrawals/${w._id}/approve`, { reference: 'x' }))
      .statusCode,
  ).toBe(404);
  const strangersList = (await as(t.app, stranger.access_token).get('/api/withdrawals')).json();
  expect(strangersList.total).toBe(0);
  const readonly = await userWithRole(t, 'defaultreadonly');
  expect(
    (
      await as(t.app, readonly.access_token).post(`/api/users/${readonly.user_id}/withdrawals`, {
        withdrawal: { sum: 25, ...request },
      })
    ).statusCode,
  ).toBe(403);
  const bad = await p.api.post(`/api/users/${p.user_id}/withdrawals`, {
    withdrawal: { sum: 25, method: 'cash-in-envelope', details: '' },
  });
  expect(bad.statusCode).toBe(422);
  expect(
    bad
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort(),
  ).toEqual(['details', 'method']);
});

test("an agency sees its members' withdrawals (as it sees their payments), never requests one for them", async () => {
  const owner = await userWithRole(t, 'agency');
  const agency = as(t.app, owner.access_token);
  const agencyId = (await agency.post('/api/agencies', { agency: { title: 'Payout Agency' } })).json()._id;
  const member = { name: 'Payout Member', email: 'payout-member@test.local', password: 'member-password-1' };
  const memberId = (await agency.post(`/api/agencies/${agencyId}/addmember`, { member })).json()._id;
  await admin.post(`/api/users/${memberId}/payments`, { payment: { sum: 50 } });
  const m = as(t.app, (await login(t.app, member.email, member.password)).access_token);
  const w = (
    await m.post(`/api/users/${memberId}/withdrawals`, { withdrawal: { sum: 30, ...request } })
  ).json();
  const seen = await agency.get(`/api/users/${memberId}/withdrawals`);
  expect(seen.statusCode).toBe(200);
  expect(seen.json().items.map((x: { _id: string }) => x._id)).toEqual([w._id]);
  expect(
    (await agency.post(`/api/users/${memberId}/withdrawals`, { withdrawal: { sum: 5, ...request } }))
      .statusCode,
  ).toBe(403);
  expect([403, 404]).toContain(
    (await agency.post(`/api/withdrawals/${w._id}/approve`, { reference: 'x' })).statusCode,
  );
  // another agency's member stays out of sight
  const other = await publisherWith(40);
  const foreign = await agency.get(`/api/users/${other.user_id}/withdrawals`);
  expect(foreign.statusCode).toBe((await agency.get(`/api/users/${other.user_id}/payments`)).statusCode);
  expect(foreign.statusCode).toBeGreaterThanOrEqual(403);
});

test("an admin's own payout is decided by another admin (four eyes), not by itself", async () => {
  const second = await userWithRole(t, 'admin');
  const other = as(t.app, second.access_token);
  await admin.post(`/api/users/${second.user_id}/payments`, { payment: { sum: 50 } });
  const w = (
    await other.post(`/api/users/${second.user_id}/withdrawals`, { withdrawal: { sum: 30, ...request } })
  ).json();
  for (const decision of [
    other.post(`/api/withdrawals/${w._id}/approve`, { reference: 'self' }),
    other.post(`/api/withdrawals/${w._id}/reject`, { reason: 'self' }),
  ]) {
    const res = await decision;
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('own_withdrawal');
  }
  const approved = await admin.post(`/api/withdrawals/${w._id}/approve`, { reference: 'SEPA-9' });
  expect(approved.json()).toMatchObject({ status: 'paid', reference: 'SEPA-9' });
  // nor can an admin ask for someone else's payout, to details of the admin's choosing
  const before = (await admin.get(`/api/users/${second.user_id}`)).json().balance;
  const forOther = await admin.post(`/api/users/${second.user_id}/withdrawals`, {
    withdrawal: { sum: 10, ...request },
  });
  expect(forOther.statusCode).toBe(403);
  expect(forOther.json().error).toBe('not_own_withdrawal');
  expect((await admin.get(`/api/users/${second.user_id}`)).json().balance).toBe(before);
});

test('MIN_PAYOUT must be a positive amount: anything else stops the start (the settings page answered 500)', async () => {
  const { loadConfig } = await import('../../config.ts');
  expect(loadConfig({}).minPayout).toBe(10);
  expect(loadConfig({ MIN_PAYOUT: '2.5' }).minPayout).toBe(2.5);
  for (const bad of ['abc', '-5', '0', '1e3', '10.1234567'])
    expect(() => loadConfig({ MIN_PAYOUT: bad }), bad).toThrow(/MIN_PAYOUT must be a positive amount/);
});
