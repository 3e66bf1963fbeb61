import type { campaignPayment } from '@adp/contract';
import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { formatDateTime } from '../../../lib/format.ts';

type Payment = z.infer<typeof campaignPayment>;

export function CampaignPaymentsTable({
  rows,
  currency,
  loading,
  error,
  page,
  total,
  limit,
  onPage,
  compact,
  empty,
}: {
  rows: Payment[];
  currency: string;
  loading?: boolean;
  /** The list query's error, if it failed. */
  error?: unknown;
  page?: number;
  total?: number;
  limit?: number;
  onPage?: (page: number) => void;
  /** Date and amount only, for the balance card. */
  compact?: boolean;
  /** What an empty list says (default: no payments yet). */
  empty?: string;
}) {
  const { t } = useTranslation('campaigns');
  const all: Column<Payment>[] = [
    { key: 'date', header: t('payments.date'), cell: (p) => formatDateTime(p.date) },
    {
      key: 'type',
      header: t('payments.type'),
      cell: (p) => t(`payments.types.${p.type}`, { defaultValue: p.type }),
    },
    {
      key: 'sum',
      header: t('payments.sum'),
      align: 'right',
      cell: (p) => <MoneyText amount={p.sum} currency={currency} signed />,
    },
    {
      key: 'balance_after',
      header: t('payments.balance_after'),
      align: 'right',
      cell: (p) => <MoneyText amount={p.balance_after} currency={currency} />,
    },
  ];
  if (compact)
    return (
      <Table verticalSpacing="xs" aria-label={t('payments.recent')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('payments.date')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('payments.sum')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((p) => (
            <Table.Tr key={p._id}>
              <Table.Td>
                {formatDateTime(p.date)}
                <Text fz="xs" c="dimmed">
                  {t(`payments.types.${p.type}`, { defaultValue: p.type })}
                </Text>
              </Table.Td>
              <Table.Td style={{ textAlign: 'right' }}>
                <MoneyText amount={p.sum} currency={currency} signed />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        {!loading && rows.length === 0 ? <Table.Caption>{t('payments.empty')}</Table.Caption> : null}
      </Table>
    );
  const columns = all;
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(p) => p._id}
      loading={loading}
      error={error}
      empty={empty ?? t('payments.empty')}
      page={page}
      total={total}
      limit={limit}
      onPage={onPage}
      caption={t('payments.title')}
    />
  );
}
