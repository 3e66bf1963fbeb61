import { dayIn, type StatsGroup, type StatsValues } from '@adp/contract';
import {
  Alert,
  Card,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { formatDateTime, formatMoney, formatNumber, formatPercent } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { StatsHiddenNotice, statsAccessCode } from '../site-stats-access.tsx';
import { TableScroll } from '../table-scroll.tsx';
import { FileButtons } from './file-buttons.tsx';
import {
  queryOf,
  type StatsCall,
  type StatsScreenAnswer,
  useStatsAnswer,
  useStatsTimeZone,
} from './stats-api.ts';
import { brandName, countryName, deviceClasses, formatDay, formatHour } from './stats-keys.ts';
import { StatsRangePicker } from './stats-range-picker.tsx';
import { isEmptyValues, type MoneySide, type StatsRow, sumRows, tableOf, vcpm } from './stats-rows.ts';
import {
  chartMetrics,
  nextSort,
  parseView,
  type StatsView,
  type TableSortColumn,
  timeGroup,
  viewRange,
  writeView,
} from './stats-view.ts';

const StatsChart = lazy(() => import('./stats-chart.tsx'));
/** The rows a side-by-side breakdown card shows. */
const TOP_ROWS = 10;

/** How a breakdown's key reads: a name and, where the viewer may open it, a link. */
export type KeyLabel = (group: StatsGroup, key: string) => ReactNode | undefined;

export interface StatsScreenProps {
  /** The API call (`/stats/campaigns/5`); null where the platform records nothing yet (empty screen). */
  path: string | null;
  /** The breakdowns that make sense for the entity, the first one the default. */
  groups: readonly StatsGroup[];
  side: MoneySide;
  currency: string;
  /** Further query parameters of every call. */
  extra?: Record<string, string>;
  /** Names of site, widget, creative (…) keys; the id is shown where it gives none. */
  keyLabel?: KeyLabel;
  /** `tabs`: the breakdowns side by side under the chart (the v2 screens) instead of one table. */
  layout?: 'table' | 'tabs';
  /** The chart's call when `path` answers something else than days (RTB sources); default `path`. */
  chartPath?: string | null;
  /** `day`: the call answers days only (no hourly chart for short ranges). */
  overTime?: 'auto' | 'day';
  /**
   * The call of each breakdown where they differ (the second stats tree: /stats2/sites/country, …);
   * default `path` with the breakdown as `group`.
   */
  pathOf?: (group: StatsGroup) => string | null;
}

const numberColumns = [
  'impressions',
  'viewable',
  'clicks',
  'invalid_clicks',
  'ctr',
  'ecpm',
  'vcpm',
  'conversions',
] as const;

function useView(groups: readonly StatsGroup[]) {
  const [params, setParams] = useSearchParams();
  const view = parseView(params, groups);
  const update = (patch: Partial<StatsView>) =>
    setParams((current) => writeView(current, { ...parseView(current, groups), ...patch }, groups), {
      replace: true,
    });
  return [view, update] as const;
}

function SortHeader({
  column,
  label,
  view,
  onSort,
  align,
}: {
  column: TableSortColumn;
  label: string;
  view: StatsView;
  onSort?: ((column: TableSortColumn) => void) | undefined;
  align: 'left' | 'right';
}) {
  const { t } = useTranslation('stats');
  const active = view.sort === column;
  const Icon = !active ? IconSelector : view.order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th
      scope="col"
      style={{ textAlign: align, whiteSpace: 'nowrap' }}
      aria-sort={active ? (view.order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      {onSort ? (
        <UnstyledButton
          onClick={() => onSort(column)}
          aria-label={t('screen.sort_by', { column: label })}
          style={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 4,
            fontWeight: 600,
            fontSize: 'inherit',
          }}
        >
          {label}
          <Icon size={14} aria-hidden style={{ opacity: active ? 1 : 0.4 }} />
        </UnstyledButton>
      ) : (
        label
      )}
    </Table.Th>
  );
}

/** The label of a row's key in the current language. */
function useKeyText(group: StatsGroup, keyLabel: KeyLabel | undefined) {
  const { t } = useTranslation('stats');
  const locale = currentLocale();
  return (key: string): ReactNode => {
    if (key === 'unknown') return t('screen.unknown');
    if (key === 'rtb' && (group === 'site' || group === 'widget')) return t('screen.exchange');
    if (group === 'day') return formatDay(key, locale);
    if (group === 'hour') return formatHour(key, locale);
    if (group === 'country') return countryName(key, locale);
    if (group === 'device')
      return (deviceClasses as readonly string[]).includes(key) ? t(`devices.${key}`) : key;
    if (group === 'os' || group === 'browser') return brandName(key);
    return keyLabel?.(group, key) ?? (['site', 'widget', 'creative'].includes(group) ? `#${key}` : key);
  };
}

/**
 * The table of a statistics answer: key, counts, CTR, eCPM, vCPM, conversions and money, every column
 * sortable (the order is the URL's `sort`/`order`, sent to the API), with a totals row.
 */
export function StatsTable({
  rows,
  total,
  group,
  view,
  side,
  currency,
  keyLabel,
  onSort,
  compact,
  caption,
}: {
  rows: StatsRow[];
  total: StatsValues;
  group: StatsGroup;
  view: StatsView;
  side: MoneySide;
  currency: string;
  keyLabel?: KeyLabel | undefined;
  onSort?: ((column: TableSortColumn) => void) | undefined;
  compact?: boolean;
  caption: string;
}) {
  const { t } = useTranslation('stats');
  const keyText = useKeyText(group, keyLabel);
  const money = (amount: number) => formatMoney(amount, currency);
  // the platform's own income (admins): over time on every row, in a breakdown only in the total
  const moneyColumns: ('spent' | 'earned' | 'revenue')[] =
    side === 'both' ? ['spent', 'earned', 'revenue'] : [side];
  // the money right after CTR: on a laptop it is in view without scrolling the table sideways
  const columns: ((typeof numberColumns)[number] | 'spent' | 'earned' | 'revenue')[] = compact
    ? ['impressions', 'clicks', 'ctr', ...moneyColumns]
    : [
        'impressions',
        'viewable',
        'clicks',
        'invalid_clicks',
        'ctr',
        ...moneyColumns,
        'ecpm',
        'vcpm',
        'conversions',
      ];
  const cell = (v: StatsValues, column: (typeof columns)[number]) => {
    switch (column) {
      case 'ctr':
        return formatPercent(v.ctr);
      case 'ecpm':
        return money(v.ecpm);
      case 'vcpm':
        return money(vcpm(v, side));
      case 'spent':
      case 'earned':
        return money(v[column]);
      case 'revenue':
        return v.revenue === undefined ? '—' : money(v.revenue);
      default:
        return formatNumber(v[column]);
    }
  };
  const right = { textAlign: 'right', whiteSpace: 'nowrap' } as const;
  return (
    <TableScroll minWidth={compact ? 360 : 900} type="native" label={caption}>
      <Table
        verticalSpacing="xs"
        horizontalSpacing="xs"
        striped
        highlightOnHover
        fz="sm"
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        <caption
          style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
        >
          {caption}
        </caption>
        <Table.Thead>
          <Table.Tr>
            <SortHeader column="key" label={t(`groups.${group}`)} view={view} onSort={onSort} align="left" />
            {columns.map((c) =>
              c === 'revenue' ? (
                // the API does not sort by revenue: a plain header
                <Table.Th key={c} scope="col" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                  {t('columns.revenue')}
                </Table.Th>
              ) : (
                <SortHeader
                  key={c}
                  column={c}
                  label={t(`columns.${c}`)}
                  view={view}
                  onSort={onSort}
                  align="right"
                />
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Th scope="row" fw={500} style={{ whiteSpace: 'nowrap' }}>
                {keyText(row.key)}
              </Table.Th>
              {columns.map((c) => (
                <Table.Td key={c} style={right}>
                  {cell(row, c)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr style={{ borderTop: '2px solid var(--mantine-color-default-border)' }}>
            <Table.Th scope="row">{t('screen.total')}</Table.Th>
            {columns.map((c) => (
              <Table.Th key={c} style={right}>
                {cell(total, c)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </TableScroll>
  );
}

/**
 * 'Data not found.' for an unknown entity (404), what the site's statistics access keeps from the caller
 * (hidden, advanced statistics off), the generic message for the rest.
 */
function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useTranslation('stats');
  const access = statsAccessCode(error);
  if (access) return <StatsHiddenNotice code={access} />;
  return (
    <Alert color="red" variant="light" role="alert" title={t('errors:error_title')}>
      {error instanceof ApiError && error.status === 404 ? t('errors:not_found') : t('errors:generic')}
    </Alert>
  );
}

function DelayNotice({ answer }: { answer: StatsScreenAnswer | undefined }) {
  const { t } = useTranslation('stats');
  if (!answer?.available_at) return null;
  return (
    <Alert color="blue" variant="light" role="status" title={t('screen.delay_title')}>
      {t('screen.delay_text', { at: formatDateTime(answer.available_at) })}
    </Alert>
  );
}

function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Card padding="md" radius="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} fz="md">
            {title}
          </Title>
          {actions}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/** CSV and XLSX of the table on screen: the same call (range, timezone, breakdown, order, filters). */
function ExportButtons({ path, call }: { path: string; call: StatsCall }) {
  return (
    <FileButtons
      path={`${path}/export`}
      query={queryOf(call)}
      fallback={`stats-${call.group}-${call.from}-${call.to}.csv`}
    />
  );
}

/** One breakdown of the v2 screens: its top rows by impressions in a compact table. */
function BreakdownCard({
  path,
  group,
  range,
  tz,
  props,
  view,
}: {
  path: string | null;
  group: StatsGroup;
  range: { from: string; to: string };
  tz: string;
  props: StatsScreenProps;
  view: StatsView;
}) {
  const { t } = useTranslation('stats');
  const answer = useStatsAnswer(path, {
    ...range,
    tz,
    group,
    sort: 'impressions',
    order: 'desc',
    extra: props.extra,
  });
  let body: ReactNode;
  if (path && answer.isPending) body = <Skeleton height={120} radius="sm" aria-busy="true" />;
  else if (answer.isError) body = <ErrorAlert error={answer.error} />;
  else if (!answer.data?.rows.length)
    body = (
      <Text c="dimmed" fz="sm" role="status">
        {t('errors:no_stats_period')}
      </Text>
    );
  else {
    // the card shows the first ten; its total counts every row, and says so when some are left out
    const count = answer.data.rows.length;
    body = (
      <Stack gap={4}>
        <StatsTable
          rows={answer.data.rows.slice(0, TOP_ROWS)}
          total={answer.data.total}
          group={group}
          view={{ ...view, sort: 'impressions', order: 'desc' }}
          side={props.side}
          currency={props.currency}
          keyLabel={props.keyLabel}
          compact
          caption={t(`by_group.${group}`)}
        />
        {count > TOP_ROWS ? (
          <Text fz="xs" c="dimmed">
            {t('screen.top_of', { shown: TOP_ROWS, count })}
          </Text>
        ) : null}
      </Stack>
    );
  }
  return <Section title={t(`by_group.${group}`)}>{body}</Section>;
}

/**
 * The dashboard's statistics screen: range (quick ranges, periods, custom days in the user's timezone),
 * breakdown, a chart over time and the breakdown's table with totals; all of it kept in the URL query.
 */
export function StatsScreen(props: StatsScreenProps) {
  const { groups, side, currency, extra, keyLabel, layout = 'table' } = props;
  const pathFor = (group: StatsGroup) => (props.pathOf ? props.pathOf(group) : props.path);
  const { t } = useTranslation('stats');
  const tz = useStatsTimeZone();
  const [view, update] = useView(groups);
  // the clock is read once per screen: "today" does not move while the user looks at it
  const [now] = useState(() => new Date());
  const today = dayIn(now, tz);
  const range = viewRange(view, now, tz);
  const overTime = props.overTime === 'day' ? 'day' : timeGroup(range);
  const tableGroup = layout === 'tabs' ? overTime : view.group;
  const path = pathFor(tableGroup);
  const chartPath = props.chartPath === undefined ? pathFor(overTime) : props.chartPath;
  const timed = tableGroup === 'day' || tableGroup === 'hour';
  const chart = useStatsAnswer(chartPath, { from: range.from, to: range.to, tz, group: overTime, extra });
  const sortable = view.sort && view.sort !== 'vcpm';
  const tableCall: StatsCall = {
    from: range.from,
    to: range.to,
    tz,
    group: tableGroup,
    sort: sortable ? view.sort : undefined,
    order: sortable ? view.order : undefined,
    extra,
  };
  const table = useStatsAnswer(path, tableCall);
  // a chart runs forward in time whatever order the call answers in (the second tree pages days newest first)
  const chartRows = useMemo(
    () =>
      chart.data
        ? [...tableOf(chart.data, { since: range.since, hourly: overTime === 'hour', side }).rows].sort(
            (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
          )
        : [],
    [chart.data, range.since, overTime, side],
  );
  const shown = table.data
    ? tableOf(table.data, {
        since: range.since,
        hourly: tableGroup === 'hour',
        sort: view.sort,
        order: view.order,
        side,
      })
    : null;
  const empty = !path || (shown !== null && (shown.rows.length === 0 || isEmptyValues(shown.total)));
  const breakdowns = groups.filter((g) => g !== 'day' && g !== 'hour');

  const groupSelect =
    layout === 'table' ? (
      <Select
        label={t('screen.breakdown')}
        data={groups.map((g) => ({ value: g, label: t(`groups.${g}`) }))}
        value={view.group}
        allowDeselect={false}
        onChange={(value) =>
          value && update({ group: value as StatsGroup, sort: undefined, order: undefined })
        }
        w={{ base: '100%', xs: 180 }}
      />
    ) : null;

  let tableBody: ReactNode;
  if (!path) tableBody = null;
  else if (table.isPending) tableBody = <Skeleton height={220} radius="sm" aria-busy="true" />;
  else if (table.isError) tableBody = <ErrorAlert error={table.error} />;
  else if (shown)
    tableBody = (
      <StatsTable
        rows={shown.rows}
        total={shown.total}
        group={tableGroup}
        view={view}
        side={side}
        currency={currency}
        keyLabel={keyLabel}
        onSort={(column) => update(nextSort(view, column))}
        caption={t('screen.table_caption', { group: t(`groups.${tableGroup}`) })}
      />
    );

  return (
    <Stack gap="md">
      <Card padding="md" radius="md">
        <Stack gap="xs">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <StatsRangePicker view={view} today={today} range={range} onChange={update} />
            {groupSelect}
          </Group>
          <Text fz="xs" c="dimmed">
            {t('screen.range_note', {
              from: formatDay(range.from, currentLocale()),
              to: formatDay(range.to, currentLocale()),
              tz,
            })}
          </Text>
        </Stack>
      </Card>

      <DelayNotice answer={table.data} />

      <Section
        title={t('screen.over_time')}
        actions={
          <SegmentedControl
            size="xs"
            value={view.chart}
            onChange={(value) => update({ chart: value as StatsView['chart'] })}
            data={chartMetrics.map((m) => ({ value: m, label: t(`screen.chart_${m}`) }))}
            aria-label={t('screen.chart_metric')}
          />
        }
      >
        {chart.isPending && chartPath ? (
          <Skeleton height={260} radius="sm" aria-busy="true" />
        ) : chart.isError ? (
          <ErrorAlert error={chart.error} />
        ) : !chartRows.length || isEmptyValues(sumRows(chartRows, side)) ? (
          <Text c="dimmed" fz="sm">
            {t('errors:no_stats_period')}
          </Text>
        ) : (
          <Suspense fallback={<Skeleton height={260} radius="sm" aria-busy="true" />}>
            <StatsChart
              rows={chartRows}
              hourly={overTime === 'hour'}
              metric={view.chart}
              side={side}
              currency={currency}
            />
          </Suspense>
        )}
      </Section>

      <Section
        title={timed ? t('screen.over_time_table') : t(`by_group.${tableGroup}`)}
        actions={path ? <ExportButtons path={path} call={tableCall} /> : null}
      >
        {empty && !table.isError ? (
          <Text c="dimmed" fz="sm" role="status">
            {t('errors:no_stats_period')}
          </Text>
        ) : (
          tableBody
        )}
      </Section>

      {layout === 'tabs' && path ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {breakdowns.map((g) => (
            <BreakdownCard
              key={g}
              path={pathFor(g)}
              group={g}
              range={range}
              tz={tz}
              props={props}
              view={view}
            />
          ))}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
