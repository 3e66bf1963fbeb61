import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import type { DbOrTx } from '../db/tx.ts';
import { sqlStateOf } from '../lib/unique.ts';
import { creditLedgerCtes } from './credit-ledger.ts';
import type { ClickOutcome, ClickWrite } from './delivery.repository.ts';

/** The charged clicks' credits: `charged.ord` names the click, the rows say `delivery` and `clicks:<n>`. */
const clickCredits = creditLedgerCtes({
  booked: 'charged',
  key: 'ord int',
  source: 'delivery',
  ref: 'clicks',
  income: 'click_income',
  incomeRef: false,
});

/**
 * The whole charge of a batch of clicks as ONE statement, so a batch costs one round trip to the database
 * (and its commit) instead of one per step: the click charge's rate is bound by how long a batch holds the
 * hot rows (a busy campaign, a busy publisher), and on a busy server most of that time was the round trips.
 *
 * What the statement does, in the order PostgreSQL must do it (every later step reads an earlier one):
 * 1. `locked`: locks the charged clicks' campaigns in id order (two batches wait, never deadlock on them)
 *    and reads their balances as committed by any batch that held them before.
 * 2. `decided`: a click is charged only while its campaign is switched on (the ad index learns of a switch-off
 *    a moment later: its clicks in flight are `not_serving`) and its balance covers it and every charged
 *    click before it in the batch (a running sum per campaign), so a balance never goes below zero.
 * 3. `ins`: every click row once; a token already written (before: a unique key of `clicks`, its token key
 *    or its click id, which is the token key's keyed hash; or earlier in this batch: `first`, by click id) is
 *    a replay: not written, not charged. A replay within the batch is not counted against its campaign's
 *    balance either; one of a token written before is (a replay only reaches the charge when the shared
 *    store lost its claim), which can refuse a later click of the batch as `no_balance` at a tight balance.
 * 4. the written charged clicks debit their campaigns (a `campaign_ledger` row each, its `balance_after`
 *    the debited balance), credit the publisher, agency and referrers (a `ledger` row per user and type,
 *    `balance_after` exact when one user earns twice), and the platform's income (credit-ledger.ts, the
 *    DSP wins' booking writes its credits with the same SQL).
 * Statistics are not written here: the engine adds each click to its buffered rollups with its outcome.
 */
export async function chargeClicks(db: DbOrTx, batch: ClickWrite[]): Promise<ClickOutcome[]> {
  if (batch.length === 0) return [];
  // one array per click, its values in the order of `input`'s columns: half the JSON of objects with their
  // keys, which the server writes, sends and PostgreSQL reads again for every click
  const clicks = batch.map((c, ord) => [
    ord,
    c.row.clickId,
    c.row.tokenKey,
    c.charge ? 'charged' : 'invalid',
    c.row.reason ?? null,
    c.row.campaignId,
    c.row.bannerId,
    c.row.siteId,
    c.row.widgetId,
    c.row.visitorId ?? '',
    c.row.ip ?? '',
    c.row.country ?? '',
    c.row.city ?? '',
    c.row.device ?? '',
    c.row.os ?? '',
    c.row.browser ?? '',
    c.row.referrer ?? '',
    String(c.charge?.price ?? 0n),
    String(c.row.publisherEarned ?? 0n),
    String(c.row.agencyEarned ?? 0n),
    String(c.row.referralEarned ?? 0n),
    String(c.charge?.platform ?? 0n),
  ]);
  const credits = batch.flatMap((c, ord) => (c.charge?.credits ?? []).map((cr) => ({ ...cr, of: ord })));
  const result = await executeNamed(
    db,
    'adp_charge_clicks',
    sql`
    with input as (
      select (e->>0)::int as ord, e->>1 as click_id, e->>2 as token_key, e->>3 as want, e->>4 as reason,
        (e->>5)::bigint as campaign_id, (e->>6)::bigint as banner_id, (e->>7)::bigint as site_id,
        (e->>8)::bigint as widget_id, e->>9 as visitor_id, e->>10 as ip, e->>11 as country, e->>12 as city,
        e->>13 as device, e->>14 as os, e->>15 as browser, e->>16 as referrer, (e->>17)::bigint as price,
        (e->>18)::bigint as publisher_earned, (e->>19)::bigint as agency_earned,
        (e->>20)::bigint as referral_earned, (e->>21)::bigint as platform_earned
      from jsonb_array_elements(${JSON.stringify(clicks)}::jsonb) as e
    ),
    locked as materialized (
      select c.id, c.balance, c.status from campaigns c
      where c.id in (select campaign_id from input where want = 'charged')
      order by c.id
      for update of c
    ),
    numbered as (
      select *, row_number() over (partition by click_id order by ord) = 1 as first from input
    ),
    decided as materialized (
      select i.*,
        coalesce(i.first and i.want = 'charged' and l.status = 'active' and l.balance >= sum(
            case when i.first and i.want = 'charged' then i.price else 0 end)
          over (partition by i.campaign_id order by i.ord rows unbounded preceding), false) as ok,
        case when l.status is distinct from 'active' then 'not_serving' else 'no_balance' end as refused
      from numbered i left join locked l on l.id = i.campaign_id
    ),
    ins as (
      insert into clicks (click_id, token_key, status, reason, campaign_id, banner_id, site_id, widget_id,
        visitor_id, ip, country, city, device, os, browser, referrer, price, publisher_earned, agency_earned,
        referral_earned, platform_earned)
      select click_id, token_key, case when ok then 'charged' else 'invalid' end,
        case when ok then null when want = 'charged' then refused else coalesce(reason, 'invalid') end,
        campaign_id, banner_id, site_id, widget_id, visitor_id, ip, country, city, device, os, browser,
        referrer, case when ok then price else 0 end, case when ok then publisher_earned else 0 end,
        case when ok then agency_earned else 0 end, case when ok then referral_earned else 0 end,
        case when ok then platform_earned else 0 end
      from decided where first order by ord
      on conflict do nothing
      returning click_id, status
    ),
    charged as materialized (
      select d.* from decided d join ins on ins.click_id = d.click_id and d.first where ins.status = 'charged'
    ),
    debits as (
      select campaign_id, sum(price) as s, count(*) as n from charged group by campaign_id
    ),
    debited as (
      update campaigns c set balance = c.balance - d.s from debits d where c.id = d.campaign_id
      returning c.id, c.balance
    ),
    campaign_rows as (
      insert into campaign_ledger (campaign_id, type, sum, balance_after, ref)
      select d.campaign_id, 'campaign_charge', -d.s, debited.balance, 'clicks:' || d.n
      from debits d join debited on debited.id = d.campaign_id
    ),
    ${clickCredits(credits)}
    select d.ord, d.want, d.reason, d.refused, d.ok, ins.click_id is not null as written
    from decided d left join ins on ins.click_id = d.click_id and d.first
    order by d.ord`,
  );
  // both drivers answer {rows}; the shared Db type cannot say so
  const rows = (
    result as unknown as {
      rows: { ok: boolean; want: string; reason: string | null; refused: string; written: boolean }[];
    }
  ).rows;
  return rows.map((r): ClickOutcome => {
    if (!r.written) return { status: 'invalid', reason: 'replayed' };
    if (r.ok) return { status: 'charged' };
    return { status: 'invalid', reason: r.want === 'charged' ? r.refused : (r.reason ?? 'invalid') };
  });
}

/** Connections whose server lost a named statement once: they prepared it again. */
const lostOnce = new WeakSet<pg.PoolClient>();
/** Connections whose server lost one twice (a pooler in transaction mode, most likely): they run unprepared. */
const unprepared = new WeakSet<pg.PoolClient>();

/**
 * Runs a statement that is sent many times a second under one name on PostgreSQL: each pooled connection
 * parses and plans it once, then only binds the parameters (planning the charge's CTEs was about a third of
 * its time in the database). The embedded database, and a transaction's handle, run it as usual.
 *
 * A server that lost the statement the connection prepared (26000: DISCARD ALL, DEALLOCATE, a pooler in
 * transaction mode) or has one of that name node-pg did not prepare there (42P05: a pooler) ran nothing,
 * so the statement is sent again on the same connection: the first time prepared again (node-pg forgets it
 * had prepared it, so the next batches only bind again), after that unprepared for good on that connection.
 * The connection is kept (pool.query would drop it on any error, and the next batch would open another);
 * any other error drops it, as pool.query does.
 */
async function executeNamed(db: DbOrTx, name: string, query: SQL): Promise<unknown> {
  const pool = (db as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return db.execute(query);
  const dialect = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } })
    .dialect;
  const q = dialect.sqlToQuery(query);
  const client = await pool.connect();
  let failed: Error | undefined;
  // the connection itself failed (while checked out, its errors are ours to take, as pool.query does)
  const onError = (err: Error) => {
    failed ??= err;
  };
  client.on('error', onError);
  try {
    let named = !unprepared.has(client);
    for (;;) {
      try {
        return await client.query(
          named ? { name, text: q.sql, values: q.params } : { text: q.sql, values: q.params },
        );
      } catch (err) {
        const code = named ? sqlStateOf(err) : undefined;
        if (code === '26000' && !lostOnce.has(client)) {
          lostOnce.add(client);
          forgetPrepared(client, name);
        } else if (code === '26000' || code === '42P05') {
          unprepared.add(client);
          named = false;
        } else {
          throw err;
        }
      }
    }
  } catch (err) {
    failed ??= err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release(failed);
  }
}

/**
 * Makes node-pg send the named statement's Parse again on this connection: it records the names it
 * prepared per connection (`connection.parsedStatements`, read by Query#hasBeenParsed) and otherwise only
 * binds them, which a server that lost the statement answers 26000 for ever.
 */
function forgetPrepared(client: pg.PoolClient, name: string): void {
  const connection = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } })
    .connection;
  if (connection?.parsedStatements) delete connection.parsedStatements[name];
}
