import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { ColorSwatch, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { formatHour, formatShortDay } from './stats-keys.ts';
import type { MoneySide, StatsRow } from './stats-rows.ts';
import type { ChartMetric } from './stats-view.ts';

/**
 * The over-time chart of a statistics screen (its own lazy chunk: recharts stays out of the pages that
 * do not draw it). One metric at a time, as their scales differ by orders of magnitude.
 */
export default function StatsChart({
  rows,
  hourly,
  metric,
  side,
  currency,
}: {
  rows: StatsRow[];
  hourly: boolean;
  metric: ChartMetric;
  side: MoneySide;
  currency: string;
}) {
  const { t } = useTranslation('stats');
  const locale = currentLocale();
  const data = rows.map((r) => ({
    ...r,
    label: hourly ? formatHour(r.key, locale, rows.length > 24) : formatShortDay(r.key, locale),
  }));
  const series =
    metric === 'impressions'
      ? [
          { name: 'impressions', label: t('impressions'), color: 'indigo.6' },
          { name: 'viewable', label: t('viewable'), color: 'teal.6' },
        ]
      : metric === 'clicks'
        ? [
            { name: 'clicks', label: t('clicks'), color: 'indigo.6' },
            { name: 'invalid_clicks', label: t('invalid_clicks'), color: 'red.6' },
            { name: 'conversions', label: t('conversions'), color: 'teal.6' },
          ]
        : side === 'both'
          ? [
              { name: 'spent', label: t('spent'), color: 'indigo.6' },
              { name: 'earned', label: t('earned'), color: 'teal.6' },
            ]
          : [{ name: side, label: t(side), color: 'indigo.6' }];
  return (
    <Stack gap="xs">
      <LineChart
        h={260}
        data={data}
        dataKey="label"
        series={series}
        curveType="monotone"
        withDots={data.length <= 31}
        tickLine="x"
        valueFormatter={(value) => (metric === 'money' ? formatMoney(value, currency) : formatNumber(value))}
        xAxisProps={{ minTickGap: 16 }}
        yAxisProps={{ width: metric === 'money' ? 72 : 56 }}
        lineChartProps={{ margin: { top: 8, right: 16, bottom: 0, left: 0 } }}
      />
      {/* the legend in the page's flow: recharts' own one is cut at the chart's right edge */}
      <Group gap="md" justify="center" wrap="wrap">
        {series.map((s) => (
          <Group key={s.name} gap={6} wrap="nowrap">
            <ColorSwatch
              color={`var(--mantine-color-${s.color.replace('.', '-')})`}
              size={10}
              withShadow={false}
            />
            <Text fz="sm">{s.label}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}
