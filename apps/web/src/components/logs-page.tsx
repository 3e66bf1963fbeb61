import { type EntityLog, entityLogs } from '@adp/contract';
import { Badge, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../lib/api-client.ts';
import { formatDateTime } from '../lib/format.ts';
import { type Column, DataTable } from './data-table.tsx';
import { PageHeader } from './page-header.tsx';

const LIMIT = 20;
const actionColor = { create: 'green', update: 'blue', delete: 'red' } as const;

/** One table row: a changed field of one log entry (an entry without fields still gets a row). */
interface LogRow {
  key: string;
  log: EntityLog;
  field: string | null;
  before: unknown;
  after: unknown;
}

function rowsOf(logs: EntityLog[]): LogRow[] {
  return logs.flatMap<LogRow>((log) =>
    log.changes.length
      ? log.changes.map((c) => ({ key: `${log._id}-${c.field}`, log, ...c }))
      : [{ key: log._id, log, field: null, before: null, after: null }],
  );
}

/**
 * The audit log page of one entity (`GET /api/<resource>/<id>/logs`): when, who, action, field, before
 * and after, newest first, paged by the server. `fieldLabel` names a field as the entity's form does.
 * @example <LogsPage path={`/partners/${id}/logs`} title={t('logs_of', { name })}
 *   back={{ to: `/partners/${id}`, label: name }} fieldLabel={(f) => t(`fields.${f}`)}
 *   valueLabel={(f, v) => (f === 'status' ? t(`status.${v}`) : undefined)} />
 */
export function LogsPage({
  path,
  title,
  back,
  fieldLabel = (field) => field,
  valueLabel = () => undefined,
}: {
  path: string;
  title: string;
  back?: { to: string; label: string };
  fieldLabel?: (field: string) => string;
  /** A field's value as the entity's pages show it (a status, a position), or undefined for as it is. */
  valueLabel?: (field: string, value: unknown) => string | undefined;
}) {
  const { t } = useTranslation('common');
  const [page, setPage] = useState(1);
  const logs = useQuery({
    queryKey: ['entity-logs', path, page],
    queryFn: () => apiRequest(path, { schema: entityLogs, query: { page, limit: LIMIT } }),
    placeholderData: keepPreviousData,
  });
  const shown = (value: unknown, field: string | null = null): string => {
    if (value === null || value === undefined || value === '') return '—';
    const label = field === null ? undefined : valueLabel(field, value);
    if (label !== undefined) return label;
    if (typeof value === 'boolean') return value ? t('logs.yes') : t('logs.no');
    if (Array.isArray(value)) return value.length ? value.map((v) => shown(v)).join(', ') : '—';
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  };
  const columns: Column<LogRow>[] = [
    { key: 'when', header: t('logs.when'), cell: (r) => formatDateTime(r.log.created_at), nowrap: true },
    {
      key: 'who',
      header: t('logs.who'),
      cell: (r) => r.log.user_name ?? (r.log.user_id ? t('logs.deleted_user') : t('logs.system')),
    },
    {
      key: 'action',
      header: t('logs.action'),
      cell: (r) => (
        <Badge variant="light" color={actionColor[r.log.action]} miw="max-content">
          {t(`logs.actions.${r.log.action}`)}
        </Badge>
      ),
    },
    { key: 'field', header: t('logs.field'), cell: (r) => (r.field ? fieldLabel(r.field) : '—') },
    { key: 'before', header: t('logs.before'), cell: (r) => shown(r.before, r.field) },
    { key: 'after', header: t('logs.after'), cell: (r) => shown(r.after, r.field) },
  ];
  return (
    <Stack gap="lg">
      <PageHeader title={title} back={back} />
      <DataTable
        columns={columns}
        rows={rowsOf(logs.data?.items ?? [])}
        rowKey={(r) => r.key}
        loading={logs.isPending}
        error={logs.error}
        empty={<Text c="dimmed">{t('logs.empty')}</Text>}
        page={page}
        total={logs.data?.total}
        limit={LIMIT}
        onPage={setPage}
        caption={title}
        minWidth={720}
      />
    </Stack>
  );
}
