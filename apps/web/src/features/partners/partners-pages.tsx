import {
  type Partner,
  type PartnerStatsBreakdown,
  type PartnerStatsSource,
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
  DeleteEntityButton,
  DetailItem,
  EntityActions,
  EntityLoading,
  EntityNotFound,
  useListParams,
} from '../../components/partner-kit.tsx';
import { FileButtons } from '../../components/stats/file-buttons.tsx';
import { countryName, formatDay } from '../../components/stats/stats-keys.ts';
import { UrlRangePicker, useUrlRange } from '../../components/stats/url-range.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { notifyErrorMessage, notifySuccess } from '../../lib/notify.ts';
import {
  LIMIT,
  useCreatePartner,
  useDeletePartner,
  useDspPartnerName,
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
          {p.status === 'inactive' ? (
            <Badge variant="light" color="gray">
              {t('status.inactive')}
            </Badge>
          ) : null}
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
            <DetailItem label={t('fields:status')}>
              <Badge variant="light" color={p.status === 'active' ? 'teal' : 'gray'}>
                {t(`status.${p.status}`)}
              </Badge>
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

/** What a statistics route of a group names: a breakdown of one source, and a drill-down to one value. */
interface StatsRoute {
  breakdown: PartnerStatsBreakdown;
  source: PartnerStatsSource;
  /** One country, city, device or OS (geo/country/DE, phoenix/geo/Germany, device/mobile …). */
  key?: string;
  /** One DSP partner of the exchange (dsp/partners/{dspId}, phoenix/partners/{partnerId}), by day. */
  partnerId?: string;
}

/**
 * The routes of SPEC.md section 2 under /partners/{id}/stats: a breakdown of the group's sites
 * (revenue, site, campaigns, country, city, device, os), their drill-downs (geo/country/{countryId},
 * geo/city/{cityId}, device/{deviceId}, os/{osId}), and the exchange's branches, phoenix and dsp: the
 * group's slots sold to DSP partners, by partner, one partner by day (phoenix/partners/{partnerId},
 * dsp/partners/{dspId}), one country by name (phoenix/geo/{countryName}) or one device.
 */
function statsRouteOf(splat: string): StatsRoute {
  // the router's params are decoded already
  const [first = '', second = '', third = ''] = splat.split('/');
  const drill = (breakdown: PartnerStatsBreakdown, source: PartnerStatsSource, key: string): StatsRoute =>
    key ? { breakdown, source, key } : { breakdown, source };
  if (first === 'geo') return drill(second === 'city' ? 'city' : 'country', 'sites', second ? third : '');
  if (first === 'device' || first === 'os') return drill(first, 'sites', second);
  if (first === 'phoenix' || first === 'dsp') {
    if (second === 'partners' && third) return { breakdown: 'revenue', source: 'dsp', partnerId: third };
    if (first === 'phoenix' && second === 'geo') return drill('country', 'dsp', third);
    if (first === 'phoenix' && second === 'device') return drill('device', 'dsp', third);
    return { breakdown: 'partner', source: 'dsp' };
  }
  const known = (partnerStatsBreakdowns as readonly string[]).includes(first) && first !== 'partner';
  return { breakdown: known ? (first as PartnerStatsBreakdown) : 'revenue', source: 'sites' };
}

/** Where a row of a breakdown drills down to (under /partners/{id}/stats/), if anywhere. */
function drillPath(route: StatsRoute, key: string): string | null {
  if (route.key || route.partnerId || key === 'unknown') return null;
  const k = encodeURIComponent(key);
  if (route.source === 'dsp') return route.breakdown === 'partner' ? `dsp/partners/${k}` : null;
  if (route.breakdown === 'country') return `geo/country/${k}`;
  if (route.breakdown === 'city') return `geo/city/${k}`;
  if (route.breakdown === 'device' || route.breakdown === 'os') return `${route.breakdown}/${k}`;
  return null;
}

/** /partners/{id}/stats/…: the group's sites (or their exchange traffic) by day, site, campaign, … */
export function PartnerStatsPage() {
  const { t } = useTranslation('partners');
  const { id = '', '*': splat = '' } = useParams();
  const navigate = useNavigate();
  const partner = usePartner(id);
  const [search, setSearch] = useSearchParams();
  const route = statsRouteOf(splat);
  const { breakdown } = route;
  const period = useUrlRange('30_days');
  const page = Math.max(1, Number(search.get('page')) || 1);
  const stats = usePartnerStats(id, route, { ...period.range, tz: period.tz, page });
  const dspName = useDspPartnerName(route.partnerId);
  if (partner.isError) return <EntityNotFound />;
  const name = partner.data?.title ?? `#${id}`;
  const keep = new URLSearchParams(search);
  keep.delete('page');
  const query = keep.toString() ? `?${keep}` : '';
  const drilled = route.partnerId
    ? t('stats.drill_partner', { value: dspName.data?.name ?? `#${route.partnerId}` })
    : route.key
      ? t('stats.drill', {
          what: t(`stats.by.${breakdown}`),
          value:
            breakdown === 'country' && route.key.length === 2
              ? countryName(route.key, currentLocale())
              : route.key,
        })
      : null;
  const columns: Column<StatsTreeRow>[] = [
    {
      key: 'key',
      header: t(`stats.by.${breakdown}`),
      // days as the reader's language writes them (the other breakdowns are named)
      cell: (r) => {
        const label =
          breakdown === 'revenue'
            ? formatDay(r.key, currentLocale())
            : breakdown === 'country' && r.key !== 'unknown'
              ? countryName(r.key, currentLocale())
              : (r.name ?? r.key);
        const to = drillPath(route, r.key);
        return to ? (
          <Anchor component={Link} to={`/partners/${id}/stats/${to}${query}`}>
            {label}
          </Anchor>
        ) : (
          label
        );
      },
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
    // the exchange's rows hold what the DSP partners paid for the slots (the sites' share of it is in
    // their own statistics): one column, named so
    ...(route.source === 'dsp'
      ? [
          {
            key: 'spent',
            header: t('stats.dsp_paid'),
            cell: (r: StatsTreeRow) => <MoneyText amount={r.spent} />,
            align: 'right' as const,
          },
        ]
      : [
          {
            key: 'earned',
            header: t('stats:earned'),
            cell: (r: StatsTreeRow) => <MoneyText amount={r.earned} />,
            align: 'right' as const,
          },
          {
            key: 'spent',
            header: t('stats:spent'),
            cell: (r: StatsTreeRow) => <MoneyText amount={r.spent} />,
            align: 'right' as const,
          },
        ]),
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('stats.title', { name })}
        subtitle={drilled ?? (route.source === 'dsp' ? t('stats.exchange_text') : undefined)}
        back={
          drilled
            ? {
                to: `/partners/${id}/stats/${route.source === 'dsp' ? 'dsp' : breakdown}${query}`,
                label: route.source === 'dsp' ? t('stats.exchange') : t(`stats.by.${breakdown}`),
              }
            : { to: `/partners/${id}`, label: name }
        }
      />
      <Group gap="sm" align="flex-end">
        <Select
          label={t('stats.breakdown')}
          data={[
            ...partnerStatsBreakdowns
              .filter((b) => b !== 'partner')
              .map((b) => ({ value: b, label: t(`stats.by.${b}`) })),
            { value: 'dsp', label: t('stats.exchange') },
          ]}
          value={route.source === 'dsp' ? 'dsp' : breakdown}
          onChange={(v) => navigate({ pathname: `/partners/${id}/stats/${v ?? 'revenue'}`, search: query })}
          allowDeselect={false}
          w={{ base: '100%', xs: 260 }}
        />
        <UrlRangePicker state={period} />
        <Group ml="auto">
          <FileButtons
            path={`/partners/${id}/stats/${breakdown}/export`}
            query={{
              from: period.range.from,
              to: period.range.to,
              tz: period.tz,
              ...(route.source === 'dsp' ? { source: 'dsp' } : {}),
              ...(route.key ? { key: route.key } : {}),
              ...(route.partnerId ? { partner_id: route.partnerId } : {}),
            }}
            fallback={`stats-group-${id}-${breakdown}-${period.range.from}-${period.range.to}.csv`}
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
        page={page}
        total={stats.data?.count}
        limit={LIMIT}
        onPage={(p) =>
          setSearch((prev) => {
            const next = new URLSearchParams(prev);
            next.set('page', String(p));
            return next;
          })
        }
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
