import { fromMicros, type NotificationPayloads } from '@adp/contract';
import { sql } from 'drizzle-orm';
import { LOW_BALANCE_MICROS } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { type JobOutcome, jobOutcome } from '../../lib/job-outcome.ts';

/** One platform notification: its type, whom it is for, and the payload its text is rendered from. */
export type Notice = {
  [K in keyof NotificationPayloads]: {
    type: K;
    userId: number;
    campaignId?: number | null;
    payload: NotificationPayloads[K];
  };
}[keyof NotificationPayloads];

/**
 * Writes a notification with `tx`: the caller passes the transaction of the event the notification
 * reports, so both are stored or neither.
 */
export async function notify(tx: DbOrTx, notice: Notice) {
  await tx.insert(notifications).values({
    type: notice.type,
    userId: notice.userId,
    campaignId: notice.campaignId ?? null,
    payload: notice.payload,
  });
}

/**
 * The low-balance job's name (system page). A campaign is low below the platform setting
 * `low_campaign_balance`, an advertiser account below `low_account_balance` (admin's System page; until
 * saved, LOW_CAMPAIGN_BALANCE and LOW_ACCOUNT_BALANCE, both default 10 units of the currency, config.ts).
 */
export const LOW_BALANCE_JOB = 'low-balance';

type Told = { told: number; rearmed: number } | null;

/** The low-balance job's result as the system page shows it: "campaigns: told 1, re-armed 0; accounts: off". */
export function lowBalanceResult(run: { campaigns: Told; accounts: Told }): JobOutcome {
  const part = (name: string, r: Told) =>
    r ? `${name}: told ${r.told}, re-armed ${r.rearmed}` : `${name}: off`;
  const { campaigns: c, accounts: a } = run;
  // the dashboard's sentence by which sides are on: low_balance, low_balance_campaigns_off, …_accounts_off, …_off
  const code =
    c && a
      ? 'low_balance'
      : c
        ? 'low_balance_accounts_off'
        : a
          ? 'low_balance_campaigns_off'
          : 'low_balance_off';
  return jobOutcome(code, `${part('campaigns', c)}; ${part('accounts', a)}`, {
    ...(c ? { campaigns_told: c.told, campaigns_rearmed: c.rearmed } : {}),
    ...(a ? { accounts_told: a.told, accounts_rearmed: a.rearmed } : {}),
  });
}

/**
 * The low-balance job (off the click path: the click charge batch stays one statement). One statement:
 * every campaign that has been charged (clicks or exchange impressions) and whose balance is below the
 * threshold gets a `balance_alerts` row, and each newly added row its owner's `low_balance` notification;
 * then campaigns back at or above the threshold lose their row, so their next fall is told again.
 * Answers how many were told and re-armed (the job's result on the system page).
 */
export async function checkLowBalances(db: Db, threshold = LOW_BALANCE_MICROS) {
  const t = threshold.toString();
  const units = fromMicros(threshold);
  return db.transaction(async (tx) => {
    const told = await tx.execute(sql`
      with low as (
        insert into balance_alerts (campaign_id)
        select c.id from campaigns c
        where c.balance < ${t}::bigint
          and exists (
            select 1 from campaign_ledger l
            where l.campaign_id = c.id and l.type in ('campaign_charge', 'rtb_impression')
          )
        on conflict do nothing
        returning campaign_id
      )
      insert into notifications (type, user_id, campaign_id, payload)
      select 'low_balance', c.user_id, c.id,
        jsonb_build_object('name', c.title, 'balance', c.balance::numeric / 1000000, 'threshold', ${units}::numeric)
      from low join campaigns c on c.id = low.campaign_id
      returning id`);
    const rearmed = await tx.execute(sql`
      delete from balance_alerts a using campaigns c
      where c.id = a.campaign_id and c.balance >= ${t}::bigint
      returning a.campaign_id`);
    const n = (r: unknown) => ((r as { rows?: unknown[] }).rows ?? (r as unknown[])).length;
    return { told: n(told), rearmed: n(rearmed) };
  });
}

/**
 * The account-balance job (same job as the campaigns'): every advertiser account (it owns a campaign and
 * its balance has moved at least once) whose balance is below `threshold` gets an
 * `account_balance_alerts` row, and each newly added row its owner's `low_account_balance` notification;
 * accounts back at or above the threshold lose their row, so their next fall is told again.
 */
export async function checkLowAccountBalances(db: Db, threshold: bigint) {
  const t = threshold.toString();
  const units = fromMicros(threshold);
  return db.transaction(async (tx) => {
    const told = await tx.execute(sql`
      with low as (
        insert into account_balance_alerts (user_id)
        select u.id from users u
        where u.balance < ${t}::bigint
          and exists (select 1 from campaigns c where c.user_id = u.id)
          and exists (select 1 from ledger l where l.user_id = u.id)
        on conflict do nothing
        returning user_id
      )
      insert into notifications (type, user_id, payload)
      select 'low_account_balance', u.id,
        jsonb_build_object('balance', u.balance::numeric / 1000000, 'threshold', ${units}::numeric)
      from low join users u on u.id = low.user_id
      returning id`);
    const rearmed = await tx.execute(sql`
      delete from account_balance_alerts a using users u
      where u.id = a.user_id and u.balance >= ${t}::bigint
      returning a.user_id`);
    const n = (r: unknown) => ((r as { rows?: unknown[] }).rows ?? (r as unknown[])).length;
    return { told: n(told), rearmed: n(rearmed) };
  });
}

/**
 * The owner's notification of a moderator's decision on one of their items. A campaign's and a creative's
 * notification carries the campaign (a creative's page is under its campaign: the dashboard links it).
 */
export function moderationNotice(
  resource: NotificationPayloads['moderation']['resource'],
  item: { id: number; userId: number; name: string; campaignId?: number | null },
  decision: { moderation: string; moderationReason: string | null },
): Notice {
  return {
    type: 'moderation',
    userId: item.userId,
    campaignId: resource === 'campaign' ? item.id : resource === 'banner' ? (item.campaignId ?? null) : null,
    payload: {
      resource,
      id: String(item.id),
      name: item.name,
      decision: decision.moderation === 'approved' ? 'approved' : 'rejected',
      reason: decision.moderation === 'approved' ? null : decision.moderationReason,
    },
  };
}
