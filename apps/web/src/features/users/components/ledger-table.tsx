import type { LedgerEntry } from '@adp/contract';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { formatDateTime } from '../../../lib/format.ts';

const typeColors: Partial<Record<LedgerEntry['type'], string>> = {
  topup: 'teal',
  withdrawal: 'orange',
  admin_payment: 'indigo',
  campaign_charge: 'red',
  publisher_earning: 'green',
  referral_earning: 'cyan',
  refund: 'grape',
  adjustment: 'gray',
};

/** The sources the platform writes: payment providers and methods, and where an earning came from. */
const knownSources = new Set([
  'sandbox',
  'stripe',
  'bank_transfer',
  'paypal',
  'card',
  'crypto',
  'other',
  'delivery',
  'dsp',
  'adsense',
]);

/**
 * Top-ups name their provider, withdrawals their method and earnings where they came from (ad clicks, DSP
 * auctions, AdSense) as the source: those read translated; an admin's free text stays as written.
 */
function useSourceLabel() {
  const { t } = useTranslation('users');
  return (e: LedgerEntry) => {
    if (!e.source) return '—';
    return knownSources.has(e.source) ? t(`ledger.sources.${e.source}`) : e.source;
  };
}

/** Ledger rows: date, translated type, signed coloured sum, balance after, source. */
export function LedgerTable({
  entries,
  loading,
  error,
  caption,
  page,
  total,
  limit,
  onPage,
  withBalance = true,
}: {
  entries: LedgerEntry[];
  loading?: boolean;
  /** The list query's error, if it failed. */
  error?: unknown;
  caption: string;
  page?: number;
  total?: number;
  limit?: number;
  onPage?: (page: number) => void;
  withBalance?: boolean;
}) {
  const { t } = useTranslation('users');
  const sourceLabel = useSourceLabel();
  const columns: Column<LedgerEntry>[] = [
    { key: 'date', header: t('ledger.date'), nowrap: true, cell: (e) => formatDateTime(e.date) },
    {
      key: 'type',
      header: t('ledger.type'),
      nowrap: true,
      cell: (e) => (
        <Badge variant="light" color={typeColors[e.type] ?? 'gray'} miw="max-content">
          {t(`ledger.types.${e.type}`)}
        </Badge>
      ),
    },
    {
      key: 'sum',
      header: t('ledger.sum'),
      align: 'right',
      nowrap: true,
      cell: (e) => <MoneyText amount={e.sum} signed />,
    },
    ...(withBalance
      ? [
          {
            key: 'balance_after',
            header: t('ledger.balance_after'),
            align: 'right' as const,
            nowrap: true,
            cell: (e: LedgerEntry) => <MoneyText amount={e.balance_after} />,
          },
        ]
      : []),
    { key: 'source', header: t('ledger.source'), cell: (e) => sourceLabel(e) },
  ];
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={entries}
      rowKey={(e) => e._id}
      loading={loading}
      error={error}
      empty={t('ledger.empty')}
      page={page}
      total={total}
      limit={limit}
      onPage={onPage}
    />
  );
}
