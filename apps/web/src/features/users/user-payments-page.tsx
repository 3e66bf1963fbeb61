import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useOtherOwnerName } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useHidesOwnBalance } from '../../lib/me-query.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useUser, useUserPayments, useUserTransactions } from './api/users-queries.ts';
import { LedgerTable } from './components/ledger-table.tsx';

const PER_PAGE = 20;

function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  return [page, (next) => setParams(next > 1 ? { page: String(next) } : {}, { replace: true })];
}

/** Money in and out of the platform: top-ups, withdrawals, admin payments, refunds, adjustments. */
export function UserPaymentsPage() {
  const { t } = useTranslation('users');
  const { userId = '' } = useParams();
  const user = useUser(userId);
  const [page, setPage] = usePageParam();
  const payments = useUserPayments(userId, page, PER_PAGE);
  // another user's payments (an admin, an agency) read "Payments of Anna"; one's own just "Payments"
  const ownerName = useOtherOwnerName(userId);
  const hideBalance = useHidesOwnBalance(userId);
  const title = ownerName ? t('payments.of_title', { name: ownerName }) : t('payments.title');
  usePageTitle(title);
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        subtitle={ownerName ? undefined : user.data?.name}
        back={{ to: `/users/${userId}`, label: t('back_to_account') }}
      />
      <LedgerTable
        caption={title}
        entries={payments.data?.items ?? []}
        loading={payments.isPending}
        error={payments.error}
        page={page}
        total={payments.data?.total}
        limit={PER_PAGE}
        onPage={setPage}
        withBalance={!hideBalance}
      />
    </Stack>
  );
}

/** The whole ledger of the account, newest first. */
export function UserTransactionsPage() {
  const { t } = useTranslation('users');
  const { userId = '' } = useParams();
  const user = useUser(userId);
  const [page, setPage] = usePageParam();
  const transactions = useUserTransactions(userId, page, PER_PAGE);
  const ownerName = useOtherOwnerName(userId);
  const hideBalance = useHidesOwnBalance(userId);
  const title = ownerName ? t('transactions.of_title', { name: ownerName }) : t('transactions.title');
  usePageTitle(title);
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        subtitle={ownerName ? undefined : user.data?.name}
        back={{ to: `/users/${userId}`, label: t('back_to_account') }}
      />
      <LedgerTable
        caption={title}
        entries={transactions.data?.items ?? []}
        loading={transactions.isPending}
        error={transactions.error}
        page={page}
        total={transactions.data?.total}
        limit={PER_PAGE}
        onPage={setPage}
        withBalance={!hideBalance}
      />
    </Stack>
  );
}
