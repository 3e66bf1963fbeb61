import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { basisPoints, type RollupDelta, siteAgencyRate, upsertRollups } from './delivery.repository.ts';

/** The job's name (the System page's list). */
export const CPM_EARNINGS_JOB = 'cpm-earnings';

const HOUR_MS = 3_600_000;
/** An hour is closed (its counts flushed by every instance) this long after it ends. */
const CLOSE_LAG_MS = 5 * 60_000;
/** How far back a late run still pays (a job that did not run for a while catches up this far). */
const CATCH_UP_MS = 48 * HOUR_MS;
/** Widget hours credited per run at most (the next run takes the rest). */
const BATCH = 5000;

/** Both drivers answer `{rows}`; the shared Db type cannot say so. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

interface Candidate {
  hour: string;
  widget_id: string;
  site_id: string;
  user_id: string;
  rendered: string;
  earn_value: string;
  agency_user_id: string | null;
  agency_rate: string;
}

/**
 * CPM payment (a site's `payment_method` `cpm`): the publisher earns per thousand of its widgets' drawn
 * answers (`widget_traffic.rendered`, the impression beacons counted), at the widget's earn value as an
 * amount per thousand, and nothing per click or DSP win (money-split.ts). Run hourly: every closed UTC hour
 * of a CPM site since the whole hour after its payment method last changed, not yet paid, is credited once
 * (`cpm_credits` holds the hours paid, written with the credits in one transaction: two instances running
 * it pay an hour once). The site owner's agency gets its rate of the earning, as of a click's; the platform
 * pays it all (`platform_ledger` `cpm_payout`, negative); the statistics count the publisher's part as
 * earned (rollups under campaign 0, as no advertiser paid for it).
 */
export async function creditCpmEarnings(
  db: Db,
  now = new Date(),
): Promise<{ hours: number; earned: bigint }> {
  const closedBefore = new Date(Math.floor((now.getTime() - CLOSE_LAG_MS) / HOUR_MS) * HOUR_MS);
  const since = new Date(now.getTime() - CATCH_UP_MS);
  return db.transaction(async (tx) => {
    const found = await tx.execute(sql`
      select t.hour::text as hour, t.widget_id::text as widget_id, t.site_id::text as site_id,
        sites.user_id::text as user_id, t.rendered::text as rendered, w.earn_value::text as earn_value,
        (select a.user_id from agency_members m
          join agencies a on a.id = m.agency_id join users u on u.id = m.user_id
          join users o on o.id = a.user_id
          where m.user_id = sites.user_id and u.role = 'agencymember' and o.role = 'agency' limit 1)::text
          as agency_user_id,
        (${siteAgencyRate()})::text as agency_rate
      from widget_traffic t
      join sites on sites.id = t.site_id
      join widgets w on w.id = t.widget_id
      where sites.payment_method = 'cpm'
        and t.rendered > 0
        and t.hour < ${closedBefore.toISOString()}::timestamptz
        and t.hour >= ${since.toISOString()}::timestamptz
        and t.hour >= date_trunc('hour', sites.payment_method_changed_at) + interval '1 hour'
        and not exists (select 1 from cpm_credits c where c.hour = t.hour and c.widget_id = t.widget_id)
      order by t.hour, t.widget_id
      limit ${BATCH}`);
    const rows = rowsOf<Candidate>(found);
    if (!rows.length) return { hours: 0, earned: 0n };

    const planned = rows.map((r) => {
      const gross = (BigInt(r.rendered) * BigInt(r.earn_value)) / 1000n;
      const agencyUserId = r.agency_user_id === null ? null : Number(r.agency_user_id);
      const agency = agencyUserId ? (gross * basisPoints(r.agency_rate)) / 10_000n : 0n;
      return { ...r, gross, agencyUserId, agency, publisher: gross - agency };
    });
    // the hours this run pays: another instance's run may have taken some meanwhile
    const inserted = await tx.execute(sql`
      insert into cpm_credits (hour, widget_id, site_id, user_id, impressions, sum)
      select hour, widget_id, site_id, user_id, impressions, sum
      from jsonb_to_recordset(${JSON.stringify(
        planned.map((p) => ({
          hour: p.hour,
          widget_id: p.widget_id,
          site_id: p.site_id,
          user_id: p.user_id,
          impressions: p.rendered,
          sum: String(p.gross),
        })),
      )}::jsonb) as r(hour timestamptz, widget_id bigint, site_id bigint, user_id bigint, impressions bigint,
        sum bigint)
      on conflict (hour, widget_id) do nothing
      returning hour::text as hour, widget_id::text as widget_id`);
    const paid = new Set(
      rowsOf<{ hour: string; widget_id: string }>(inserted).map(
        (r) => `${new Date(r.hour).getTime()}|${r.widget_id}`,
      ),
    );
    const mine = planned.filter((p) => paid.has(`${new Date(p.hour).getTime()}|${p.widget_id}`));

    // each user's credits by type, in user id order (two runs wait for each other, never deadlock)
    const credits = new Map<string, { userId: number; type: string; sum: bigint; n: number }>();
    const add = (userId: number, type: string, sum: bigint) => {
      if (sum <= 0n) return;
      const key = `${String(userId).padStart(20, '0')}|${type}`;
      const c = credits.get(key) ?? { userId, type, sum: 0n, n: 0 };
      c.sum += sum;
      c.n += 1;
      credits.set(key, c);
    };
    for (const p of mine) {
      add(Number(p.user_id), 'publisher_earning', p.publisher);
      if (p.agencyUserId) add(p.agencyUserId, 'agency_earning', p.agency);
    }
    let total = 0n;
    for (const key of [...credits.keys()].sort()) {
      const c = credits.get(key)!;
      const updated = await tx.execute(
        sql`update users set balance = balance + ${String(c.sum)}::bigint where id = ${c.userId}
            returning balance::text as balance`,
      );
      const [row] = rowsOf<{ balance: string }>(updated);
      if (!row) continue; // the account is gone: nothing to credit
      await tx.execute(sql`
        insert into ledger (user_id, type, sum, balance_after, source, ref)
        values (${c.userId}, ${c.type}, ${String(c.sum)}::bigint, ${row.balance}::bigint, 'cpm', ${`cpm:${c.n}`})`);
      total += c.sum;
    }
    if (total > 0n)
      await tx.execute(sql`
        insert into platform_ledger (type, sum, ref)
        values ('cpm_payout', ${String(-total)}::bigint, ${`cpm:${mine.length}`})`);
    // the statistics: the publisher's earning of each hour on its site and widget
    const deltas: RollupDelta[] = mine
      .filter((p) => p.publisher > 0n)
      .map((p) => ({
        hour: new Date(p.hour),
        campaignId: 0,
        bannerId: 0,
        siteId: Number(p.site_id),
        widgetId: Number(p.widget_id),
        country: '',
        device: '',
        os: '',
        browser: '',
        earned: p.publisher,
      }));
    await upsertRollups(tx, deltas);
    return { hours: mine.length, earned: mine.reduce((s, p) => s + p.publisher, 0n) };
  });
}
