import {
  defaultReportGroup,
  groupedReports,
  type ReportColumn,
  type ReportFormat,
  type ReportGroup,
  type ReportRow,
  type ReportType,
  reportColumnsOf,
  reportTypes,
} from '@adp/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useStatsTimeZone } from '../../components/stats/stats-api.ts';
import { UrlRangePicker, useUrlRange } from '../../components/stats/url-range.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatMoney, formatNumber, formatPercent } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { type ReportFilters, useReport, useReportExport } from './api/reports-queries.ts';

const LIMIT = 50;

const isGrouped = (type: ReportType) => (groupedReports as readonly string[]).includes(type);
/** Which id filters a report type takes (the user filter every one does). */
const takesSite = (type: ReportType) => type !== 'criteo' && type !== 'affiliates';
const takesCampaign = (type: ReportType) => type !== 'ecpms' && type !== 'affiliates';

type Translate = (key: string, options: { defaultValue: string }) => string;

/** A day 'YYYY-MM-DD' as the language writes it (the day itself, whatever the browser's timezone). */
const formatDay = (day: string) =>
  new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
/** An instant on the wall clock of the report's timezone. */
const formatInstant = (iso: string, tz: string) =>
  new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'medium', timeZone: tz }).format(
    new Date(iso),
  );

function cellOf(column: ReportColumn, row: ReportRow, tz: string, t: Translate) {
  const value = row[column.key];
  if (value === null || value === undefined || value === '') return '—';
  switch (column.kind) {
    case 'money':
      return formatMoney(Number(value));
    case 'percent':
      return formatPercent(Number(value));
    case 'int':
      return formatNumber(Number(value));
    case 'day':
      return formatDay(String(value));
    case 'instant':
      return formatInstant(String(value), tz);
    case 'text':
      if (column.key === 'status')
        return (
          <Badge variant="light" color={value === 'charged' ? 'teal' : 'red'} miw="max-content">
            {t(`statuses.${value}`, { defaultValue: String(value) })}
          </Badge>
        );
      // why a click was not charged: the click lists' words (a reason they do not know as it is)
      if (column.key === 'reason') return t(`clicks:reasons.${value}`, { defaultValue: String(value) });
      return String(value);
    default:
      return String(value);
  }
}

/** Admin: the reports (sites, campaigns, clicks, affiliates, eCPMs, criteo, postback) with filters and export. */
export function ReportsPage() {
  const { t } = useTranslation('reports');
  const tz = useStatsTimeZone();
  const [params, setParams] = useSearchParams();
  const type = (reportTypes as readonly string[]).includes(params.get('type') ?? '')
    ? (params.get('type') as ReportType)
    : 'sites';
  // the quick ranges and periods of SPEC.md section 9, or custom days (`from`/`to`), from the URL
  const period = useUrlRange('last_7_days');
  const { from, to } = period.range;
  const groupParam = params.get('group');
  const group: ReportGroup =
    groupParam === 'day' || groupParam === 'total' ? groupParam : defaultReportGroup(type);
  const status = params.get('status');
  const page = Math.max(1, Number(params.get('page')) || 1);
  const idParam = (name: string) => {
    const v = params.get(name)?.trim();
    return v && /^\d{1,18}$/.test(v) ? v : undefined;
  };
  // an id filter that is no id: said under its field, and the report waits (it would ignore the filter)
  const badId = (name: string) => {
    const v = params.get(name)?.trim();
    return v && !/^\d{1,18}$/.test(v) ? t('validation:number', { field: t(`filters.${name}`) }) : undefined;
  };

  const filters: ReportFilters = {
    type,
    from,
    to,
    tz,
    ...(isGrouped(type) ? { group } : {}),
    user_id: idParam('user_id'),
    ...(takesSite(type) ? { site_id: idParam('site_id') } : {}),
    ...(takesCampaign(type) ? { campaign_id: idParam('campaign_id') } : {}),
    ...(type === 'clicks' && (status === 'charged' || status === 'invalid') ? { status } : {}),
  };
  const idErrors = {
    user_id: badId('user_id'),
    site_id: takesSite(type) ? badId('site_id') : undefined,
    campaign_id: takesCampaign(type) ? badId('campaign_id') : undefined,
  };
  const filtersValid = !idErrors.user_id && !idErrors.site_id && !idErrors.campaign_id;
  const report = useReport(filters, page, LIMIT, filtersValid);
  const download = useReportExport();
  const [exporting, setExporting] = useState<ReportFormat | null>(null);

  /** Changes filters in the URL; any change but paging goes back to the first page. */
  const update = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );

  const exportAs = (format: ReportFormat) => {
    setExporting(format);
    download.mutate({ filters, format }, { onSettled: () => setExporting(null) });
  };

  const columns: Column<ReportRow>[] = reportColumnsOf(type, group).map((c) => ({
    key: c.key,
    header: t(`columns.${c.key}`),
    align: c.kind === 'int' || c.kind === 'money' || c.kind === 'percent' ? 'right' : 'left',
    nowrap: true,
    cell: (row) => cellOf(c, row, tz, t),
  }));

  const error = report.error ?? download.error;
  const errorText =
    error instanceof ApiError
      ? error.status === 404
        ? t('unknown_id')
        : error.message
      : error
        ? t('failed')
        : null;

  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Group gap="xs">
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={exporting === 'csv'}
              disabled={exporting !== null || !filtersValid}
              onClick={() => exportAs('csv')}
            >
              {t('export_csv')}
            </Button>
            <Button
              variant="light"
              leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
              loading={exporting === 'xlsx'}
              disabled={exporting !== null || !filtersValid}
              onClick={() => exportAs('xlsx')}
            >
              {t('export_xlsx')}
            </Button>
          </Group>
        }
      />
      <Tabs
        value={type}
        onChange={(value) => value && update({ type: value, group: null, status: null })}
        keepMounted={false}
      >
        <Tabs.List style={{ flexWrap: 'wrap' }}>
          {reportTypes.map((rt) => (
            <Tabs.Tab key={rt} value={rt}>
              {t(`types.${rt}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Card padding="md" radius="md" withBorder>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t(`descriptions.${type}`)}
          </Text>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
            <UrlRangePicker state={period} />
            {isGrouped(type) ? (
              <Select
                label={t('filters.group')}
                data={[
                  { value: 'day', label: t('groups.day') },
                  { value: 'total', label: t('groups.total') },
                ]}
                value={group}
                onChange={(value) => value && update({ group: value })}
                allowDeselect={false}
              />
            ) : null}
            <TextInput
              label={t('filters.user_id')}
              inputMode="numeric"
              placeholder={t('filters.any')}
              defaultValue={params.get('user_id') ?? ''}
              onBlur={(e) => update({ user_id: e.currentTarget.value.trim() })}
              error={idErrors.user_id}
            />
            {takesSite(type) ? (
              <TextInput
                label={t('filters.site_id')}
                inputMode="numeric"
                placeholder={t('filters.any')}
                defaultValue={params.get('site_id') ?? ''}
                onBlur={(e) => update({ site_id: e.currentTarget.value.trim() })}
                error={idErrors.site_id}
              />
            ) : null}
            {takesCampaign(type) ? (
              <TextInput
                label={t('filters.campaign_id')}
                inputMode="numeric"
                placeholder={t('filters.any')}
                defaultValue={params.get('campaign_id') ?? ''}
                onBlur={(e) => update({ campaign_id: e.currentTarget.value.trim() })}
                error={idErrors.campaign_id}
              />
            ) : null}
            {type === 'clicks' ? (
              <Select
                label={t('filters.status')}
                placeholder={t('filters.any')}
                data={[
                  { value: 'charged', label: t('statuses.charged') },
                  { value: 'invalid', label: t('statuses.invalid') },
                ]}
                value={status}
                onChange={(value) => update({ status: value })}
                clearable
              />
            ) : null}
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('timezone_note', { tz })}
          </Text>
        </Stack>
      </Card>
      {errorText ? (
        <Alert color="red" role="alert">
          {errorText}
        </Alert>
      ) : null}
      <DataTable
        caption={t(`types.${type}`)}
        columns={columns}
        rows={filtersValid ? (report.data?.rows ?? []) : []}
        rowKey={(row) =>
          reportColumnsOf(type, group)
            .map((c) => String(row[c.key] ?? ''))
            .join('|')
        }
        loading={filtersValid && report.isPending}
        empty={t('empty')}
        page={page}
        total={filtersValid ? (report.data?.total ?? 0) : 0}
        limit={LIMIT}
        onPage={(p) => update({ page: String(p) })}
        minWidth={Math.max(560, columns.length * 100)}
      />
    </Stack>
  );
}
