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

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

async function balanceAndLedgerSum(userId: string) {
  const account = (await admin.get(`/api/users/${userId}`)).json();
  const sum = await t.ctxLedgerSum(userId);
  return { balance: account.balance as number, sum };
}

describe('admin payments', () => {
  test('an admin pays a user: balance, payments and transactions show it', async () => {
    const u = await register(t.app);
    const res = await admin.post(`/api/users/${u.user_id}/payments`, {
      payment: { sum: 25.5, type: 'admin_payment', source: 'bonus' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      user_id: u.user_id,
      type: 'admin_payment',
      sum: 25.5,
      balance_after: 25.5,
      source: 'bonus',
    });
    expect((await admin.get(`/api/users/${u.user_id}`)).json().balance).toBe(25.5);
    const me = as(t.app, u.access_token);
    const payments = (await me.get(`/api/users/${u.user_id}/payments`)).json();
    expect(payments).toMatchObject({ total: 1, items: [{ sum: 25.5, type: 'admin_payment' }] });
    const tx = (await me.get(`/api/users/${u.user_id}/transactions?page=1&limit=10`)).json();
    expect(tx.items[0]).toMatchObject({ sum: 25.5, balance_after: 25.5 });
  });

  test('an adjustment may be negative but never takes the balance below zero', async () => {
    const u = await register(t.app);
    await admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum: 10, type: 'admin_payment' } });
    const ok = await admin.post(`/api/users/${u.user_id}/payments`, {
      payment: { sum: -4.25, type: 'adjustment' },
    });
    expect(ok.statusCode).toBe(201);
    const tooMuch = await admin.post(`/api/users/${u.user_id}/payments`, {
      payment: { sum: -6, type: 'adjustment' },
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors[0]).toMatchObject({ field: 'sum', code: 'insufficient_balance' });
    const negativePayment = await admin.post(`/api/users/${u.user_id}/payments`, {
      payment: { sum: -1, type: 'admin_payment' },
    });
    expect(negativePayment.statusCode).toBe(422);
    expect((await admin.get(`/api/users/${u.user_id}`)).json().balance).toBe(5.75);
  });

  test('money is exact to the micro-unit and refuses more decimals', async () => {
    const u = await register(t.app);
    for (const sum of [0.1, 0.2, 0.000001])
      await admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum } });
    expect((await admin.get(`/api/users/${u.user_id}`)).json().balance).toBe(0.300001);
    const zero = await admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum: 0 } });
    expect(zero.statusCode).toBe(422);
    expect(zero.json().errors).toHaveLength(1);
    const bad = await admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum: 0.0000001 } });
    expect(bad.statusCode).toBe(422);
  });

  test('only an admin pays: a readonly admin, the user itself and others are refused', async () => {
    const u = await register(t.app);
    const ro = await userWithRole(t, 'adminreadonly');
    expect(
      (await as(t.app, ro.access_token).post(`/api/users/${u.user_id}/payments`, { payment: { sum: 5 } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await as(t.app, u.access_token).post(`/api/users/${u.user_id}/payments`, { payment: { sum: 5 } }))
        .statusCode,
    ).toBe(403);
    const other = await register(t.app);
    expect(
      (await as(t.app, other.access_token).post(`/api/users/${u.user_id}/payments`, { payment: { sum: 5 } }))
        .statusCode,
    ).toBe(404);
    expect((await as(t.app, other.access_token).get(`/api/users/${u.user_id}/transactions`)).statusCode).toBe(
      404,
    );
    // the readonly admin still reads everything
    expect((await as(t.app, ro.access_token).get(`/api/users/${u.user_id}/transactions`)).statusCode).toBe(
      200,
    );
    expect((await admin.get(`/api/users/${u.user_id}`)).json().balance).toBe(0);
    // an admin's own balance is another admin's to change (four eyes)
    const me = (await admin.get('/api/auth/me')).json().account._id;
    const own = await admin.post(`/api/users/${me}/payments`, { payment: { sum: 1000 } });
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe('own_payment');
  });
});

test('50 concurrent payments and withdrawals: the balance equals the ledger sum', async () => {
  const u = await register(t.app);
  await admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum: 20 } });
  const me = as(t.app, u.access_token);
  const ops = Array.from({ length: 50 }, (_, i) =>
    i % 2 === 0
      ? admin.post(`/api/users/${u.user_id}/payments`, { payment: { sum: 1.5, type: 'admin_payment' } })
      : me.post(`/api/users/${u.user_id}/withdrawals`, {
          withdrawal: { sum: 10, method: 'paypal', details: 'me@pay.pal' },
        }),
  );
  const results = await Promise.all(ops);
  const credits = results.filter((r, i) => i % 2 === 0 && r.statusCode === 201).length;
  const debits = results.filter((r, i) => i % 2 === 1 && r.statusCode === 201).length;
  const refused = results.filter((r, i) => i % 2 === 1 && r.statusCode === 422).length;
  expect(credits).toBe(25);
  expect(debits + refused).toBe(25);
  const { balance, sum } = await balanceAndLedgerSum(u.user_id);
  expect(balance).toBe(20 + credits * 1.5 - debits * 10);
  expect(balance).toBe(sum);
  expect(balance).toBeGreaterThanOrEqual(0);
});
