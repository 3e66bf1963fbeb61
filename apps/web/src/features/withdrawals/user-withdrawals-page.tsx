import { account } from '@adp/contract';
import { subject } from '@casl/ability';
import { Grid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useOtherOwnerName } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility, useAuth } from '../../lib/ability.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { useHidesOwnBalance } from '../../lib/me-query.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useUserWithdrawals } from './api/withdrawals-queries.ts';
import { WithdrawalForm } from './components/withdrawal-form.tsx';
import { WithdrawalsTable } from './components/withdrawals-table.tsx';

const PER_PAGE = 20;

/** A user's payout requests with their state, and the request form for whoever may ask. */
export function UserWithdrawalsPage() {
  const { t } = useTranslation('billing');
  const { userId = '' } = useParams();
  const ability = useAppAbility();
  const [page, setPage] = useState(1);
  const user = useQuery({
    queryKey: ['users', userId],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(userId)}`, { schema: account }),
  });
  const withdrawals = useUserWithdrawals(userId, page, PER_PAGE);
  const hideBalance = useHidesOwnBalance(userId);
  // a payout is asked for by the account's owner only (an admin reads others' requests)
  const canRequest =
    useAuth().userId === userId && ability.can('create', subject('Withdrawal', { user_id: userId }));
  // another user's requests (an admin, an agency) read "Withdrawals of Anna", not "Your requests"
  const ownerName = useOtherOwnerName(userId);
  const history = ownerName ? t('withdrawals.history_of', { name: ownerName }) : t('withdrawals.history');
  const title = ownerName ? t('withdrawals.of_title', { name: ownerName }) : t('withdrawals.title');
  usePageTitle(title);
  const list = (
    <Stack gap="xs">
      <Title order={2} fz="lg">
        {history}
      </Title>
      <WithdrawalsTable
        caption={history}
        rows={withdrawals.data?.items ?? []}
        loading={withdrawals.isPending}
        error={withdrawals.error}
        page={page}
        total={withdrawals.data?.total}
        limit={PER_PAGE}
        onPage={setPage}
      />
    </Stack>
  );
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        subtitle={ownerName ? undefined : user.data?.name}
        back={{ to: `/users/${userId}`, label: t('back_to_account') }}
      />
      {canRequest ? (
        // side by side only where the requests' table fits beside the form (its status column was cut
        // off at 1280 px with the navigation open)
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 7, xl: 4 }}>
            <WithdrawalForm userId={userId} balance={hideBalance ? undefined : user.data?.balance} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xl: 8 }} miw={0}>
            {list}
          </Grid.Col>
        </Grid>
      ) : (
        list
      )}
    </Stack>
  );
}
