import {
  type PrebidPartner,
  type PrebidStatsRow,
  prebidPartnerInput,
  prebidStatsGroups,
} from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { CopyTextButton } from '../../components/copy-text-button.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { FormSelect, FormTextInput } from '../../components/form-fields.tsx';
import { LogsPage } from '../../components/logs-page.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import {
  DeleteEntityButton,
  DetailItem,
  EntityActions,
  EntityLoading,
  EntityNotFound,
  StatusBadge,
  useListParams,
} from '../../components/partner-kit.tsx';
import { FileButtons } from '../../components/stats/file-buttons.tsx';
import { formatDay } from '../../components/stats/stats-keys.ts';
import { UrlRangePicker, useUrlRange } from '../../components/stats/url-range.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { applyServerErrors } from '../../lib/server-field-errors.ts';
import { validationErrorMap } from '../../lib/validation.ts';
import {
  LIMIT,
  useDeletePrebidPartner,
  usePrebidPartner,
  usePrebidPartners,
  usePrebidStats,
  useSavePrebidPartner,
} from './api/prebid-partners-queries.ts';

type Values = z.input<typeof prebidPartnerInput>;
type Submit = z.output<typeof prebidPartnerInput>;

function PrebidStatus({ status }: { status: 'active' | 'inactive' }) {
  const { t } = useTranslation('partners');
  return <StatusBadge status={status} label={t(`prebid.status.${status}`)} />;
}

/** /prebidpartners */
export function PrebidPartnersListPage() {
  const { t } = useTranslation('partners');
  const { search, page, set } = useListParams();
  const q = search.get('q') ?? '';
  const partners = usePrebidPartners({ page, q });
  const canCreate = useAppAbility().can('create', 'PrebidPartner');
  const columns: Column<PrebidPartner>[] = [
    {
      key: 'name',
      header: t('fields:name'),
      cell: (p) => (
        <Anchor component={Link} to={`/prebidpartners/${p._id}`} fw={600}>
          {p.name}
        </Anchor>
      ),
    },
    { key: 'bidder', header: t('prebid.bidder_code'), cell: (p) => p.bidder_code || '—' },
    { key: 'status', header: t('fields:status'), cell: (p) => <PrebidStatus status={p.status} /> },
    {
      key: 'created',
      header: t('prebid.created_at'),
      cell: (p) => formatDateTime(p.created_at),
      nowrap: true,
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('prebid.title')}
        actions={
          canCreate ? (
            <Button
              component={Link}
              to="/prebidpartners/create"
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              {t('prebid.create')}
            </Button>
          ) : null
        }
      />
      <TextInput
        label={t('prebid.search')}
        defaultValue={q}
        onKeyDown={(e) => {
          if (e.key === 'Enter') set('q', e.currentTarget.value.trim());
        }}
        w={{ base: '100%', xs: 300 }}
      />
      <DataTable
        columns={columns}
        rows={partners.data?.items ?? []}
        rowKey={(p) => p._id}
        loading={partners.isPending}
        error={partners.error}
        empty={t('prebid.empty')}
        page={page}
        total={partners.data?.total}
        limit={LIMIT}
        onPage={(p) => set('page', String(p))}
        caption={t('prebid.title')}
        minWidth={640}
      />
    </Stack>
  );
}

function PrebidPartnerForm({ partner }: { partner?: PrebidPartner }) {
  const { t } = useTranslation('partners');
  const save = useSavePrebidPartner(partner?._id);
  const navigate = useNavigate();
  const form = useForm<Values, unknown, Submit>({
    resolver: zodResolver(prebidPartnerInput, { error: validationErrorMap }),
    defaultValues: {
      name: partner?.name ?? '',
      bidder_code: partner?.bidder_code ?? '',
      status: partner?.status ?? 'active',
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      notifySuccess(t(partner ? 'form.saved' : 'form.created'));
      navigate(`/prebidpartners/${saved._id}`);
    } catch (error) {
      applyServerErrors(error, form.setError, Object.keys(prebidPartnerInput.shape));
    }
  });
  return (
    <Card padding="lg" radius="md" component="form" onSubmit={submit} noValidate maw={720}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormTextInput control={form.control} name="name" required />
          <FormTextInput
            control={form.control}
            name="bidder_code"
            label={t('prebid.bidder_code')}
            description={t('prebid.bidder_code_help')}
          />
          <FormSelect
            control={form.control}
            name="status"
            data={['active', 'inactive'].map((value) => ({ value, label: t(`prebid.status.${value}`) }))}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {partner ? t('form.save') : t('form.create_submit')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** /prebidpartners/create */
export function PrebidPartnerCreatePage() {
  const { t } = useTranslation('partners');
  return (
    <Stack gap="md">
      <PageHeader title={t('prebid.create')} back={{ to: '/prebidpartners', label: t('prebid.title') }} />
      <PrebidPartnerForm />
    </Stack>
  );
}

/** /prebidpartners/{id}/edit */
export function PrebidPartnerEditPage() {
  const { t } = useTranslation('partners');
  const { id = '' } = useParams();
  const partner = usePrebidPartner(id);
  if (partner.isPending) return <EntityLoading height={240} />;
  if (partner.isError) return <EntityNotFound />;
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { name: partner.data.name })}
        back={{ to: `/prebidpartners/${id}`, label: partner.data.name }}
      />
      <PrebidPartnerForm partner={partner.data} />
    </Stack>
  );
}

/** /prebidpartners/{id}: the partner and the bidder endpoint to configure in its Prebid Server. */
export function PrebidPartnerViewPage() {
  const { t } = useTranslation('partners');
  const { id = '' } = useParams();
  const partner = usePrebidPartner(id);
  const ability = useAppAbility();
  const remove = useDeletePrebidPartner(id);
  const navigate = useNavigate();
  if (partner.isPending) return <EntityLoading height={240} />;
  if (partner.isError) return <EntityNotFound />;
  const p = partner.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={p.name}
        back={{ to: '/prebidpartners', label: t('prebid.title') }}
        actions={
          <EntityActions
            base={`/prebidpartners/${id}`}
            canEdit={ability.can('update', 'PrebidPartner')}
            labels={{ stats: t('view.stats'), logs: t('view.logs'), edit: t('view.edit') }}
          />
        }
      />
      <Card padding="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <DetailItem label={t('fields:status')}>
            <PrebidStatus status={p.status} />
          </DetailItem>
          <DetailItem label={t('prebid.bidder_code')}>{p.bidder_code || '—'}</DetailItem>
          <DetailItem label={t('prebid.created_at')}>{formatDateTime(p.created_at)}</DetailItem>
        </SimpleGrid>
      </Card>
      <Card padding="lg" radius="md">
        <Stack gap="xs">
          <Text fw={600}>{t('prebid.endpoint')}</Text>
          <Text fz="sm" c="dimmed">
            {t('prebid.endpoint_help')}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Text ff="monospace" fz="sm" style={{ overflowWrap: 'anywhere' }} data-testid="prebid-endpoint">
              {p.endpoint}
            </Text>
            <CopyTextButton value={p.endpoint} label={t('prebid.copy')} copiedLabel={t('prebid.copied')} />
          </Group>
        </Stack>
      </Card>
      {ability.can('delete', 'PrebidPartner') ? (
        <Group>
          <DeleteEntityButton
            label={t('view.delete')}
            title={t('view.delete')}
            message={t('view.delete_confirm', { name: p.name })}
            onDelete={async () => {
              await remove.mutateAsync();
              notifySuccess(t('view.deleted'));
              navigate('/prebidpartners');
            }}
          />
        </Group>
      ) : null}
    </Stack>
  );
}

/** /prebidpartners/{id}/logs */
export function PrebidPartnerLogsPage() {
  const { t } = useTranslation('partners');
  const { id = '' } = useParams();
  const partner = usePrebidPartner(id);
  const name = partner.data?.name ?? `#${id}`;
  return (
    <LogsPage
      path={`/prebidpartners/${id}/logs`}
      title={t('view.logs_title', { name })}
      back={{ to: `/prebidpartners/${id}`, label: name }}
      fieldLabel={(f) => (f === 'bidder_code' ? t('prebid.bidder_code') : t(`fields:${f}`))}
      valueLabel={(f, v) => (f === 'status' ? t(`prebid.status.${String(v)}`) : undefined)}
    />
  );
}

function PrebidStats({ v2 }: { v2: boolean }) {
  const { t } = useTranslation('partners');
  const { id = '' } = useParams();
  const partner = usePrebidPartner(id);
  const [search, setSearch] = useSearchParams();
  const period = useUrlRange('30_days');
  const group = (v2 ? search.get('group') : null) ?? 'day';
  const stats = usePrebidStats(id, v2, {
    ...period.range,
    tz: period.tz,
    group: group as (typeof prebidStatsGroups)[number],
  });
  if (partner.isError) return <EntityNotFound />;
  const name = partner.data?.name ?? `#${id}`;
  const columns: Column<PrebidStatsRow>[] = [
    {
      key: 'key',
      header: t(`prebid.by.${group}`),
      cell: (r) => (group === 'day' ? formatDay(r.key, currentLocale()) : (r.name ?? r.key)),
      nowrap: true,
    },
    { key: 'requests', header: t('prebid.requests'), cell: (r) => formatNumber(r.requests), align: 'right' },
    { key: 'bids', header: t('prebid.bids'), cell: (r) => formatNumber(r.bids), align: 'right' },
    { key: 'wins', header: t('prebid.wins'), cell: (r) => formatNumber(r.wins), align: 'right' },
    {
      key: 'impressions',
      header: t('stats:columns.impressions'),
      cell: (r) => formatNumber(r.impressions),
      align: 'right',
    },
    { key: 'spent', header: t('stats:spent'), cell: (r) => <MoneyText amount={r.spent} />, align: 'right' },
    {
      key: 'ecpm',
      header: t('stats:columns.ecpm'),
      cell: (r) => <MoneyText amount={r.ecpm} />,
      align: 'right',
    },
  ];
  const set = (key: string, value: string) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      next.set(key, value);
      return next;
    });
  return (
    <Stack gap="md">
      <PageHeader
        title={t(v2 ? 'prebid.stats_v2_title' : 'prebid.stats_title', { name })}
        back={{ to: `/prebidpartners/${id}`, label: name }}
        actions={
          <Button
            component={Link}
            to={`/prebidpartners/${id}/${v2 ? 'stats' : 'v2/stats'}`}
            variant="default"
          >
            {t(v2 ? 'prebid.by_date' : 'prebid.breakdowns')}
          </Button>
        }
      />
      <Group gap="sm" align="flex-end">
        {v2 ? (
          <Select
            label={t('stats.breakdown')}
            data={prebidStatsGroups.map((g) => ({ value: g, label: t(`prebid.by.${g}`) }))}
            value={group}
            onChange={(v) => set('group', v ?? 'day')}
            allowDeselect={false}
            w={{ base: '100%', xs: 200 }}
          />
        ) : null}
        <UrlRangePicker state={period} />
        <Group ml="auto">
          <FileButtons
            path={`/prebidpartners/${id}${v2 ? '/v2' : ''}/stats/export`}
            query={{ from: period.range.from, to: period.range.to, tz: period.tz, group }}
            fallback={`stats-prebid-partner-${id}-${group}-${period.range.from}-${period.range.to}.csv`}
          />
        </Group>
      </Group>
      <DataTable
        columns={columns}
        rows={stats.data?.rows ?? []}
        rowKey={(r) => r.key}
        loading={stats.isPending}
        error={stats.error}
        empty={t('stats.empty')}
        caption={t(v2 ? 'prebid.stats_v2_title' : 'prebid.stats_title', { name })}
        minWidth={720}
      />
    </Stack>
  );
}

/** /prebidpartners/{id}/stats: by date. */
export function PrebidPartnerStatsPage() {
  return <PrebidStats v2={false} />;
}

/** /prebidpartners/{id}/v2/stats: by campaign, country or device. */
export function PrebidPartnerV2StatsPage() {
  return <PrebidStats v2 />;
}
