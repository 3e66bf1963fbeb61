import { type Account, type UsersQuery, userKind } from '@adp/contract';
import { Anchor, Badge, Group, Select, Stack, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowsSort, IconArrowUp, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDate } from '../../lib/format.ts';
import { type UsersFilters, useUsersList } from './api/users-queries.ts';

/** SPEC.md section 9: users per page. */
export const USERS_PER_PAGE = 20;

type SortKey = UsersQuery['sort'];

function readFilters(params: URLSearchParams): UsersFilters {
  const kind = userKind.safeParse(params.get('kind'));
  const sort = params.get('sort');
  const page = Number(params.get('page') ?? '1');
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    limit: USERS_PER_PAGE,
    search: params.get('search')?.trim() || undefined,
    kind: kind.success ? kind.data : undefined,
    sort: sort === 'balance' || sort === 'created_at' ? sort : 'created_at',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

function SortHeader({
  label,
  column,
  filters,
  onSort,
}: {
  label: string;
  column: SortKey;
  filters: UsersFilters;
  onSort: (column: SortKey) => void;
}) {
  const { t } = useTranslation('users');
  const active = filters.sort === column;
  const Icon = !active ? IconArrowsSort : filters.order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton
      onClick={() => onSort(column)}
      aria-label={t('list.sort_by', { column: label })}
      fw={700}
      fz="sm"
    >
      <Group gap={4} wrap="nowrap" component="span">
        {label}
        <Icon size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

export function UsersListPage() {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const [search, setSearch] = useState(filters.search ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const users = useUsersList(filters);

  const update = (next: Record<string, string | undefined>) => {
    setParams(
      (current) => {
        const merged = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) {
          if (value) merged.set(key, value);
          else merged.delete(key);
        }
        return merged;
      },
      { replace: true },
    );
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new search text resets the page
  useEffect(() => {
    if ((debounced.trim() || undefined) !== filters.search)
      update({ search: debounced.trim(), page: undefined });
  }, [debounced]);

  const onSort = (column: SortKey) => {
    const order = filters.sort === column && filters.order === 'desc' ? 'asc' : 'desc';
    update({ sort: column, order, page: undefined });
  };

  const ariaSort = (column: SortKey) =>
    filters.sort === column ? (filters.order === 'asc' ? 'ascending' : 'descending') : 'none';

  const columns: Column<Account>[] = [
    { key: 'id', header: t('list.columns.id'), cell: (u) => u._id },
    {
      key: 'name',
      header: t('fields:name'),
      cell: (u) => (
        <Anchor component={Link} to={`/users/${u._id}`} fw={500} onClick={(e) => e.stopPropagation()}>
          {u.name}
        </Anchor>
      ),
    },
    { key: 'email', header: t('fields:email'), cell: (u) => u.email },
    {
      key: 'role',
      header: t('fields:role'),
      cell: (u) => (
        <Badge variant="light" color={u.role.startsWith('admin') ? 'grape' : 'indigo'} miw="max-content">
          {t(`roles.${u.role}`)}
        </Badge>
      ),
    },
    {
      key: 'balance',
      header: t('fields:balance'),
      align: 'right',
      sort: ariaSort('balance'),
      headerCell: (
        <SortHeader label={t('fields:balance')} column="balance" filters={filters} onSort={onSort} />
      ),
      cell: (u) => <MoneyText amount={u.balance} />,
    },
    {
      key: 'created_at',
      header: t('list.columns.created_at'),
      sort: ariaSort('created_at'),
      headerCell: (
        <SortHeader
          label={t('list.columns.created_at')}
          column="created_at"
          filters={filters}
          onSort={onSort}
        />
      ),
      cell: (u) => formatDate(u.created_at),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader title={t('list.title')} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t('list.search')}
          placeholder={t('list.search_placeholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
        />
        <Select
          label={t('list.kind')}
          data={[
            { value: 'all', label: t('list.kinds.all') },
            ...userKind.options.map((kind) => ({ value: kind, label: t(`list.kinds.${kind}`) })),
          ]}
          value={filters.kind ?? 'all'}
          onChange={(value) =>
            update({ kind: value && value !== 'all' ? value : undefined, page: undefined })
          }
          allowDeselect={false}
          w={{ base: '100%', xs: 220 }}
        />
      </Group>
      <DataTable
        caption={t('list.title')}
        columns={columns}
        rows={users.data?.items ?? []}
        rowKey={(u) => u._id}
        loading={users.isPending}
        error={users.error}
        empty={t('list.empty')}
        page={filters.page}
        total={users.data?.total}
        limit={USERS_PER_PAGE}
        onPage={(page) => update({ page: page > 1 ? String(page) : undefined })}
        onRowClick={(u) => navigate(`/users/${u._id}`)}
      />
    </Stack>
  );
}
