import '../../lib/calendar.ts';
import { addDays, STATS_MAX_DAYS } from '@adp/contract';
import { Select } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { periods, quickRanges } from './stats-ranges.ts';
import type { StatsView } from './stats-view.ts';

/** Period select (quick ranges, periods, custom) and, for custom, the from/to days. */
export function StatsRangePicker({
  view,
  today,
  range,
  onChange,
}: {
  view: Pick<StatsView, 'period'>;
  today: string;
  range: { from: string; to: string };
  onChange: (patch: Pick<StatsView, 'period' | 'from' | 'to'>) => void;
}) {
  const { t } = useTranslation('stats');
  const [draft, setDraft] = useState<[string | null, string | null] | null>(null);
  const data = [
    {
      group: t('screen.quick_ranges'),
      items: quickRanges.map((p) => ({ value: p, label: t(`periods.${p}`) })),
    },
    { group: t('screen.periods'), items: periods.map((p) => ({ value: p, label: t(`periods.${p}`) })) },
    { group: t('screen.custom_group'), items: [{ value: 'custom', label: t('periods.custom') }] },
  ];
  return (
    <>
      <Select
        label={t('screen.period')}
        data={data}
        value={view.period}
        allowDeselect={false}
        onChange={(value) => {
          if (!value) return;
          if (value === 'custom') onChange({ period: 'custom', from: range.from, to: range.to });
          else onChange({ period: value as StatsView['period'], from: undefined, to: undefined });
        }}
        w={{ base: '100%', xs: 200 }}
        comboboxProps={{ withinPortal: true }}
      />
      {view.period === 'custom' ? (
        <DatesProvider settings={{ locale: currentLocale(), firstDayOfWeek: 1 }}>
          <DatePickerInput
            type="range"
            label={t('screen.custom_range')}
            value={draft ?? [range.from, range.to]}
            maxDate={today}
            minDate="1970-01-01"
            valueFormat="DD.MM.YYYY"
            allowSingleDateInRange
            onChange={(value) => {
              const [from, to] = value as [string | null, string | null];
              if (from && to) {
                setDraft(null);
                // a longer range than the API answers keeps its end and the longest start allowed
                const earliest = addDays(to, -(STATS_MAX_DAYS - 1));
                onChange({ period: 'custom', from: from < earliest ? earliest : from, to });
              } else setDraft([from, to]);
            }}
            w={{ base: '100%', xs: 260 }}
          />
        </DatesProvider>
      ) : null}
    </>
  );
}
