import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import {
  basisPoints,
  type RollupDelta,
  siteAgencyRate,
  siteAgencyUser,
  upsertRollups,
} from './delivery.repository.ts';

/** The job's name (the System page's list). */
export const CPM_EARNINGS_JOB = 'cpm-earnings';

const HOUR_MS = 3_600_000;
/** An hour is closed (its counts flushed by every instance) this long after it ends. */
const CLOSE_LAG_MS = 5 * 60_000;
/** How far back a late run still pays (a job that did not run for a while catches up this far). */
const CATCH_UP_MS = 48 * HOUR_MS;
/** Widget hours credited per run at most (the next run takes the rest). */
const BATCH = 5000;

interface Candidate {
  hour: string;
  widget_id: string;
  site_id: string;
  user_id: string;
  impressions: string;
  paid_impressions: string;
  paid_sum: string;
  cpm_rate: string;
  agency_user_id: string | null;
  agency_rate: string;
}

/** Any constant: runs of the job on several instances take this lock in turn (pg_advisory_xact_lock). */
const LOCK_KEY = 7_311_202_611;

/**
 * CPM payment (a site's `payment_method` `cpm`): the publisher earns its site's `cpm_rate` per thousand ad
 * impressions of its widgets (`rollups_site_hours.impressions`: sponsored items drawn, as advertisers'
 * statistics count them), and nothing per click or DSP win (money-split.ts). Run every 20 minutes: every
 * closed UTC hour from the whole hour after the payment method was set is credited, and an hour whose
 * counts grew after it was paid (a late flush) is paid the difference (`cpm_credits` holds what each widget
 * hour was paid, written with the credits in one transaction; runs on several instances wait for each
 * other). The site owner's agency gets its rate of the earning, as of a click's; the platform pays it all
 * (`platform_ledger` `cpm_payout`, negative); the statistics count the publisher's part as earned (rollups
 * under campaign 0, as no advertiser paid for it). Users are credited in id order, then the rollups are
 * written, the order of the DSP wins' flush.
 */
export async function creditCpmEarnings(
  db: Db,
  now = new Date(),
): Promise<{ hours: number; earned: bigint }> {
  const closedBefore = new Date(Math.floor((now.getTime() - CLOSE_LAG_MS) / HOUR_MS) * HOUR_MS);
  const since = new Date(now.getTime() - CATCH_UP_MS);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY}::bigint)`);
    const found = await tx.execute(sql`
      select h.hour::text as hour, h.widget_id::text as widget_id, h.site_id::text as site_id,
        sites.user_id::text as user_id, h.impressions::text as impressions,
        coalesce(c.impressions, 0)::text as paid_impressions, coalesce(c.sum, 0)::text as paid_sum,
        sites.cpm_rate::text as cpm_rate,
        ${siteAgencyUser()}::text as agency_user_id,
        (${siteAgencyRate()})::text as agency_rate
      from rollups_site_hours h
      join sites on sites.id = h.site_id
      left join cpm_credits c on c.hour = h.hour and c.widget_id = h.widget_id
      where sites.payment_method = 'cpm'
        and sites.cpm_rate > 0
        and h.impressions > coalesce(c.impressions, 0)
        and h.hour < ${closedBefore.toISOString()}::timestamptz
        and h.hour >= ${since.toISOString()}::timestamptz
        -- the whole hours after the switch (epoch arithmetic: no session time zone in it)
        and h.hour >= to_timestamp((floor(extract(epoch from sites.payment_method_changed_at) / 3600) + 1) * 3600)
      order by h.hour, h.widget_id
      limit ${BATCH}`);
    // only the impressions not paid yet are priced, at today's rate (an hour paid before a rate change keeps
    // what it was paid); every selected hour is recorded, a share that rounds to nothing too
    const selected = rowsOf<Candidate>(found).map((r) => {
      const rate = BigInt(r.cpm_rate);
      const gross = (BigInt(r.impressions) * rate) / 1000n - (BigInt(r.paid_impressions) * rate) / 1000n;
      const agencyUserId = r.agency_user_id === null ? null : Number(r.agency_user_id);
      const agency = agencyUserId ? (gross * basisPoints(r.agency_rate)) / 10_000n : 0n;
      return {
        ...r,
        total: BigInt(r.paid_sum) + gross,
        gross,
        agencyUserId,
        agency,
        publisher: gross - agency,
      };
    });
    if (!selected.length) return { hours: 0, earned: 0n };
    const planned = selected.filter((p) => p.gross > 0n);
    const ref = `cpm:${now.toISOString()}`;

    await tx.execute(sql`
      insert into cpm_credits (hour, widget_id, site_id, user_id, impressions, sum)
      select hour, widget_id, site_id, user_id, impressions, sum
      from jsonb_to_recordset(${JSON.stringify(
        selected.map((p) => ({
          hour: p.hour,
          widget_id: p.widget_id,
          site_id: p.site_id,
          user_id: p.user_id,
          impressions: p.impressions,
          sum: String(p.total),
        })),
      )}::jsonb) as r(hour timestamptz, widget_id bigint, site_id bigint, user_id bigint, impressions bigint,
        sum bigint)
      order by hour, widget_id
      on conflict (hour, widget_id) do update
        set impressions = excluded.impressions, sum = excluded.sum`);
    const paidOut = planned.reduce((s, p) => s + p.gross, 0n);
    if (paidOut > 0n)
      await tx.execute(sql`
      insert into platform_ledger (type, sum, ref)
      values ('cpm_payout', ${String(-paidOut)}::bigint, ${ref})`);

    // each user's credits by type, in user id order (two writers wait for each other, never deadlock)
    const credits = new Map<string, { userId: number; type: string; sum: bigint; n: number }>();
    const add = (userId: number, type: string, sum: bigint) => {
      if (sum <= 0n) return;
      const key = `${String(userId).padStart(20, '0')}|${type}`;
      const c = credits.get(key) ?? { userId, type, sum: 0n, n: 0 };
      c.sum += sum;
      c.n += 1;
      credits.set(key, c);
    };
    for (const p of planned) {
      add(Number(p.user_id), 'publisher_earning', p.publisher);
      if (p.agencyUserId) add(p.agencyUserId, 'agency_earning', p.agency);
    }
    for (const key of [...credits.keys()].sort()) {
      const c = credits.get(key) as { userId: number; type: string; sum: bigint; n: number };
      const [row] = rowsOf<{ balance: string }>(
        await tx.execute(
          sql`update users set balance = balance + ${String(c.sum)}::bigint where id = ${c.userId}
              returning balance::text as balance`,
        ),
      );
      // an account that is gone: the whole run waits rather than paying an hour to nobody
      if (!row) throw new Error(`cpm earnings: user ${c.userId} is missing`);
      await tx.execute(sql`
        insert into ledger (user_id, type, sum, balance_after, source, ref)
        values (${c.userId}, ${c.type}, ${String(c.sum)}::bigint, ${row.balance}::bigint, 'cpm', ${ref})`);
    }
    // the statistics: the publisher's earning of each hour on its site and widget
    const deltas: RollupDelta[] = planned
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
    // last, as the DSP wins' flush does (users, then rollups): the two never wait on each other in a cycle
    await upsertRollups(tx, deltas);
    return { hours: planned.length, earned: planned.reduce((s, p) => s + p.publisher, 0n) };
  });
}
