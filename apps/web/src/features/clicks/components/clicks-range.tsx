import { account, dayIn } from '@adp/contract';
import { Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { StatsRangePicker } from '../../../components/stats/stats-range-picker.tsx';
import { parseView, viewRange } from '../../../components/stats/stats-view.ts';
import { browserTimeZone } from '../../../components/stats-panel.tsx';
import { useAuth } from '../../../lib/ability.tsx';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The range, page and filters of a click screen, kept in the URL (`from`, `to`, `period`, `page`, and the
 * screen's own keys), so a reload or a shared link shows the same view. Default: the last 7 days.
 */
export function useClicksParams() {
  const [params, setParams] = useSearchParams();
  // the days of the viewer's timezone setting, else the browser's (as the StatsPanel counts them)
  const { userId } = useAuth();
  const me = useQuery({
    queryKey: ['users', userId],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(userId ?? '')}`, { schema: account }),
    enabled: Boolean(userId),
    meta: { silent: true },
  });
  const tz = me.data?.timezone || browserTimeZone();
  // the statistics screens' periods (quick ranges, SPEC.md section 9's periods, custom days)
  const view = parseView(params, ['day']);
  // the clock is read once per screen: "today" does not move while the user looks at it
  const [now] = useState(() => new Date());
  const { from, to } = viewRange(view, now, tz);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const update = (values: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(values)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        // a new filter or range starts at the first page
        if (!('page' in values)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return {
    from,
    to,
    tz,
    today: dayIn(now, tz),
    period: view.period,
    page,
    get: (key: string) => params.get(key),
    update,
  };
}
export type ClicksParams = ReturnType<typeof useClicksParams>;

/** The statistics screens' period picker (quick ranges, periods, custom days) and a screen's own filters. */
export function ClicksRangeBar({ state, children }: { state: ClicksParams; children?: ReactNode }) {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <StatsRangePicker
        view={state}
        today={state.today}
        range={state}
        onChange={({ period, from, to }) =>
          state.update(
            period === 'custom'
              ? { period: null, from: from ?? null, to: to ?? null }
              : { period, from: null, to: null },
          )
        }
      />
      {children}
    </Group>
  );
}
