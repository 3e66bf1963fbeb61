import { describe, expect, test } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import type { Ledger } from '../ledger/ledger.service.ts';
import type { AdsenseRepository, ImportWithTotals } from './adsense.repository.ts';
import { APPROVE_ATTEMPTS, createAdsense } from './adsense.service.ts';

/** A driver error as drizzle hands it on: the SQLSTATE on the wrapped cause. */
const dbError = (code: string) =>
  Object.assign(new Error('Failed query'), { cause: Object.assign(new Error(code), { code }) });

const imported: ImportWithTotals = {
  id: 7,
  fileName: 'adsense.csv',
  format: 'current',
  currency: 'USD',
  status: 'approved',
  uploadedBy: 1,
  approvedBy: 1,
  approvedAt: new Date('2026-11-27T12:00:00Z'),
  createdAt: new Date('2026-11-27T11:00:00Z'),
  rowsCount: 0,
  errorRows: 0,
  revenue: '0',
  siteIncome: '0',
  ownIncome: '0',
};

/** A repository of one import without rows whose transaction fails with `failures` first, in order. */
function fakeRepo(failures: unknown[]) {
  const calls = { transactions: 0, approvedRuns: 0 };
  const repo = {
    existingSiteIds: async () => new Set<number>(),
    findImport: async () => imported,
    rows: async () => [],
    siteTerms: async () => new Map(),
    approvedPairs: async () => new Set<string>(),
    markApproved: async () => ({ id: imported.id }),
    claimCredits: async () => {},
    updateRow: async () => {},
    async transaction<T>(work: (tx: never) => Promise<T>) {
      calls.transactions++;
      const failure = failures.shift();
      if (failure) throw failure;
      calls.approvedRuns++;
      return work({} as never);
    },
  };
  return { repo: repo as unknown as AdsenseRepository, calls };
}

const ledger = { move: async () => {} } as unknown as Ledger;
const t = (code: string) => code;
const approve = (repo: AdsenseRepository) => createAdsense(repo, ledger).approve({ _id: '7' }, 1, t);

describe('AdSense approval under deadlocks and serialization failures', () => {
  test.each(['40P01', '40001'])(
    'SQLSTATE %s: the transaction runs again and the approval succeeds',
    async (code) => {
      const { repo, calls } = fakeRepo([dbError(code), dbError(code)]);
      const res = await approve(repo);
      expect(res).toMatchObject({ _id: '7', status: 'approved' });
      expect(calls).toEqual({ transactions: 3, approvedRuns: 1 });
    },
  );

  test('still failing after the last attempt: a retryable 503, not the "credited meanwhile" 409', async () => {
    const { repo, calls } = fakeRepo(Array.from({ length: APPROVE_ATTEMPTS }, () => dbError('40P01')));
    const err = await approve(repo).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 503, code: 'adsense_retry' });
    expect(calls.transactions).toBe(APPROVE_ATTEMPTS);
  });

  test('a site day claimed by another import (unique violation) is still the 409, without a retry', async () => {
    const { repo, calls } = fakeRepo([dbError('23505')]);
    await expect(approve(repo)).rejects.toMatchObject({ status: 409, code: 'adsense_credited_meanwhile' });
    expect(calls.transactions).toBe(1);
  });

  test('other failures pass through unchanged, without a retry', async () => {
    const boom = new Error('boom');
    const { repo, calls } = fakeRepo([boom]);
    await expect(approve(repo)).rejects.toBe(boom);
    expect(calls.transactions).toBe(1);
  });
});
