import { subject } from '@casl/ability';
import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useOtherOwnerName } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility, useAuth } from '../../lib/ability.tsx';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAgencies } from './api/agencies-queries.ts';
import { AgenciesTable } from './components/agencies-table.tsx';

const PER_PAGE = 20;

function AgenciesList({ account }: { account?: string }) {
  const { t } = useTranslation('agencies');
  const ability = useAppAbility();
  const auth = useAuth();
  const [page, setPage] = useState(1);
  const ownerName = useOtherOwnerName(account);
  const listTitle = !account ? t('title') : ownerName ? t('of_title', { name: ownerName }) : t('user_title');
  usePageTitle(listTitle);
  const agencies = useAgencies({ page, limit: PER_PAGE, ...(account ? { account } : {}) });
  const owner = account ?? auth.userId ?? '';
  const canCreate = ability.can('create', subject('Agency', { user_id: owner }));
  const createTo =
    account && account !== auth.userId ? `/agencies/create?user_id=${account}` : '/agencies/create';
  return (
    <Stack gap="md">
      <PageHeader
        title={listTitle}
        back={account ? { to: `/users/${account}`, label: t('back_to_account') } : undefined}
        actions={
          canCreate ? (
            <Button component={Link} to={createTo} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('create')}
            </Button>
          ) : null
        }
      />
      <AgenciesTable
        caption={listTitle}
        rows={agencies.data?.items ?? []}
        loading={agencies.isPending}
        error={agencies.error}
        withOwner={!account}
        page={page}
        total={agencies.data?.total}
        limit={PER_PAGE}
        onPage={setPage}
      />
    </Stack>
  );
}

/** /agencies: every agency the caller may see (all of them for admins). */
export function AgenciesPage() {
  return <AgenciesList />;
}

/** /users/{userId}/agencies: the agencies one user owns. */
export function UserAgenciesPage() {
  const { userId = '' } = useParams();
  return <AgenciesList account={userId} />;
}
