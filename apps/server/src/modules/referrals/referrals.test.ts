import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, as, createTestApp, login, register, type TestApp } from '../../test/test-app.ts';
import { createLedger } from '../ledger/ledger.service.ts';
import { createReferrals } from './referrals.service.ts';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await createTestApp();
  admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
});
afterAll(() => t.close());

test('a referrer earns its earn_percent of the platform income from referred users, through the ledger', async () => {
  const referrer = await register(t.app);
  const me = as(t.app, referrer.access_token);
  const affiliateId = (await me.get(`/api/users/${referrer.user_id}`)).json().affiliate_id;
  const referred = await register(t.app, { affiliate_id: affiliateId });
  const stranger = await register(t.app);
  expect(
    (await admin.put(`/api/users/${referrer.user_id}`, { user: { earn_percent: 12.5 } })).json().earn_percent,
  ).toBe(12.5);

  const ledger = createLedger(t.database.db);
  const referrals = createReferrals(t.database.db, ledger, t.config.publicUrl);
  const book = (userId: string, micros: bigint) =>
    t.database.db.transaction((tx) =>
      referrals.bookPlatformIncome(tx, {
        userId: Number(userId),
        micros,
        source: 'clicks',
        ref: 'campaign:1',
      }),
    );
  expect(await book(referred.user_id, 10_000_000n)).toBe(1_250_000n);
  expect(await book(referred.user_id, 7n)).toBe(0n); // 12.5% of 7 micro-units rounds down to nothing
  expect(await book(stranger.user_id, 10_000_000n)).toBe(0n);

  const summary = (await me.get(`/api/users/${referrer.user_id}/referrals`)).json();
  expect(summary).toMatchObject({
    affiliate_id: affiliateId,
    affiliate_url: `http://localhost:8080/register?ref=${affiliateId}`,
    earn_percent: 12.5,
    referred: [{ _id: referred.user_id }],
    total: 1.25,
  });
  expect(summary.earnings).toEqual([{ month: new Date().toISOString().slice(0, 7), sum: 1.25 }]);
  expect((await me.get(`/api/users/${referrer.user_id}`)).json().balance).toBe(1.25);
  expect(await t.ctxLedgerSum(referrer.user_id)).toBe(1.25);
  expect(
    (await as(t.app, stranger.access_token).get(`/api/users/${referrer.user_id}/referrals`)).statusCode,
  ).toBe(404);
});

test('earn_percent and notes are admin-only fields', async () => {
  const u = await register(t.app);
  const me = as(t.app, u.access_token);
  expect((await me.put(`/api/users/${u.user_id}`, { user: { earn_percent: 50 } })).statusCode).toBe(403);
  expect((await me.put(`/api/users/${u.user_id}`, { user: { notes: 'vip' } })).statusCode).toBe(403);
  expect((await admin.put(`/api/users/${u.user_id}`, { user: { earn_percent: 101 } })).statusCode).toBe(422);
});
