import {
  type Partner,
  type PartnerStatsBreakdown,
  partnerStatsBreakdowns,
  type StatsTreeRow,
} from '@adp/contract';
import {
  Anchor,
  Avatar,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { LogsPage } from '../../components/logs-page.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import {
  DaysSelect,
  DeleteEntityButton,
  DetailItem,
  EntityActions,
  EntityLoading,
  EntityNotFound,
  lastDays,
  useListParams,
} from '../../components/partner-kit.tsx';
import { formatDay } from '../../components/stats/stats-keys.ts';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { notifyErrorMessage, notifySuccess } from '../../lib/notify.ts';
import {
  LIMIT,
  useCreatePartner,
  useDeletePartner,
  usePartner,
  usePartnerPreview,
  usePartnerStats,
  usePartners,
  useUpdatePartner,
  useUploadPartnerLogo,
} from './api/partners-queries.ts';
import { PartnerForm, type PartnerSubmit } from './components/partner-form.tsx';

function Logo({ partner, size = 40 }: { partner: Pick<Partner, 'logo' | 'title'>; size?: number }) {
  return (
    <Avatar src={partner.logo} alt="" size={size} radius="sm" color="blue">
      {partner.title.slice(0, 2).toUpperCase()}
    </Avatar>
  );
}

const percent = (value: number) => formatPercent(value);

/** /partners: the agency groups, searchable by title or owner. */
export function PartnersListPage() {
  const { t } = useTranslation('partners');
  const { search, page, set } = useListParams();
  const q = search.get('q') ?? '';
  const partners = usePartners({ page, q });
  const canCreate = useAppAbility().can('create', 'Partner');
  const columns: Column<Partner>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (p) => (
        <Group gap="sm" wrap="nowrap">
          <Logo partner={p} size={32} />
          <Anchor component={Link} to={`/partners/${p._id}`} fw={600}>
            {p.title}
          </Anchor>
        </Group>
      ),
    },
    { key: 'owner', header: t('form.owner'), cell: (p) => p.owner_name ?? `#${p.user_id}` },
    { key: 'members', header: t('view.members'), cell: (p) => formatNumber(p.members_count), align: 'right' },
    { key: 'agency', header: t('fields:agency_rate'), cell: (p) => percent(p.agency_rate), align: 'right' },
    {
      key: 'phoenix',
      header: t('fields:phoenix_rate'),
      cell: (p) => percent(p.phoenix_rate),
      align: 'right',
    },
    {
      key: 'campaign',
      header: t('fields:campaign_rate'),
      cell: (p) => percent(p.campaign_rate),
      align: 'right',
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        actions={
          canCreate ? (
            <Button component={Link} to="/partners/create" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('list.create')}
            </Button>
          ) : null
        }
      />
      <TextInput
        label={t('list.search')}
        defaultValue={q}
        onKeyDown={(e) => {
          if (e.key === 'Enter') set('q', e.currentTarget.value.trim());
        }}
        onBlur={(e) => set('q', e.currentTarget.value.trim())}
        w={{ base: '100%', xs: 300 }}
      />
      <DataTable
        columns={columns}
        rows={partners.data?.items ?? []}
        rowKey={(p) => p._id}
        loading={partners.isPending}
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

/** /partners/create */
export function PartnerCreatePage() {
  const { t } = useTranslation('partners');
  const create = useCreatePartner();
  const navigate = useNavigate();
  const onSubmit = async (input: PartnerSubmit) => {
    const created = await create.mutateAsync({ ...input, user_id: input.user_id ?? '' });
    notifySuccess(t('form.created'));
    navigate(`/partners/${created._id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader title={t('form.create_title')} back={{ to: '/partners', label: t('list.title') }} />
      <PartnerForm onSubmit={onSubmit} submitLabel={t('form.create_submit')} />
    </Stack>
  );
}

/** /partners/{id}/edit */
export function PartnerEditPage() {
  const { t } = useTranslation('partners');
  const { id = '' } = useParams();
  const partner = usePartner(id);
  const update = useUpdatePartner(id);
  const navigate = useNavigate();
  if (partner.isPending) return <EntityLoading />;
  if (partner.isError) return <EntityNotFound />;
  const onSubmit = async ({ user_id: _owner, ...input }: PartnerSubmit) => {
    await update.mutateAsync(input);
    notifySuccess(t('form.saved'));
    navigate(`/partners/${id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { name: partner.data.title })}
        back={{ to: `/partners/${id}`, label: partner.data.title }}
      />
      <PartnerForm partner={partner.data} onSubmit={onSubmit} submitLabel={t('form.save')} />
    </Stack>
  );
}

/** What the group's members see (POST /partners/{id}/preview), with the display switches to try. */
function PreviewCard({ partner }: { partner: Partner }) {
  const { t } = useTranslation('partners');
  const [draft, setDraft] = useState({ showlogo: partner.showlogo, showamount: partner.showamount });
  const preview = usePartnerPreview(partner._id, draft);
  const p = preview.data;
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('preview.title')}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('preview.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('preview.help')}
        </Text>
        <Group gap="lg">
          <Switch
            label={t('fields:showlogo')}
            checked={draft.showlogo}
            onChange={(e) => setDraft({ ...draft, showlogo: e.currentTarget.checked })}
          />
          <Switch
            label={t('fields:showamount')}
            checked={draft.showamount}
            onChange={(e) => setDraft({ ...draft, showamount: e.currentTarget.checked })}
          />
        </Group>
        {p ? (
          <Card withBorder radius="md" padding="md" data-testid="partner-preview">
            <Group gap="sm" mb="sm" wrap="nowrap">
              {p.logo ? (
                <Avatar src={p.logo} alt={t('preview.logo_alt', { title: p.title })} size={48} radius="sm" />
              ) : null}
              <Text fw={700}>{p.title}</Text>
            </Group>
            {p.members.length ? (
              <Stack gap={4}>
                {p.members.map((m) => (
                  <Group key={m._id} justify="space-between" wrap="nowrap">
                    <Text fz="sm">{m.name}</Text>
                    <Text fz="sm" c={m.balance === null ? 'dimmed' : undefined}>
                      {m.balance === null ? t('preview.hidden_amount') : <MoneyText amount={m.balance} />}
                    </Text>
                  </Group>
                ))}
              </Stack>
            ) : (
              <Text c="dimmed" fz="sm">
                {t('preview.no_members')}
              </Text>
            )}
          </Card>
        ) : (
          <Skeleton height={80} radius="md" />
        )}
      </Stack>
    </Card>
  );
}

/** /partners/{id}: the group's terms, logo, preview and links to its log and statistics. */
export function PartnerViewPage() {
  const { t } = useTranslation('partners');
  const { id = '' } = useParams();
  const partner = usePartner(id);
  const ability = useAppAbility();
  const canWrite = ability.can('update', 'Partner');
  const upload = useUploadPartnerLogo(id);
  const remove = useDeletePartner(id);
  const navigate = useNavigate();
  if (partner.isPending) return <EntityLoading />;
  if (partner.isError) return <EntityNotFound />;
  const p = partner.data;
  const onFile = (file: File | null) => {
    if (!file) return;
    if (file.size > 2 * 1024 * 1024) {
      notifyErrorMessage(t('errors:invalid_file'));
      return;
    }
    upload.mutate(file, { onSuccess: () => notifySuccess(t('view.logo_uploaded')) });
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={p.title}
        back={{ to: '/partners', label: t('list.title') }}
        actions={
          <EntityActions
            base={`/partners/${id}`}
            canEdit={canWrite}
            labels={{ stats: t('view.stats'), logs: t('view.logs'), edit: t('view.edit') }}
          />
        }
      />
      <Card padding="lg" radius="md">
        <Group gap="lg" align="flex-start" wrap="wrap">
          <Stack gap="xs" align="center">
            <Logo partner={p} size={96} />
            {canWrite ? (
              <FileButton onChange={onFile} accept="image/png,image/jpeg,image/webp,image/gif">
                {(props) => (
                  <Button
                    {...props}
                    size="xs"
                    variant="light"
                    loading={upload.isPending}
                    leftSection={<IconUpload size={14} aria-hidden />}
                  >
                    {t('view.upload_logo')}
                  </Button>
                )}
              </FileButton>
            ) : null}
          </Stack>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} style={{ flex: 1, minWidth: 240 }}>
            <DetailItem label={t('form.owner')}>
              <Anchor component={Link} to={`/users/${p.user_id}`}>
                {p.owner_name ?? `#${p.user_id}`}
              </Anchor>
            </DetailItem>
            <DetailItem label={t('view.members')}>{formatNumber(p.members_count)}</DetailItem>
            <DetailItem label={t('fields:agency_rate')}>{percent(p.agency_rate)}</DetailItem>
            <DetailItem label={t('fields:phoenix_rate')}>{percent(p.phoenix_rate)}</DetailItem>
            <DetailItem label={t('fields:campaign_rate')}>{percent(p.campaign_rate)}</DetailItem>
            <DetailItem label={t('fields:showlogo')}>
              <Badge variant="light" color={p.showlogo ? 'teal' : 'gray'}>
                {p.showlogo ? t('common:logs.yes') : t('common:logs.no')}
              </Badge>
            </DetailItem>
            <DetailItem label={t('fields:showamount')}>
              <Badge variant="light" color={p.showamount ? 'teal' : 'gray'}>
                {p.showamount ? t('common:logs.yes') : t('common:logs.no')}
              </Badge>
            </DetailItem>
          </SimpleGrid>
        </Group>
      </Card>
      <PreviewCard key={`${p.showlogo}-${p.showamount}`} partner={p} />
      {ability.can('delete', 'Partner') ? (
        <Group>
          <DeleteEntityButton
            label={t('view.delete')}
            title={t('view.delete')}
            message={t('view.delete_confirm', { name: p.title })}
            onDelete={async () => {
              await remove.mutateAsync();
              notifySuccess(t('view.deleted'));
              navigate('/partners');
            }}
          />
        </Group>
      ) : null}
    </Stack>
  );
}

/** /partners/{id}/logs */
export function PartnerLogsPage() {
  const { t } = useTranslation('partners');
  const { id = '' } = useParams();
  const partner = usePartner(id);
  const name = partner.data?.title ?? `#${id}`;
  return (
    <LogsPage
      path={`/partners/${id}/logs`}
      title={t('view.logs_title', { name })}
      back={{ to: `/partners/${id}`, label: name }}
      fieldLabel={(f) => t(`fields:${f}`)}
    />
  );
}

/**
 * The drill-down routes of SPEC.md (phoenix/partners/{partnerId}, geo/country/{countryId}, device/{id},
 * os/{id} …) open the breakdown they belong to; the exchange branches (phoenix, dsp) answer from the
 * group's sites until exchange traffic is recorded per group.
 */
function breakdownOf(splat: string): PartnerStatsBreakdown {
  const [first = '', second = ''] = splat.split('/');
  if (first === 'geo') return second === 'city' ? 'city' : 'country';
  if (first === 'device' || first === 'os' || first === 'site' || first === 'campaigns') return first;
  if (first === 'phoenix') return second === 'geo' ? 'country' : second === 'device' ? 'device' : 'site';
  if (first === 'dsp') return 'site';
  return (partnerStatsBreakdowns as readonly string[]).includes(first)
    ? (first as PartnerStatsBreakdown)
    : 'revenue';
}

/** /partners/{id}/stats/…: the group's sites by day, site, campaign, country, city, device or OS. */
export function PartnerStatsPage() {
  const { t } = useTranslation('partners');
  const { id = '', '*': splat = '' } = useParams();
  const navigate = useNavigate();
  const partner = usePartner(id);
  const [search, setSearch] = useSearchParams();
  const breakdown = breakdownOf(splat);
  const days = search.get('days') ?? '30';
  const page = Math.max(1, Number(search.get('page')) || 1);
  const { from, to } = lastDays(days);
  const stats = usePartnerStats(id, breakdown, { from, to, page });
  if (partner.isError) return <EntityNotFound />;
  const name = partner.data?.title ?? `#${id}`;
  const columns: Column<StatsTreeRow>[] = [
    {
      key: 'key',
      header: t(`stats.by.${breakdown}`),
      // days as the reader's language writes them (the other breakdowns are named)
      cell: (r) => (breakdown === 'revenue' ? formatDay(r.key, currentLocale()) : (r.name ?? r.key)),
      nowrap: true,
    },
    {
      key: 'impressions',
      header: t('stats:columns.impressions'),
      cell: (r) => formatNumber(r.impressions),
      align: 'right',
    },
    { key: 'clicks', header: t('stats:columns.clicks'), cell: (r) => formatNumber(r.clicks), align: 'right' },
    { key: 'ctr', header: t('stats:columns.ctr'), cell: (r) => formatPercent(r.ctr), align: 'right' },
    {
      key: 'earned',
      header: t('stats:earned'),
      cell: (r) => <MoneyText amount={r.earned} />,
      align: 'right',
    },
    { key: 'spent', header: t('stats:spent'), cell: (r) => <MoneyText amount={r.spent} />, align: 'right' },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={t('stats.title', { name })} back={{ to: `/partners/${id}`, label: name }} />
      <Group gap="sm" align="flex-end">
        <Select
          label={t('stats.breakdown')}
          data={partnerStatsBreakdowns.map((b) => ({ value: b, label: t(`stats.by.${b}`) }))}
          value={breakdown}
          onChange={(v) =>
            navigate({ pathname: `/partners/${id}/stats/${v ?? 'revenue'}`, search: `?days=${days}` })
          }
          allowDeselect={false}
          w={{ base: '100%', xs: 220 }}
        />
        <DaysSelect value={days} onChange={(v) => setSearch({ days: v })} />
      </Group>
      <DataTable
        columns={columns}
        rows={stats.data?.rows ?? []}
        rowKey={(r) => r.key}
        loading={stats.isPending}
        empty={t('stats.empty')}
        page={page}
        total={stats.data?.count}
        limit={LIMIT}
        onPage={(p) => setSearch({ days, page: String(p) })}
        caption={t('stats.title', { name })}
        minWidth={640}
      />
      {stats.data ? (
        <Text fz="sm" c="dimmed">
          {t('stats.total', {
            impressions: formatNumber(stats.data.total.impressions),
            clicks: formatNumber(stats.data.total.clicks),
          })}
        </Text>
      ) : null}
    </Stack>
  );
}
