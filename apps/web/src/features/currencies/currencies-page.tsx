import type { Currency } from '@adp/contract';
import { ActionIcon, Badge, Button, Stack, Tooltip } from '@mantine/core';
import { IconEdit, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { currencyName, formatDateTime, formatNumber } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useCurrencies, useRefreshRates } from './api/currencies-queries.ts';
import { CurrencyEditDialog } from './components/currency-edit-dialog.tsx';

/** Admin: currencies users display amounts in, with their rate per 1 USD. */
export function CurrenciesPage() {
  const { t } = useTranslation('currencies');
  const canUpdate = useAppAbility().can('update', 'Currency');
  const currencies = useCurrencies();
  const refresh = useRefreshRates();
  const [editing, setEditing] = useState<Currency | null>(null);
  const f = (field: string) => t(`resources.currencies.fields.${field}`);
  const columns: Column<Currency>[] = [
    {
      key: 'code',
      header: f('code'),
      cell: (c) => (
        <Badge variant="light" miw="max-content">
          {c.code}
        </Badge>
      ),
    },
    { key: 'name', header: f('name'), cell: (c) => currencyName(c.code, c.name) },
    { key: 'symbol', header: f('symbol'), cell: (c) => c.symbol },
    {
      key: 'rate',
      header: f('rate'),
      align: 'right',
      cell: (c) => (c.rate === null ? t('unknown') : formatNumber(c.rate)),
    },
    { key: 'last_update', header: f('last_update'), cell: (c) => formatDateTime(c.last_update) },
    {
      key: 'rate_source',
      header: f('rate_source'),
      cell: (c) => (c.rate_source ? t(`sources.${c.rate_source}`, { defaultValue: c.rate_source }) : '—'),
    },
    ...(canUpdate
      ? [
          {
            key: 'actions',
            header: t('actions'),
            align: 'right' as const,
            cell: (c: Currency) => (
              <Tooltip label={t('edit_title', { code: c.code })}>
                <ActionIcon
                  variant="subtle"
                  onClick={() => setEditing(c)}
                  aria-label={t('edit_title', { code: c.code })}
                >
                  <IconEdit size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            ),
          },
        ]
      : []),
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          canUpdate ? (
            <Button
              variant="light"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={refresh.isPending}
              onClick={() =>
                refresh.mutate(undefined, {
                  onSuccess: (result) => notifySuccess(t('refreshed', { count: result.updated.length })),
                })
              }
            >
              {t('refresh')}
            </Button>
          ) : null
        }
      />
      <DataTable
        caption={t('title')}
        columns={columns}
        rows={currencies.data?.items ?? []}
        rowKey={(c) => c._id}
        loading={currencies.isPending}
        error={currencies.error}
      />
      {editing ? <CurrencyEditDialog currency={editing} onClose={() => setEditing(null)} /> : null}
    </Stack>
  );
}
