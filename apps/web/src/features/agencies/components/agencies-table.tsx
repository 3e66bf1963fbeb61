import type { Agency } from '@adp/contract';
import { Anchor, Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { OwnerLink } from '../../../components/owner.tsx';
import { formatDate, formatNumber, formatPercent } from '../../../lib/format.ts';
import { AgencyLogo } from './agency-logo.tsx';

export function AgenciesTable({
  rows,
  loading,
  error,
  caption,
  withOwner,
  page,
  total,
  limit,
  onPage,
}: {
  rows: Agency[];
  loading: boolean;
  /** The list query's error, if it failed. */
  error?: unknown;
  caption: string;
  withOwner?: boolean;
  page: number;
  total?: number;
  limit: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation('agencies');
  const navigate = useNavigate();
  const f = (field: string) => t(`resources.agencies.fields.${field}`);
  const columns: Column<Agency>[] = [
    {
      key: 'title',
      header: f('title'),
      cell: (a) => (
        <Group gap="sm" wrap="nowrap">
          <AgencyLogo logo={a.logo} title={a.title} size={32} />
          <Anchor component={Link} to={`/agencies/${a._id}`} fw={500} onClick={(e) => e.stopPropagation()}>
            {a.title}
          </Anchor>
        </Group>
      ),
    },
    ...(withOwner
      ? [
          {
            key: 'owner',
            header: f('user_id'),
            cell: (a: Agency & { user_name?: string | undefined }) => (
              <OwnerLink userId={a.user_id} name={a.user_name} />
            ),
          },
        ]
      : []),
    {
      key: 'agency_rate',
      header: f('agency_rate'),
      align: 'right',
      cell: (a) => formatPercent(a.agency_rate),
    },
    {
      key: 'phoenix_rate',
      header: f('phoenix_rate'),
      align: 'right',
      cell: (a) => formatPercent(a.phoenix_rate),
    },
    {
      key: 'campaign_rate',
      header: f('campaign_rate'),
      align: 'right',
      cell: (a) => formatPercent(a.campaign_rate),
    },
    {
      key: 'members',
      header: f('members_count'),
      align: 'right',
      cell: (a) => <Badge variant="light">{formatNumber(a.members_count)}</Badge>,
    },
    { key: 'created_at', header: f('created_at'), cell: (a) => formatDate(a.created_at) },
  ];
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={(a) => a._id}
      loading={loading}
      error={error}
      empty={t('empty')}
      page={page}
      total={total}
      limit={limit}
      onPage={onPage}
      onRowClick={(a) => navigate(`/agencies/${a._id}`)}
    />
  );
}
