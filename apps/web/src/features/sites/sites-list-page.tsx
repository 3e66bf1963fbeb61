import { moderation as moderationSchema, siteCategories } from '@adp/contract';
import { Anchor, Button, Card, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { OwnerFilter, OwnerGuard, OwnerLink, useOtherOwnerName } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Can } from '../../lib/ability.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { type SiteRow, type SitesFilters, useSitesList } from './api/sites-queries.ts';
import { ModerationBadge, SiteStatusBadge } from './components/site-badges.tsx';

const LIMIT = 20;

/** /sites (admin, every owner) and /users/{userId}/sites (one owner's sites). */
export function SitesListPage() {
  const { userId } = useParams();
  return (
    <OwnerGuard userId={userId} type="Site">
      <SitesList />
    </OwnerGuard>
  );
}

function SitesList() {
  const { t } = useTranslation('sites');
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
  const locale = currentLocale();
  const page = Number(params.get('page') ?? '1') || 1;
  const filters: SitesFilters = {
    page,
    limit: LIMIT,
    status: (params.get('status') as SitesFilters['status']) || undefined,
    moderation: (params.get('moderation') as SitesFilters['moderation']) || undefined,
    category: (params.get('category') as SitesFilters['category']) || undefined,
    account: userId ?? (params.get('account') || undefined),
    owner: userId ? undefined : params.get('owner') || undefined,
    search: debounced.trim() || undefined,
  };
  const sites = useSitesList(filters);

  const setFilter = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next, { replace: true });
  };

  const categories = useMemo(
    () =>
      siteCategories
        .map((value) => ({ value, label: t(`categories.${value}`) }))
        .sort((a, b) => a.label.localeCompare(b.label, locale)),
    [t, locale],
  );

  const columns: Column<SiteRow>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (site) => (
        <div style={{ minWidth: 0 }}>
          <Anchor component={Link} to={`/sites/${site._id}`} fw={600}>
            {site.title}
          </Anchor>
          <Text fz="xs" c="dimmed">
            {site.domain}
          </Text>
        </div>
      ),
    },
    { key: 'category', header: t('fields:category'), cell: (site) => t(`categories.${site.category}`) },
    { key: 'status', header: t('fields:status'), cell: (site) => <SiteStatusBadge status={site.status} /> },
    {
      key: 'moderation',
      header: t('fields:moderation'),
      cell: (site) => <ModerationBadge moderation={site.moderation} />,
    },
    { key: 'materials', header: t('materials.title'), cell: (site) => site.materials_count, align: 'right' },
    ...(userId
      ? []
      : [
          {
            key: 'owner',
            header: t('fields:account'),
            cell: (site: SiteRow) => <OwnerLink userId={site.user_id} name={site.user_name} />,
          },
        ]),
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={listTitle}
        actions={
          <Can I="create" a="Site">
            <Button component={Link} to="/sites/create" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('list.create')}
            </Button>
          </Can>
        }
      />
      <Card padding="md" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: userId ? 4 : 5 }}>
          <TextInput
            label={t('list.search')}
            placeholder={t('list.search_placeholder')}
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
            label={t('fields:category')}
            data={categories}
            value={params.get('category')}
            onChange={(value) => setFilter('category', value)}
            clearable
            searchable
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
        rows={sites.data?.items ?? []}
        rowKey={(site) => site._id}
        loading={sites.isPending}
        error={sites.error}
        empty={t('list.empty')}
        page={page}
        total={sites.data?.total}
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
