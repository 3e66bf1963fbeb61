import { type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf } from '../app.ts';
import type { Db } from '../db/client.ts';
import { ADMIN, as, createTestApp, login, type TestApp } from '../test/test-app.ts';
import { chargeClicks } from './charge-clicks.ts';
import { chargedClickWrite, publisherWithWidget, runningCampaign } from './delivery-fixtures.test-helper.ts';

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * A pool of one connection to the test's database, so every batch runs where the first prepared the
 * statement, and what that connection is sent and answered: each Parse (a named one prepares a statement;
 * none when a prepared one is only bound) and the SQLSTATE of each error.
 */
function oneConnection(t: TestApp) {
  const { connectionString } = (t.database.db as unknown as { $client: pg.Pool }).$client.options;
  const pool = new pg.Pool({ connectionString, max: 1 });
  let connections = 0;
  const parses: string[] = [];
  const errors: string[] = [];
  pool.on('connect', (client) => {
    connections++;
    const con = (
      client as unknown as {
        connection: {
          parse(m: { name?: string }): void;
          on(event: 'errorMessage', listener: (m: { code?: string }) => void): void;
        };
      }
    ).connection;
    const parse = con.parse.bind(con);
    con.parse = (m) => {
      parses.push(m.name || 'unnamed');
      parse(m);
    };
    con.on('errorMessage', (m) => errors.push(m.code ?? ''));
  });
  return { pool, db: drizzle(pool) as unknown as Db, parses, errors, connections: () => connections };
}

// A real deadlock needs two connections and prepared statements a real server: PostgreSQL only (npm run test:pg, CI).
describe.skipIf(!process.env.TEST_DATABASE_URL)('the click charge on PostgreSQL', () => {
  let t: TestApp;
  let admin: ReturnType<typeof as>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = as(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).access_token);
  });
  afterAll(() => t.close());

  /** A funded campaign on a publisher's widget, and a charge of one of its clicks through oneConnection. */
  async function chargerOnOneConnection() {
    const p = await publisherWithWidget(t, admin);
    const a = await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    const campaignId = Number(a.campaign._id);
    const one = oneConnection(t);
    // a new click each time (its own click id)
    const charge = () =>
      chargeClicks(one.db, [chargedClickWrite(campaignId, Number(p.user_id), Number(a.banner._id), p)]);
    return { campaignId, ...one, charge };
  }

  test('PostgreSQL aborts the batch on a deadlock; it is run again and charged once', async () => {
    const db = t.database.db;
    const p = await publisherWithWidget(t, admin);
    const a = await runningCampaign(t, admin, { campaign: { site_id: p.site._id } });
    const campaignId = Number(a.campaign._id);
    const publisherId = Number(p.user_id);
    const click = chargedClickWrite(campaignId, publisherId, Number(a.banner._id), p);
    const deadlocks = async () =>
      Number(
        (
          await rows<{ n: string }>(
            db,
            sql`select deadlocks::text n from pg_stat_database where datname = current_database()`,
          )
        )[0]?.n,
      );
    const before = await deadlocks();

    // another writer holds the publisher's row, then wants the campaign the batch has locked meanwhile:
    // a cycle. It waits longer before checking for deadlocks, so PostgreSQL aborts the batch, not it.
    let charge: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local deadlock_timeout = '20s'`);
      await tx.execute(sql`select id from users where id = ${publisherId} for update`);
      charge = contextOf(t.app).delivery.repo.commitClicks([click]);
      // the batch has locked the campaign and waits for the publisher's row
      for (let i = 0; ; i++) {
        const waiting = await rows<{ n: number }>(
          db,
          sql`select count(*)::int n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'
                and query like '%jsonb_array_elements%'`,
        );
        if (waiting[0]?.n) break;
        if (i > 200) throw new Error('the batch never waited for the publisher row');
        await new Promise((r) => setTimeout(r, 25));
      }
      await tx.execute(sql`select id from campaigns where id = ${campaignId} for update`);
    });

    expect(await charge).toEqual([{ status: 'charged' }]);
    // the stats counter is updated asynchronously by the statistics collector
    for (let i = 0; i < 100 && (await deadlocks()) === before; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await deadlocks()).toBe(before + 1);
    const [balances] = await rows<{ campaign: string; publisher: string; charged: number; ledger: string }>(
      db,
      sql`select (select balance::text from campaigns where id = ${campaignId}) campaign,
            (select balance::text from users where id = ${publisherId}) publisher,
            (select count(*)::int from clicks where campaign_id = ${campaignId} and status = 'charged') charged,
            (select coalesce(sum(sum), 0)::text from ledger where user_id = ${publisherId}) ledger`,
    );
    expect(balances).toEqual({ campaign: '99500000', publisher: '250000', charged: 1, ledger: '250000' });
  });

  test('a connection whose server lost the prepared charge statement prepares it again, then keeps it', async () => {
    const { campaignId, pool, parses, errors, connections, charge } = await chargerOnOneConnection();
    const prepared = async () =>
      (await pool.query<{ name: string }>('select name from pg_prepared_statements')).rows.map((r) => r.name);
    const charged = [{ status: 'charged' }];
    try {
      expect(await charge()).toEqual(charged);
      expect(parses).toEqual(['adp_charge_clicks']);
      // what a pooler in transaction mode or DISCARD ALL does to a session's prepared statements
      await pool.query('deallocate all');
      // the next batch finds it gone (nothing ran) and is sent again, preparing it again at once
      expect(await charge()).toEqual(charged);
      expect(errors).toEqual(['26000']);
      expect(parses).toEqual(['adp_charge_clicks', 'adp_charge_clicks']);
      expect(await prepared()).toEqual(['adp_charge_clicks']);
      // and the one after binds it: no second 26000, no Parse
      expect(await charge()).toEqual(charged);
      expect(errors).toEqual(['26000']);
      expect(parses).toEqual(['adp_charge_clicks', 'adp_charge_clicks']);
      // a connection that loses it again (what a pooler in transaction mode does all the time) charges
      // unprepared from then on
      await pool.query('deallocate all');
      expect(await charge()).toEqual(charged);
      expect(await charge()).toEqual(charged);
      expect(errors).toEqual(['26000', '26000']);
      expect(parses).toEqual(['adp_charge_clicks', 'adp_charge_clicks', 'unnamed', 'unnamed']);
      expect(await prepared()).toEqual([]);
      // all on the one connection: none was dropped and opened again
      expect(connections()).toBe(1);
    } finally {
      await pool.end();
    }
    const [n] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int n from clicks where campaign_id = ${campaignId} and status = 'charged'`,
    );
    expect(n?.n).toBe(5);
  });

  test('a connection whose server has a statement of that name it did not prepare charges unprepared', async () => {
    const { pool, parses, errors, connections, charge } = await chargerOnOneConnection();
    try {
      // what a pooler in transaction mode hands over: a server connection another client prepared it on
      await pool.query('prepare adp_charge_clicks as select 1');
      expect(await charge()).toEqual([{ status: 'charged' }]);
      expect(await charge()).toEqual([{ status: 'charged' }]);
      expect(errors).toEqual(['42P05']);
      expect(parses).toEqual(['adp_charge_clicks', 'unnamed', 'unnamed']);
      expect(connections()).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
