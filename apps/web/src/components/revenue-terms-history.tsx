import {
  type RevenueTermsChange,
  type RevenueTermsEntity,
  type RevenueTermsValue,
  revenueTermsLog,
} from '@adp/contract';
import { Card, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppAbility } from '../lib/ability.tsx';
import { apiRequest } from '../lib/api-client.ts';
import { formatDateTime } from '../lib/format.ts';
import { type Column, DataTable } from './data-table.tsx';

const LIMIT = 10;

/**
 * "Revenue terms history" of a site, widget, agency or user: who changed which term, when, from what to
 * what. Only admins (readonly ones too) see it; for everyone else it renders nothing.
 */
export function RevenueTermsHistory({ entity, entityId }: { entity: RevenueTermsEntity; entityId: string }) {
  const ability = useAppAbility();
  if (!ability.can('read', 'RevenueTerms')) return null;
  return <HistoryTable entity={entity} entityId={entityId} />;
}

function HistoryTable({ entity, entityId }: { entity: RevenueTermsEntity; entityId: string }) {
  // fields: the terms are named as on the forms
  const { t } = useTranslation(['common', 'fields']);
  const [page, setPage] = useState(1);
  const log = useQuery({
    queryKey: ['revenue-terms-log', entity, entityId, page],
    queryFn: () =>
      apiRequest('/revenue-terms-log', {
        schema: revenueTermsLog,
        query: { entity_type: entity, entity_id: entityId, page, limit: LIMIT },
      }),
    placeholderData: keepPreviousData,
  });
  const shown = (value: RevenueTermsValue) =>
    value === null || value === '' ? t('revenue_terms.none') : String(value);
  const columns: Column<RevenueTermsChange>[] = [
    { key: 'when', header: t('revenue_terms.when'), cell: (c) => formatDateTime(c.created_at), nowrap: true },
    { key: 'field', header: t('revenue_terms.field'), cell: (c) => t(`fields:${c.field}`) },
    {
      key: 'change',
      header: t('revenue_terms.change'),
      cell: (c) => `${shown(c.before)} → ${shown(c.after)}`,
    },
    {
      key: 'who',
      header: t('revenue_terms.who'),
      cell: (c) => c.actor_name ?? t('revenue_terms.deleted_user'),
    },
  ];
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('revenue_terms.title')}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('revenue_terms.title')}
        </Title>
        <DataTable
          columns={columns}
          rows={log.data?.items ?? []}
          rowKey={(c) => c._id}
          loading={log.isPending}
          error={log.error}
          empty={<Text c="dimmed">{t('revenue_terms.empty')}</Text>}
          page={page}
          total={log.data?.total}
          limit={LIMIT}
          onPage={setPage}
          caption={t('revenue_terms.title')}
        />
      </Stack>
    </Card>
  );
}
