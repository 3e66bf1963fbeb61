import { type SQL, sql } from 'drizzle-orm';
import type { CreditType } from './money-split.ts';

/** One credit of a booked charge: `of` is its row's key in the batch (a click's ord, a DSP win's id). */
export interface BookedCredit {
  of: number | string;
  userId: number;
  type: CreditType;
  sum: bigint;
}

/** Where a statement's booked charges are, and how their money is written. All of it is constant SQL text. */
export interface CreditLedgerSpec {
  /** The statement's CTE of the charges booked now; its rows have `key` and `platform_earned`. */
  booked: 'charged' | 'ins';
  /** The column of a booked row that a credit names (`of`), and its type. */
  key: 'ord int' | 'win_id text';
  /** `ledger.source` of the credits. */
  source: 'delivery' | 'dsp';
  /** The prefix of the rows' `ref` (`<ref>:<count>`). */
  ref: 'clicks' | 'dsp_wins';
  /** `platform_ledger.type` of the platform's share. */
  income: 'click_income' | 'dsp_income';
  /** Whether the platform's row has a `ref` too (`<ref>:<booked count>`). */
  incomeRef: boolean;
}

/**
 * The CTEs `earned`, `credited`, `user_rows` and `platform_row` that credit the charges a statement booked
 * (the click charge, the DSP wins' booking): each user's credits of the booked rows summed per type, the
 * users' balances raised in user id order (two batches wait, never deadlock on them), a `ledger` row per
 * user and type whose `balance_after` is exact when one user earns twice, and the platform's share in
 * `platform_ledger`. The spec is read once: the text is the same for every batch (the click charge is a
 * named prepared statement), only the credits are a parameter. The caller writes the fragment after a
 * CTE's `),` and before its final `select`.
 */
export function creditLedgerCtes(spec: CreditLedgerSpec): (credits: readonly BookedCredit[]) => SQL {
  const [key] = spec.key.split(' ') as ['ord' | 'win_id'];
  const head = sql.raw(`earned as (
      select cr.user_id, cr.type, sum(cr.sum) as s, count(*) as n
      from jsonb_to_recordset(`);
  const tail = sql.raw(`::jsonb) as cr(${spec.key}, user_id bigint, type text, sum bigint)
      join ${spec.booked} on ${spec.booked}.${key} = cr.${key}
      group by cr.user_id, cr.type
    ),
    credited as (
      update users u set balance = u.balance + e.s
      from (select user_id, sum(s) as s from earned group by user_id order by user_id) e
      where u.id = e.user_id
      returning u.id, u.balance
    ),
    user_rows as (
      insert into ledger (user_id, type, sum, balance_after, source, ref)
      select e.user_id, e.type, e.s,
        credited.balance - coalesce(sum(e.s) over (partition by e.user_id order by e.type
          rows between 1 following and unbounded following), 0),
        '${spec.source}', '${spec.ref}:' || e.n
      from earned e join credited on credited.id = e.user_id
      -- written in the order the running balances were computed in: ids follow balance_after
      order by e.user_id, e.type
    ),
    platform_row as (
      insert into platform_ledger (type, sum${spec.incomeRef ? ', ref' : ''})
      select '${spec.income}', sum(platform_earned)${spec.incomeRef ? `, '${spec.ref}:' || count(*)` : ''} from ${spec.booked} having sum(platform_earned) > 0
    )`);
  return (credits) => {
    const rows = [];
    for (const c of credits)
      if (c.sum > 0n) rows.push({ [key]: c.of, user_id: c.userId, type: c.type, sum: String(c.sum) });
    return sql`${head}${JSON.stringify(rows)}${tail}`;
  };
}
