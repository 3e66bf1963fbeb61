import { adsTypes, type Campaign, moderation as moderationSchema } from '@adp/contract';
import { Anchor, Button, Card, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { OwnerFilter, OwnerGuard, OwnerLink, useOtherOwnerName } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Can } from '../../lib/ability.tsx';
import { usePageTitle } from '../../lib/page-title.ts';
import { type CampaignRow, type CampaignsFilters, useCampaignsList } from './api/campaigns-queries.ts';
import { ModerationBadge, StatusBadge } from './components/campaign-badges.tsx';

const LIMIT = 20;

/** /campaigns (admin, every owner) and /users/{userId}/campaigns (one owner's campaigns). */
export function CampaignsListPage() {
  const { userId } = useParams();
  return (
    <OwnerGuard userId={userId} type="Campaign">
      <CampaignsList />
    </OwnerGuard>
  );
}

function CampaignsList() {
  const { t } = useTranslation('campaigns');
  const { userId } = useParams();
  const ownerName = useOtherOwnerName(userId);
  const listTitle = !userId
    ? t('list.title')
    : ownerName
      ? t('list.of_title', { name: ownerName })
      : t('list.my_title');
  usePageTitle(listTitle);
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const page = Number(params.get('page') ?? '1') || 1;
  const filters: CampaignsFilters = {
    page,
    limit: LIMIT,
    status: (params.get('status') as CampaignsFilters['status']) || undefined,
    moderation: (params.get('moderation') as CampaignsFilters['moderation']) || undefined,
    adstype: (params.get('adstype') as CampaignsFilters['adstype']) || undefined,
    account: userId ?? (params.get('account') || undefined),
    owner: userId ? undefined : params.get('owner') || undefined,
    search: debounced.trim() || undefined,
  };
  const campaigns = useCampaignsList(filters);

  const setFilter = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next, { replace: true });
  };
  const base = (c: Campaign) => `/users/${c.user_id}/campaigns/${c._id}`;

  const columns: Column<CampaignRow>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (c) => (
        <div style={{ minWidth: 0 }}>
          <Anchor component={Link} to={base(c)} fw={600}>
            {c.title}
          </Anchor>
          <Text fz="xs" c="dimmed">
            #{c._id} · {t(`adstypes.${c.adstype}`)}
          </Text>
        </div>
      ),
    },
    { key: 'status', header: t('fields:status'), cell: (c) => <StatusBadge status={c.status} /> },
    {
      key: 'moderation',
      header: t('fields:moderation'),
      cell: (c) => <ModerationBadge moderation={c.moderation} />,
    },
    {
      key: 'clickprice',
      header: t('fields:clickprice'),
      align: 'right',
      cell: (c) => <MoneyText amount={c.clickprice} />,
    },
    {
      key: 'balance',
      header: t('fields:balance'),
      align: 'right',
      cell: (c) => <MoneyText amount={c.balance} />,
    },
    { key: 'banners', header: t('creatives'), align: 'right', cell: (c) => c.banners_count },
    ...(userId
      ? []
      : [
          {
            key: 'owner',
            header: t('fields:account'),
            cell: (c: CampaignRow) => <OwnerLink userId={c.user_id} name={c.user_name} />,
          },
        ]),
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={listTitle}
        actions={
          userId ? (
            <Can I="create" a="Campaign">
              <Button
                component={Link}
                to={`/users/${userId}/campaigns/create`}
                leftSection={<IconPlus size={16} aria-hidden />}
              >
                {t('list.create')}
              </Button>
            </Can>
          ) : null
        }
      />
      <Card padding="md" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: userId ? 4 : 5 }}>
          <TextInput
            label={t('list.search')}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setFilter('search', event.currentTarget.value || null);
            }}
            leftSection={<IconSearch size={16} aria-hidden />}
          />
          <Select
            label={t('fields:status')}
            data={['active', 'inactive'].map((value) => ({ value, label: t(`status.${value}`) }))}
            value={params.get('status')}
            onChange={(value) => setFilter('status', value)}
            clearable
            placeholder={t('list.any')}
          />
          <Select
            label={t('fields:moderation')}
            data={moderationSchema.options.map((value) => ({ value, label: t(`moderation.${value}`) }))}
            value={params.get('moderation')}
            onChange={(value) => setFilter('moderation', value)}
            clearable
            placeholder={t('list.any')}
          />
          <Select
            label={t('fields:adstype')}
            data={adsTypes.map((value) => ({ value, label: t(`adstypes.${value}`) }))}
            value={params.get('adstype')}
            onChange={(value) => setFilter('adstype', value)}
            clearable
            placeholder={t('list.any')}
          />
          {userId ? null : (
            <OwnerFilter
              value={params.get('owner') ?? ''}
              onChange={(value) => setFilter('owner', value || null)}
            />
          )}
        </SimpleGrid>
      </Card>
      <DataTable
        columns={columns}
        rows={campaigns.data?.items ?? []}
        rowKey={(c) => c._id}
        loading={campaigns.isPending}
        error={campaigns.error}
        empty={t('list.empty')}
        page={page}
        total={campaigns.data?.total}
        limit={LIMIT}
        onPage={(next) => {
          const nextParams = new URLSearchParams(params);
          nextParams.set('page', String(next));
          setParams(nextParams);
        }}
        caption={listTitle}
      />
    </Stack>
  );
}
