import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/tx.ts';
import { creditLedgerCtes } from '../../delivery/credit-ledger.ts';
import type { RollupDelta } from '../../delivery/delivery.repository.ts';

/** One DSP partner's won slot and its money split (micro-units), as the exchange computed it at the win. */
export interface DspWinBooking {
  /** The auction's id: a win is booked once, whatever replays it. */
  winId: string;
  dspPartnerId: number;
  siteId: number;
  widgetId: number;
  /** What the partner owes for the impression: its clearing CPM / 1000. */
  revenue: bigint;
  publisherEarned: bigint;
  agencyEarned: bigint;
  referralEarned: bigint;
  platformEarned: bigint;
  credits: {
    userId: number;
    type: 'publisher_earning' | 'agency_earning' | 'referral_earning';
    sum: bigint;
  }[];
  /**
   * The win in the site's and widget's statistics (no campaign or creative of ours: 0): `spent` what the
   * partner pays, `earned` the publisher's share, as a charged click's; added when the win is booked.
   */
  rollup?: RollupDelta;
}

/** The booked wins' credits: `ins.win_id` names the win, the rows say `dsp` and `dsp_wins:<n>`. */
const winCredits = creditLedgerCtes({
  booked: 'ins',
  key: 'win_id text',
  source: 'dsp',
  ref: 'dsp_wins',
  income: 'dsp_income',
  incomeRef: true,
});

/**
 * Books a batch of DSP wins as ONE statement (the exchange's flush, off the request): each win's row in
 * `dsp_wins` once (a win id already booked, before or earlier in the batch, is skipped: no credit); for
 * the booked ones the publisher, agency and referrer credits (a `ledger` row per user and type with its
 * exact `balance_after`: the click charge's SQL, credit-ledger.ts) and the platform's share in `platform_ledger`
 * (`dsp_income`). Run it inside the flush's transaction. Returns the win ids booked now.
 */
export async function bookDspWins(db: DbOrTx, batch: readonly DspWinBooking[]): Promise<string[]> {
  const seen = new Set<string>();
  const wins = batch.filter((w) => !seen.has(w.winId) && seen.add(w.winId));
  if (wins.length === 0) return [];
  const input = wins.map((w) => ({
    win_id: w.winId,
    dsp_partner_id: w.dspPartnerId,
    site_id: w.siteId,
    widget_id: w.widgetId,
    revenue: String(w.revenue),
    publisher_earned: String(w.publisherEarned),
    agency_earned: String(w.agencyEarned),
    referral_earned: String(w.referralEarned),
    platform_earned: String(w.platformEarned),
  }));
  const credits = wins.flatMap((w) => w.credits.map((c) => ({ ...c, of: w.winId })));
  const result = await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as t(
        win_id text, dsp_partner_id bigint, site_id bigint, widget_id bigint, revenue bigint,
        publisher_earned bigint, agency_earned bigint, referral_earned bigint, platform_earned bigint)
    ),
    ins as (
      insert into dsp_wins (win_id, dsp_partner_id, site_id, widget_id, revenue, publisher_earned,
        agency_earned, referral_earned, platform_earned)
      select win_id, dsp_partner_id, site_id, widget_id, revenue, publisher_earned, agency_earned,
        referral_earned, platform_earned
      from input
      on conflict (win_id) do nothing
      returning win_id, platform_earned
    ),
    ${winCredits(credits)}
    select win_id from ins`);
  // both drivers answer {rows}; the shared Db type cannot say so
  return (result as unknown as { rows: { win_id: string }[] }).rows.map((r) => r.win_id);
}
