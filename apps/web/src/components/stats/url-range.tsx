import { dayIn } from '@adp/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useStatsTimeZone } from './stats-api.ts';
import { StatsRangePicker } from './stats-range-picker.tsx';
import type { DayRange, Period } from './stats-ranges.ts';
import { parseView, type StatsView, viewRange } from './stats-view.ts';

export interface UrlRange {
  period: Period;
  /** The days asked for, in `tz`. */
  range: DayRange;
  tz: string;
  today: string;
  /** Writes a new period (and custom days) into the URL; the page goes back to 1. */
  set: (patch: { period: Period; from?: string | undefined; to?: string | undefined }) => void;
}

/**
 * The range of a statistics screen that is not a StatsScreen (partner, Prebid, DSP statistics, reports),
 * kept in the URL as `period` (the quick ranges and periods of SPEC.md section 9) and `from`/`to` for a
 * custom range, read in the user's statistics timezone. `fallback` is the period of a plain link.
 */
export function useUrlRange(fallback: Exclude<Period, 'custom'> = 'last_7_days'): UrlRange {
  const [params, setParams] = useSearchParams();
  const tz = useStatsTimeZone();
  // the clock is read once per screen: "today" does not move while the user looks at it
  const [now] = useState(() => new Date());
  const plain = !params.get('period') && !params.get('from') && !params.get('to');
  const view: StatsView = plain
    ? { period: fallback, group: 'day', chart: 'impressions' }
    : parseView(params, ['day']);
  const range = viewRange(view, now, tz);
  return {
    period: view.period,
    range,
    tz,
    today: dayIn(now, tz),
    set: (patch) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const key of ['period', 'from', 'to', 'page']) next.delete(key);
        next.set('period', patch.period);
        if (patch.period === 'custom' && patch.from && patch.to) {
          next.set('from', patch.from);
          next.set('to', patch.to);
        }
        return next;
      }),
  };
}

/** The period select (and custom days) of a screen using useUrlRange. */
export function UrlRangePicker({ state }: { state: UrlRange }) {
  return (
    <StatsRangePicker
      view={{ period: state.period }}
      today={state.today}
      range={state.range}
      onChange={(patch) => state.set(patch)}
    />
  );
}
