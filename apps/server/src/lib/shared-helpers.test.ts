import { abilityFor } from '@adp/permissions';
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { openPglite } from '../db/client.ts';
import { AppError, FieldsError } from './errors.ts';
import { afterChange, changesAny, decisionColumns, initialModeration } from './moderation.ts';
import { containsPattern, pageOf } from './paging.ts';
import { uniqueAs422, uniqueViolation } from './unique.ts';
import { visibleBy } from './visible.ts';

describe('paging', () => {
  test('a page answers its window of rows, the total and the page asked for', async () => {
    const windows: unknown[] = [];
    const page = await pageOf(
      { page: 3, limit: 10 },
      Promise.resolve([{ n: 25 }]),
      async (w) => {
        windows.push(w);
        return [1, 2, 3, 4, 5];
      },
      (x) => x * 2,
    );
    expect(windows).toEqual([{ limit: 10, offset: 20 }]);
    expect(page).toEqual({ items: [2, 4, 6, 8, 10], total: 25, page: 3, limit: 10 });
  });

  test('a search pattern takes the wildcards a user typed literally', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('unique violations', () => {
  test('the error of either driver, bare or wrapped, is recognised; others are not', () => {
    expect(uniqueViolation({ code: '23505', constraint: 'sites_domain_unique' })).toEqual({
      constraint: 'sites_domain_unique',
    });
    expect(uniqueViolation(Object.assign(new Error('query failed'), { cause: { code: '23505' } }))).toEqual({
      constraint: undefined,
    });
    expect(uniqueViolation({ code: '23503' })).toBeUndefined();
    expect(uniqueViolation(new Error('boom'))).toBeUndefined();
    expect(uniqueViolation(null)).toBeUndefined();
  });

  test('a real PGlite unique violation through drizzle becomes a 422 on the field', async () => {
    const database = await openPglite(undefined);
    try {
      await database.db.execute(sql`create table t (name text unique)`);
      await database.db.execute(sql`insert into t values ('a')`);
      const err = await uniqueAs422('name', 'title_taken', () =>
        database.db.execute(sql`insert into t values ('a')`),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FieldsError);
      expect((err as FieldsError).fields).toEqual([{ field: 'name', code: 'title_taken' }]);
      // any other failure passes through untouched
      const other = await uniqueAs422('name', 'title_taken', () =>
        database.db.execute(sql`insert into missing values (1)`),
      ).catch((e: unknown) => e);
      expect(other).not.toBeInstanceOf(FieldsError);
    } finally {
      await database.close();
    }
  });
});

describe('load it or 404', () => {
  const rows = new Map([
    [1, { id: 1, userId: 7 }],
    [2, { id: 2, userId: 8 }],
  ]);
  const visible = visibleBy('Site', async (id) => rows.get(id));
  const owner = abilityFor({ id: '7', role: 'default' });

  test('the owner gets its row; another row and an unknown id look the same: 404', async () => {
    expect(await visible('1', owner)).toEqual({ id: 1, userId: 7 });
    for (const id of ['2', '3']) {
      const err = await visible(id, owner).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(404);
    }
    expect(await visible(2, abilityFor({ id: '1', role: 'admin' }))).toEqual({ id: 2, userId: 8 });
  });

  test('an id named in a body answers 422 on its field instead', async () => {
    const err = (await visible('2', owner, 'site_id').catch((e: unknown) => e)) as AppError;
    expect([err.status, err.code, err.field]).toEqual([422, 'not_found', 'site_id']);
  });
});

describe('moderation', () => {
  test('a change by a non-moderator of what was approved goes back to moderation', () => {
    const before = { title: 'A', urls: ['x'] };
    expect(changesAny(before, { title: 'A', urls: ['x'] }, ['title', 'urls'])).toBe(false);
    expect(changesAny(before, { urls: ['x', 'y'] }, ['title', 'urls'])).toBe(true);
    expect(changesAny<'title' | 'urls'>(before, { title: 'B' }, ['urls'])).toBe(false);
    expect(afterChange(true, false)).toEqual({ moderation: 'pending', moderationReason: null });
    expect(afterChange(true, true)).toEqual({});
    expect(afterChange(false, false)).toEqual({});
  });

  test('a decision writes its state and reason; something new is approved only when a moderator made it', () => {
    expect(decisionColumns({ decision: 'approve' })).toEqual({
      moderation: 'approved',
      moderationReason: null,
    });
    expect(decisionColumns({ decision: 'reject', reason: 'Spam' })).toEqual({
      moderation: 'rejected',
      moderationReason: 'Spam',
    });
    expect(initialModeration(true)).toBe('approved');
    expect(initialModeration(false)).toBe('pending');
  });
});
