import type { DspPartner, DspPartnerBlacklistItem } from '@adp/contract';
import {
  ActionIcon,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { LogsPage } from '../../components/logs-page.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import {
  DeleteEntityButton,
  DetailItem,
  EntityActions,
  EntityLoading,
  EntityNotFound,
  StatusBadge as KitStatusBadge,
  useListParams,
} from '../../components/partner-kit.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatNumber } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import {
  LIMIT,
  useCreateDspPartner,
  useDeleteBlacklistItem,
  useDeleteDspPartner,
  useDspBlacklist,
  useDspPartner,
  useDspPartners,
  useSaveBlacklistItem,
  useUpdateDspPartner,
} from './api/dsp-partners-queries.ts';
import { DspPartnerForm, type DspPartnerSubmit } from './components/dsp-partner-form.tsx';

export function StatusBadge({ status }: { status: 'active' | 'inactive' }) {
  const { t } = useTranslation('dsppartners');
  return <KitStatusBadge status={status} label={t(`status.${status}`)} />;
}

const listed = (items: string[]) => (items.length ? items.join(', ') : '—');

/** /dsppartners: every DSP partner, searchable by name or endpoint, filtered by status. */
export function DspPartnersListPage() {
  const { t } = useTranslation('dsppartners');
  const { search, page, set } = useListParams();
  const q = search.get('q') ?? '';
  const status = search.get('status') ?? '';
  const partners = useDspPartners({ page, q, status });
  const canCreate = useAppAbility().can('create', 'DspPartner');
  const columns: Column<DspPartner>[] = [
    {
      key: 'name',
      header: t('fields:name'),
      cell: (p) => (
        <Anchor component={Link} to={`/dsppartners/${p._id}`} fw={600} style={{ whiteSpace: 'nowrap' }}>
          {p.name}
        </Anchor>
      ),
    },
    {
      key: 'endpoint',
      header: t('fields:endpoint'),
      cell: (p) => (
        <>
          <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {p.endpoint}
          </Text>
          <Text fz="xs" c="dimmed">
            OpenRTB {p.openrtb_version}
          </Text>
        </>
      ),
    },
    {
      key: 'tmax',
      header: t('fields:max_request_time'),
      cell: (p) => formatNumber(p.max_request_time),
      align: 'right',
    },
    {
      key: 'money',
      header: t('fields:daily_money_limit'),
      align: 'right',
      cell: (p) =>
        p.daily_money_limit === null ? t('no_limit') : <MoneyText amount={p.daily_money_limit} inherit />,
    },
    { key: 'status', header: t('fields:status'), cell: (p) => <StatusBadge status={p.status} /> },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        actions={
          canCreate ? (
            <Button
              component={Link}
              to="/dsppartners/create"
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              {t('list.create')}
            </Button>
          ) : null
        }
      />
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('list.search')}
          defaultValue={q}
          onKeyDown={(e) => {
            if (e.key === 'Enter') set('q', e.currentTarget.value.trim());
          }}
          onBlur={(e) => set('q', e.currentTarget.value.trim())}
          w={{ base: '100%', xs: 320 }}
        />
        <Select
          label={t('fields:status')}
          data={[
            { value: '', label: t('list.all') },
            { value: 'active', label: t('status.active') },
            { value: 'inactive', label: t('status.inactive') },
          ]}
          value={status}
          onChange={(v) => set('status', v ?? '')}
          allowDeselect={false}
          w={{ base: '100%', xs: 180 }}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={partners.data?.items ?? []}
        rowKey={(p) => p._id}
        loading={partners.isPending}
        error={partners.error}
        empty={t('list.empty')}
        page={page}
        total={partners.data?.total}
        limit={LIMIT}
        onPage={(p) => set('page', String(p))}
        caption={t('list.title')}
        minWidth={760}
      />
    </Stack>
  );
}

/** /dsppartners/create */
export function DspPartnerCreatePage() {
  const { t } = useTranslation('dsppartners');
  const create = useCreateDspPartner();
  const navigate = useNavigate();
  const onSubmit = async (input: DspPartnerSubmit) => {
    const created = await create.mutateAsync(input);
    notifySuccess(t('form.created'));
    navigate(`/dsppartners/${created._id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader title={t('form.create_title')} back={{ to: '/dsppartners', label: t('list.title') }} />
      <DspPartnerForm onSubmit={onSubmit} submitLabel={t('form.create_submit')} />
    </Stack>
  );
}

/** /dsppartners/{id}/edit */
export function DspPartnerEditPage() {
  const { t } = useTranslation('dsppartners');
  const { id = '' } = useParams();
  const partner = useDspPartner(id);
  const update = useUpdateDspPartner(id);
  const navigate = useNavigate();
  if (partner.isPending) return <EntityLoading />;
  if (partner.isError) return <EntityNotFound />;
  const onSubmit = async (input: DspPartnerSubmit) => {
    await update.mutateAsync(input);
    notifySuccess(t('form.saved'));
    navigate(`/dsppartners/${id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { name: partner.data.name })}
        back={{ to: `/dsppartners/${id}`, label: partner.data.name }}
      />
      <DspPartnerForm partner={partner.data} onSubmit={onSubmit} submitLabel={t('form.save')} />
    </Stack>
  );
}

/** Adds or changes one blacklist item of a partner. */
function BlacklistItemDialog({
  partnerId,
  item,
  onClose,
}: {
  partnerId: string;
  item: DspPartnerBlacklistItem | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('dsppartners');
  const save = useSaveBlacklistItem();
  const current = item && item !== 'new' ? item : null;
  const [source, setSource] = useState(current?.source ?? '');
  const [comment, setComment] = useState(current?.comment ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await save.mutateAsync({
        ...(current ? { id: current._id } : {}),
        dsp_partner_id: partnerId,
        source,
        comment,
      });
      notifySuccess(t('blacklist.saved'));
      onClose();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setErrors(
        Object.fromEntries(error.fieldErrors.map((e) => [e.field.split('.').pop() ?? e.field, e.detail])),
      );
    }
  };
  return (
    <Modal
      opened={item !== null}
      onClose={onClose}
      title={current ? t('blacklist.edit_title') : t('blacklist.add_title')}
      centered
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('fields:source')}
            description={t('blacklist.source_help')}
            value={source}
            onChange={(e) => setSource(e.currentTarget.value)}
            error={errors.source}
            required
            data-autofocus
          />
          <TextInput
            label={t('fields:comment')}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={errors.comment}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function BlacklistSection({ partner, canWrite }: { partner: DspPartner; canWrite: boolean }) {
  const { t } = useTranslation('dsppartners');
  const [page, setPage] = useState(1);
  const items = useDspBlacklist(partner._id, page);
  const remove = useDeleteBlacklistItem();
  const [editing, setEditing] = useState<DspPartnerBlacklistItem | 'new' | null>(null);
  const [removing, setRemoving] = useState<DspPartnerBlacklistItem | null>(null);
  const columns: Column<DspPartnerBlacklistItem>[] = [
    { key: 'source', header: t('fields:source'), cell: (i) => <Text fw={600}>{i.source}</Text> },
    { key: 'comment', header: t('fields:comment'), cell: (i) => i.comment || '—' },
  ];
  if (canWrite)
    columns.push({
      key: 'actions',
      header: <VisuallyHidden>{t('blacklist.actions')}</VisuallyHidden>,
      align: 'right',
      cell: (i) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={t('blacklist.edit', { source: i.source })}>
            <ActionIcon
              variant="subtle"
              aria-label={t('blacklist.edit', { source: i.source })}
              onClick={() => setEditing(i)}
            >
              <IconEdit size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('blacklist.remove', { source: i.source })}>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('blacklist.remove', { source: i.source })}
              onClick={() => setRemoving(i)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    });
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fw={600} fz="lg" component="h2" m={0}>
          {t('blacklist.title')}
        </Text>
        {canWrite ? (
          <Button
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            {t('blacklist.add')}
          </Button>
        ) : null}
      </Group>
      <DataTable
        columns={columns}
        rows={items.data?.items ?? []}
        rowKey={(i) => i._id}
        loading={items.isPending}
        error={items.error}
        empty={t('blacklist.empty')}
        page={page}
        total={items.data?.total}
        limit={LIMIT}
        onPage={setPage}
        caption={t('blacklist.title')}
      />
      {editing !== null ? (
        <BlacklistItemDialog partnerId={partner._id} item={editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        opened={removing !== null}
        title={t('blacklist.remove_title')}
        message={t('blacklist.remove_confirm', { source: removing?.source ?? '' })}
        confirmLabel={t('blacklist.remove_submit')}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (removing) await remove.mutateAsync(removing._id);
          setRemoving(null);
          notifySuccess(t('blacklist.removed'));
        }}
      />
    </Stack>
  );
}

/** /dsppartners/{id}: the partner's settings and its blacklist items. */
export function DspPartnerViewPage() {
  const { t } = useTranslation('dsppartners');
  const { id = '' } = useParams();
  const partner = useDspPartner(id);
  const ability = useAppAbility();
  const del = useDeleteDspPartner(id);
  const navigate = useNavigate();
  if (partner.isPending) return <EntityLoading />;
  if (partner.isError) return <EntityNotFound />;
  const p = partner.data;
  const canWrite = ability.can('update', 'DspPartner');
  return (
    <Stack gap="md">
      <PageHeader
        title={p.name}
        subtitle={<StatusBadge status={p.status} />}
        back={{ to: '/dsppartners', label: t('list.title') }}
        actions={
          <>
            <EntityActions
              base={`/dsppartners/${p._id}`}
              canEdit={canWrite}
              labels={{ stats: t('view.stats'), logs: t('view.logs'), edit: t('view.edit') }}
            />
            {ability.can('delete', 'DspPartner') ? (
              <DeleteEntityButton
                label={t('view.delete')}
                title={t('view.delete_title')}
                message={t('view.delete_confirm', { name: p.name })}
                onDelete={async () => {
                  await del.mutateAsync();
                  notifySuccess(t('view.deleted'));
                  navigate('/dsppartners');
                }}
              />
            ) : null}
          </>
        }
      />
      <Card padding="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          <DetailItem label={t('fields:endpoint')}>{p.endpoint}</DetailItem>
          <DetailItem label={t('fields:openrtb_version')}>OpenRTB {p.openrtb_version}</DetailItem>
          <DetailItem label={t('fields:max_request_time')}>{formatNumber(p.max_request_time)}</DetailItem>
          <DetailItem label={t('fields:daily_money_limit')}>
            {p.daily_money_limit === null ? (
              t('no_limit')
            ) : (
              <MoneyText amount={p.daily_money_limit} inherit />
            )}
          </DetailItem>
          <DetailItem label={t('form.daily_budget_limit')}>
            {p.daily_budget_limit === null ? t('no_limit') : formatNumber(p.daily_budget_limit)}
          </DetailItem>
          <DetailItem label={t('fields:ad_position')}>{t(`positions.${p.ad_position}`)}</DetailItem>
          <DetailItem label={t('fields:whitelist')}>
            {p.whitelist.length ? listed(p.whitelist) : t('view.all_sources')}
          </DetailItem>
          <DetailItem label={t('fields:blacklist')}>{listed(p.blacklist)}</DetailItem>
        </SimpleGrid>
      </Card>
      <BlacklistSection partner={p} canWrite={ability.can('create', 'DspPartnerBlacklist')} />
    </Stack>
  );
}

/** /dsppartners/{id}/logs: the audit log of the partner. */
export function DspPartnerLogsPage() {
  const { t } = useTranslation('dsppartners');
  const { id = '' } = useParams();
  const partner = useDspPartner(id);
  const name = partner.data?.name ?? '';
  return (
    <LogsPage
      path={`/dsppartners/${encodeURIComponent(id)}/logs`}
      title={t('logs.title', { name })}
      back={{ to: `/dsppartners/${id}`, label: name || t('list.title') }}
      fieldLabel={(f) => (f === 'daily_budget_limit' ? t('form.daily_budget_limit') : t(`fields:${f}`))}
      // as the partner's page shows them: "Active", "Unknown" (not "active", "0")
      valueLabel={(f, v) =>
        f === 'status'
          ? t(`status.${String(v)}`)
          : f === 'ad_position'
            ? t(`positions.${String(v)}`)
            : undefined
      }
    />
  );
}
