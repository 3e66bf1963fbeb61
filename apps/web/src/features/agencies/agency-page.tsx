import type { Agency, AgencyMember } from '@adp/contract';
import { subject } from '@casl/ability';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconEdit, IconPlus, IconUserMinus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { RevenueTermsHistory } from '../../components/revenue-terms-history.tsx';
import { useAppAbility, useAuth } from '../../lib/ability.tsx';
import { formatDate, formatPercent } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAgency, useMembers, useRemoveMember } from './api/agencies-queries.ts';
import { AgencyLogo } from './components/agency-logo.tsx';

function Detail({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

function Members({ agency, canManage }: { agency: Agency; canManage: boolean }) {
  const { t } = useTranslation('agencies');
  const members = useMembers(agency._id);
  const remove = useRemoveMember(agency._id);
  const [removing, setRemoving] = useState<AgencyMember | null>(null);
  const columns: Column<AgencyMember>[] = [
    {
      key: 'name',
      header: t('fields:name'),
      cell: (m) => (
        <Anchor component={Link} to={`/users/${m._id}`}>
          {m.name}
        </Anchor>
      ),
    },
    { key: 'email', header: t('fields:email'), cell: (m) => m.email },
    { key: 'phone', header: t('fields:phone'), cell: (m) => m.phone || '—' },
    {
      key: 'balance',
      header: t('fields:balance'),
      align: 'right',
      cell: (m) => <MoneyText amount={m.balance} />,
    },
    {
      key: 'created_at',
      header: t('resources.agencies.fields.created_at'),
      cell: (m) => formatDate(m.created_at),
    },
    ...(canManage
      ? [
          {
            key: 'actions',
            header: t('members.actions'),
            align: 'right' as const,
            cell: (m: AgencyMember) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t('members.edit_for', { name: m.name })}>
                  <ActionIcon
                    component={Link}
                    to={`/agencies/${agency._id}/${m._id}/edit`}
                    variant="subtle"
                    aria-label={t('members.edit_for', { name: m.name })}
                  >
                    <IconEdit size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('members.remove_for', { name: m.name })}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => setRemoving(m)}
                    aria-label={t('members.remove_for', { name: m.name })}
                  >
                    <IconUserMinus size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ),
          },
        ]
      : []),
  ];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} fz="lg">
          {t('members.title')}
        </Title>
        {canManage ? (
          <Button
            component={Link}
            to={`/agencies/${agency._id}/create`}
            size="sm"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('members.add')}
          </Button>
        ) : null}
      </Group>
      <DataTable
        caption={t('members.title')}
        columns={columns}
        rows={members.data?.items ?? []}
        rowKey={(m) => m._id}
        loading={members.isPending}
        error={members.error}
        empty={t('members.empty')}
      />
      <ConfirmDialog
        opened={removing !== null}
        title={t('members.remove_title')}
        message={t('members.remove_text', { name: removing?.name ?? '', agency: agency.title })}
        confirmLabel={t('members.remove')}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          const name = removing.name;
          remove.mutate(removing._id, {
            onSuccess: () => {
              notifySuccess(t('members.removed', { name }));
              setRemoving(null);
            },
            onError: () => setRemoving(null),
          });
        }}
      />
    </Stack>
  );
}

function AgencyDetails({ agency }: { agency: Agency }) {
  const { t } = useTranslation('agencies');
  usePageTitle(t('document_title', { title: agency.title }));
  const ability = useAppAbility();
  const auth = useAuth();
  const asAgency = subject('Agency', { ...agency, member_ids: [] as string[] });
  const canManage = ability.can('update', asAgency);
  const yes = (value: boolean) => (
    <Badge variant="light" color={value ? 'teal' : 'gray'}>
      {value ? t('yes') : t('no')}
    </Badge>
  );
  const f = (field: string) => t(`resources.agencies.fields.${field}`);
  // a member may see its agency but not the other members
  const seesMembers = canManage || ability.can('manage', 'ACL');
  return (
    <Stack gap="md">
      <PageHeader
        title={
          <Group gap="sm" wrap="nowrap" component="span">
            <AgencyLogo logo={agency.logo} title={agency.title} size={44} />
            {agency.title}
          </Group>
        }
        back={{
          to: ability.can('manage', 'ACL') ? '/agencies' : `/users/${auth.userId ?? agency.user_id}/agencies`,
          label: t('back_to_list'),
        }}
        actions={
          canManage ? (
            <Button
              component={Link}
              to={`/agencies/${agency._id}/edit`}
              variant="light"
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('edit')}
            </Button>
          ) : null
        }
      />
      <Card padding="lg" radius="md">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
          <Detail label={f('agency_rate')} value={formatPercent(agency.agency_rate)} />
          <Detail label={f('phoenix_rate')} value={formatPercent(agency.phoenix_rate)} />
          <Detail label={f('campaign_rate')} value={formatPercent(agency.campaign_rate)} />
          <Detail label={f('showlogo')} value={yes(agency.showlogo)} />
          <Detail label={f('showamount')} value={yes(agency.showamount)} />
          <Detail label={f('members_count')} value={agency.members_count} />
        </SimpleGrid>
      </Card>
      {seesMembers ? <Members agency={agency} canManage={canManage} /> : null}
      <RevenueTermsHistory entity="agency" entityId={agency._id} />
    </Stack>
  );
}

export function AgencyPage() {
  const { t } = useTranslation('agencies');
  const { id = '' } = useParams();
  const agency = useAgency(id);
  if (agency.isPending) return <Skeleton height={240} radius="md" />;
  if (agency.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  return <AgencyDetails agency={agency.data} />;
}
