import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, register, type TestApp } from '../../test/test-app.ts';
import { entityLogChanges, listEntityLogs, recordEntityLog } from './entity-logs.repository.ts';

describe('entityLogChanges', () => {
  test('an update keeps only the fields that differ and were sent', () => {
    expect(entityLogChanges({ a: 1, b: 'x', c: [1] }, { a: 2, b: 'x', c: [1, 2] })).toEqual({
      a: { before: 1, after: 2 },
      c: { before: [1], after: [1, 2] },
    });
    expect(entityLogChanges({ a: 1, b: 2 }, { a: 1 })).toEqual({});
  });
  test('a create lists every value, a delete every former one; _id and times never count', () => {
    expect(entityLogChanges(null, { _id: '1', a: 1, created_at: 'x' })).toEqual({
      a: { before: null, after: 1 },
    });
    expect(entityLogChanges({ _id: '1', a: 1 }, null)).toEqual({ a: { before: 1, after: null } });
  });
  test('only the given fields are logged', () => {
    expect(entityLogChanges({ a: 1, secret: 's' }, { a: 2, secret: 't' }, ['a'])).toEqual({
      a: { before: 1, after: 2 },
    });
  });
});

describe('recordEntityLog in the caller transaction', () => {
  let t: TestApp;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp();
    userId = (await register(t.app)).user_id;
  });
  afterAll(() => t.close());

  test('rows are written with the change, none for an empty update, and listed newest first', async () => {
    const db = t.database.db;
    await db.transaction(async (tx) => {
      await recordEntityLog(tx, {
        entityType: 'thing',
        entityId: 5,
        userId,
        action: 'create',
        before: null,
        after: { name: 'A', rate: 1 },
      });
    });
    await recordEntityLog(db, {
      entityType: 'thing',
      entityId: 5,
      userId,
      action: 'update',
      before: { name: 'A', rate: 1 },
      after: { name: 'A', rate: 1 },
    });
    await db.transaction(async (tx) => {
      await recordEntityLog(tx, {
        entityType: 'thing',
        entityId: 5,
        userId,
        action: 'update',
        before: { name: 'A', rate: 1 },
        after: { name: 'B', rate: 1 },
      });
    });
    // a rolled-back change leaves no log row
    await expect(
      db.transaction(async (tx) => {
        await recordEntityLog(tx, {
          entityType: 'thing',
          entityId: 5,
          userId: null,
          action: 'delete',
          before: { name: 'B' },
          after: null,
        });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await recordEntityLog(db, {
      entityType: 'other',
      entityId: 5,
      userId,
      action: 'delete',
      before: { x: 1 },
      after: null,
    });

    const page = await listEntityLogs(db, 'thing', 5, { page: 1, limit: 20 });
    expect(page.total).toBe(2);
    expect(page.items.map((l) => l.action)).toEqual(['update', 'create']);
    expect(page.items[0]).toMatchObject({
      entity_type: 'thing',
      entity_id: '5',
      user_id: userId,
      user_name: expect.any(String),
      changes: [{ field: 'name', before: 'A', after: 'B' }],
    });
    expect(page.items[1]?.changes).toEqual([
      { field: 'name', before: null, after: 'A' },
      { field: 'rate', before: null, after: 1 },
    ]);
    const second = await listEntityLogs(db, 'thing', 5, { page: 2, limit: 1 });
    expect(second.items.map((l) => l.action)).toEqual(['create']);
  });
});
