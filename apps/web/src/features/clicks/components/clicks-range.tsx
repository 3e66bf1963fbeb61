import { account, addDays, dayIn } from '@adp/contract';
import { Group, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { browserTimeZone } from '../../../components/stats-panel.tsx';
import { useAuth } from '../../../lib/ability.tsx';
import { apiRequest } from '../../../lib/api-client.ts';

/** SPEC.md section 9's quick ranges, and a range typed by hand. */
const periods = ['today', 'yesterday', 'last_7_days', 'current_week', 'current_month', 'custom'] as const;
type ClicksPeriod = (typeof periods)[number];

const isDay = (v: string | null): v is string => v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The days of a quick range at `now` in `tz`; weeks start on Monday. */
export function quickRange(period: Exclude<ClicksPeriod, 'custom'>, now: Date, tz: string) {
  const today = dayIn(now, tz);
  switch (period) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'last_7_days':
      return { from: addDays(today, -6), to: today };
    case 'current_week': {
      const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
      return { from: addDays(today, -((weekday + 6) % 7)), to: today };
    }
    case 'current_month':
      return { from: `${today.slice(0, 8)}01`, to: today };
  }
}

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
  const period = (periods as readonly string[]).includes(params.get('period') ?? '')
    ? (params.get('period') as ClicksPeriod)
    : undefined;
  const from = params.get('from');
  const to = params.get('to');
  const range =
    period && period !== 'custom'
      ? quickRange(period, new Date(), tz)
      : isDay(from) && isDay(to)
        ? { from, to }
        : quickRange('last_7_days', new Date(), tz);
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
    ...range,
    tz,
    period: period ?? (isDay(from) && isDay(to) ? 'custom' : 'last_7_days'),
    page,
    get: (key: string) => params.get(key),
    update,
  };
}
export type ClicksParams = ReturnType<typeof useClicksParams>;

/** The period picker, the two days of a custom range, and a screen's own filters (`children`). */
export function ClicksRangeBar({ state, children }: { state: ClicksParams; children?: ReactNode }) {
  const { t } = useTranslation('clicks');
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={t('range.period')}
        data={periods.map((p) => ({ value: p, label: t(`range.${p}`) }))}
        value={state.period}
        allowDeselect={false}
        w={190}
        onChange={(value) => {
          if (!value) return;
          if (value === 'custom') state.update({ period: 'custom', from: state.from, to: state.to });
          else state.update({ period: value, from: null, to: null });
        }}
      />
      <TextInput
        type="date"
        label={t('range.from')}
        value={state.from}
        max={state.to}
        w={160}
        onChange={(e) => {
          const v = e.currentTarget.value;
          if (isDay(v)) state.update({ period: 'custom', from: v, to: v > state.to ? v : state.to });
        }}
      />
      <TextInput
        type="date"
        label={t('range.to')}
        value={state.to}
        min={state.from}
        w={160}
        onChange={(e) => {
          const v = e.currentTarget.value;
          if (isDay(v)) state.update({ period: 'custom', to: v, from: v < state.from ? v : state.from });
        }}
      />
      {children}
    </Group>
  );
}
