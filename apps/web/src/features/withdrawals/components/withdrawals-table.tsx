import type { Withdrawal } from '@adp/contract';
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { OwnerLink } from '../../../components/owner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { WithdrawalStatus } from './withdrawal-status.tsx';

export function WithdrawalsTable({
  rows,
  loading,
  error,
  caption,
  withUser,
  actions,
  page,
  total,
  limit,
  onPage,
}: {
  rows: Withdrawal[];
  loading?: boolean;
  /** The list query's error: the table says the list could not be read rather than looking empty. */
  error?: unknown;
  caption: string;
  withUser?: boolean;
  actions?: (row: Withdrawal) => ReactNode;
  page?: number;
  total?: number;
  limit?: number;
  onPage?: (page: number) => void;
}) {
  const { t } = useTranslation('billing');
  const columns: Column<Withdrawal>[] = [
    { key: 'date', header: t('withdrawals.columns.date'), nowrap: true, cell: (w) => formatDateTime(w.date) },
    ...(withUser
      ? [
          {
            key: 'user',
            header: t('withdrawals.columns.user'),
            cell: (w: Withdrawal) => <OwnerLink userId={w.user_id} name={w.user_name} />,
          },
        ]
      : []),
    {
      key: 'sum',
      header: t('fields:sum'),
      align: 'right',
      cell: (w) => <MoneyText amount={w.sum} fw={600} />,
    },
    { key: 'method', header: t('fields:method'), cell: (w) => t(`withdrawals.methods.${w.method}`) },
    {
      key: 'details',
      header: t('fields:details'),
      cell: (w) => (
        <Text fz="sm" lineClamp={2} maw={260} style={{ overflowWrap: 'anywhere' }}>
          {w.details}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t('fields:status'),
      nowrap: true,
      cell: (w) => (
        <div>
          <WithdrawalStatus status={w.status} />
          {w.reference ? (
            <Text fz="xs" c="dimmed">
              {t('withdrawals.reference_short', { reference: w.reference })}
            </Text>
          ) : null}
          {w.reason ? (
            <Text fz="xs" c="dimmed">
              {t('withdrawals.reason_short', { reason: w.reason })}
            </Text>
          ) : null}
        </div>
      ),
    },
    ...(actions ? [{ key: 'actions', header: t('withdrawals.columns.actions'), cell: actions }] : []),
  ];
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={(w) => w._id}
      minWidth={withUser ? 860 : 720}
      loading={loading}
      error={error}
      empty={t('withdrawals.empty')}
      page={page}
      total={total}
      limit={limit}
      onPage={onPage}
    />
  );
}
