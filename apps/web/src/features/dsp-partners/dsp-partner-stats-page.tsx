import type { DspStatsQuery, DspStatsRow } from '@adp/contract';
import { Anchor, Card, Group, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { FileButtons } from '../../components/stats/file-buttons.tsx';
import { brandName, countryName, formatDay } from '../../components/stats/stats-keys.ts';
import { UrlRangePicker, useUrlRange } from '../../components/stats/url-range.tsx';
import { formatNumber } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useDspPartner, useDspStats } from './api/dsp-partners-queries.ts';

const tabs = ['overview', 'sources', 'campaigns', 'rtb-partners', 'geo', 'devices'] as const;
type Tab = (typeof tabs)[number];

/** The drill-downs of SPEC.md section 2: a path segment, the stats filter it sets, the tab it belongs to. */
const drills = {
  sources: { filter: 'source_id', tab: 'sources', group: 'source' },
  campaigns: { filter: 'campaign_id', tab: 'campaigns', group: 'campaign' },
  'rtb-partners': { filter: 'rtb_partner_id', tab: 'rtb-partners', group: 'rtb_partner' },
  country: { filter: 'country', tab: 'geo', group: 'country' },
  city: { filter: 'city', tab: 'geo', group: 'city' },
  device: { filter: 'device', tab: 'devices', group: 'device' },
  os: { filter: 'os', tab: 'devices', group: 'os' },
} as const;
type Drill = keyof typeof drills;
const drillOfGroup = Object.fromEntries(Object.entries(drills).map(([k, v]) => [v.group, k])) as Record<
  string,
  Drill
>;

/** The keys of a statistics row as people read them. */
function useKeyLabel() {
  const { t } = useTranslation('dsppartners');
  const locale = currentLocale();
  return (group: DspStatsQuery['group'], row: Pick<DspStatsRow, 'key' | 'name'>): string => {
    if (row.key === 'unknown') return t('stats.unknown');
    if (group === 'day') return formatDay(row.key, locale);
    if (group === 'country') return countryName(row.key, locale);
    if (group === 'device') return t(`stats.devices.${row.key}`, { defaultValue: row.key });
    if (group === 'os') return brandName(row.key);
    return row.name ? `${row.name} (#${row.key})` : row.key;
  };
}

function StatsTable({
  partnerId,
  group,
  range,
  filter,
}: {
  partnerId: string;
  group: DspStatsQuery['group'];
  range: { from: string; to: string; tz: string };
  filter?: Record<string, string>;
}) {
  const { t } = useTranslation('dsppartners');
  const stats = useDspStats(partnerId, { ...range, group, ...filter });
  const label = useKeyLabel();
  const drill = drillOfGroup[group];
  const columns: Column<DspStatsRow>[] = [
    {
      key: 'key',
      header: t(`stats.groups.${group}`),
      cell: (r) =>
        drill && r.key !== 'unknown' && !filter ? (
          <Anchor
            component={Link}
            to={`/dsppartners/${partnerId}/stats/${drill}/${encodeURIComponent(r.key)}`}
          >
            {label(group, r)}
          </Anchor>
        ) : (
          label(group, r)
        ),
    },
    ...(['requests', 'bids', 'wins', 'timeouts', 'errors'] as const).map(
      (k): Column<DspStatsRow> => ({
        key: k,
        header: t(`stats.${k}`),
        align: 'right',
        cell: (r) => formatNumber(r[k]),
      }),
    ),
    {
      key: 'revenue',
      header: t('stats.revenue'),
      align: 'right',
      cell: (r) => <MoneyText amount={r.revenue} inherit />,
    },
    {
      key: 'ecpm',
      header: t('stats.ecpm'),
      align: 'right',
      cell: (r) => <MoneyText amount={r.ecpm} inherit />,
    },
  ];
  const total = stats.data?.total;
  return (
    <Stack gap="sm">
      {group === 'day' && total ? (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {(['requests', 'wins', 'revenue', 'ecpm'] as const).map((k) => (
            <Card key={k} padding="md" radius="md" withBorder>
              <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
                {t(`stats.${k}`)}
              </Text>
              <Text fz="xl" fw={700}>
                {k === 'revenue' || k === 'ecpm' ? (
                  <MoneyText amount={total[k]} inherit />
                ) : (
                  formatNumber(total[k])
                )}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      ) : null}
      <Group justify="flex-end">
        <FileButtons
          path={`/dsppartners/${partnerId}/stats/export`}
          query={{ ...range, group, ...filter }}
          fallback={`stats-dsp-partner-${partnerId}-${group}-${range.from}-${range.to}.csv`}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={stats.data?.rows ?? []}
        rowKey={(r) => r.key}
        loading={stats.isPending}
        error={stats.error}
        empty={t('stats.empty')}
        caption={t(`stats.groups.${group}`)}
        minWidth={760}
      />
    </Stack>
  );
}

/**
 * /dsppartners/{id}/stats[/{tab}] and the drill-downs /dsppartners/{id}/stats/{sources|campaigns|
 * rtb-partners|country|city|device|os}/{key}: what the outbound auction asked, got and sold.
 */
export function DspPartnerStatsPage() {
  const { t } = useTranslation('dsppartners');
  const { id = '', tab: tabParam, kind, key } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const partner = useDspPartner(id);
  const period = useUrlRange('last_7_days');
  const range = { from: period.range.from, to: period.range.to, tz: period.tz };
  const drill = kind && kind in drills ? drills[kind as Drill] : null;
  const tab: Tab = drill
    ? drill.tab
    : (tabs as readonly string[]).includes(tabParam ?? '')
      ? (tabParam as Tab)
      : 'overview';
  const label = useKeyLabel();
  const base = `/dsppartners/${id}/stats`;
  const name = partner.data?.name ?? '';
  const qs = search.toString() ? `?${search.toString()}` : '';
  return (
    <Stack gap="md">
      <PageHeader
        title={t('stats.title', { name })}
        subtitle={
          drill && key ? `${t(`stats.groups.${drill.group}`)}: ${label(drill.group, { key })}` : undefined
        }
        back={
          drill
            ? { to: `${base}/${drill.tab}${qs}`, label: t(`stats.tabs.${drill.tab}`) }
            : { to: `/dsppartners/${id}`, label: name || t('list.title') }
        }
      />
      <Group gap="sm" align="flex-end">
        <UrlRangePicker state={period} />
      </Group>
      <Tabs value={tab} onChange={(v) => navigate(`${v === 'overview' ? base : `${base}/${v}`}${qs}`)}>
        <Tabs.List>
          {tabs.map((v) => (
            <Tabs.Tab key={v} value={v}>
              {t(`stats.tabs.${v}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Text c="dimmed" fz="sm">
        {formatDay(range.from, currentLocale())} – {formatDay(range.to, currentLocale())}
      </Text>
      {drill && key ? (
        <StatsTable partnerId={id} group="day" range={range} filter={{ [drill.filter]: key }} />
      ) : tab === 'overview' ? (
        <StatsTable partnerId={id} group="day" range={range} />
      ) : tab === 'sources' ? (
        <StatsTable partnerId={id} group="source" range={range} />
      ) : tab === 'campaigns' ? (
        <StatsTable partnerId={id} group="campaign" range={range} />
      ) : tab === 'rtb-partners' ? (
        <StatsTable partnerId={id} group="rtb_partner" range={range} />
      ) : tab === 'geo' ? (
        <Stack gap="lg">
          <StatsTable partnerId={id} group="country" range={range} />
          <StatsTable partnerId={id} group="city" range={range} />
        </Stack>
      ) : (
        <Stack gap="lg">
          <StatsTable partnerId={id} group="device" range={range} />
          <StatsTable partnerId={id} group="os" range={range} />
        </Stack>
      )}
    </Stack>
  );
}
