import type { Widget } from '@adp/contract';
import { subject } from '@adp/permissions';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconChartLine, IconEdit, IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ClicksLinks } from '../../components/clicks-links.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { RevenueTermsHistory } from '../../components/revenue-terms-history.tsx';
import { StatsHiddenNotice, useSiteStatsAccess } from '../../components/site-stats-access.tsx';
import { StatsPanel } from '../../components/stats-panel.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatNumber } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import {
  useCreateWidget,
  useSiteChoices,
  useSiteWidgets,
  useUpdateWidget,
  useWidget,
  useWidgetSite,
} from './api/widgets-queries.ts';
import { EmbedCode } from './components/embed-code.tsx';
import { WidgetModerationBadge, WidgetStatusBadge } from './components/widget-badges.tsx';
import { WidgetForm, type WidgetSubmit } from './components/widget-form.tsx';
import { settingsOf } from './components/widget-form-schema.ts';
import { WidgetPreview } from './components/widget-preview.tsx';

function NotFound() {
  const { t } = useTranslation('widgets');
  return (
    <Alert color="red" title={t('errors:error_title')} role="alert">
      {t('errors:not_found')}
    </Alert>
  );
}

/** /sites/{siteId}/widgets */
export function SiteWidgetsPage() {
  const { t } = useTranslation('widgets');
  const { siteId = '' } = useParams();
  const [page, setPage] = useState(1);
  const site = useWidgetSite(siteId);
  const widgets = useSiteWidgets(siteId, page);
  const ability = useAppAbility();
  const canCreate = Boolean(
    site.data && ability.can('create', subject('Widget', { user_id: site.data.user_id })),
  );
  const columns: Column<Widget>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (w) => (
        <Anchor component={Link} to={`/widgets/${w._id}`} fw={600}>
          {w.title}
        </Anchor>
      ),
    },
    { key: 'type', header: t('fields:type'), cell: (w) => t(`types.${w.settings.type}`) },
    { key: 'processor', header: t('fields:processor'), cell: (w) => t(`processors.${w.processor}`) },
    { key: 'status', header: t('fields:status'), cell: (w) => <WidgetStatusBadge status={w.status} /> },
    {
      key: 'moderation',
      header: t('fields:moderation'),
      cell: (w) => <WidgetModerationBadge moderation={w.moderation} />,
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        subtitle={site.data?.domain}
        back={site.data ? { to: `/sites/${siteId}`, label: site.data.title } : undefined}
        actions={
          canCreate ? (
            <Button
              component={Link}
              to={`/sites/${siteId}/widgets/create`}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              {t('list.create')}
            </Button>
          ) : null
        }
      />
      <DataTable
        columns={columns}
        rows={widgets.data?.items ?? []}
        rowKey={(w) => w._id}
        loading={widgets.isPending}
        error={widgets.error}
        empty={t('list.empty')}
        page={page}
        total={widgets.data?.total}
        limit={20}
        onPage={setPage}
        caption={t('list.title')}
      />
    </Stack>
  );
}

/** /sites/{siteId}/widgets/create and /widgets/create?site_id= (a site is chosen first when missing). */
export function WidgetCreatePage() {
  const { t } = useTranslation('widgets');
  const params = useParams();
  const [search] = useSearchParams();
  const [chosen, setChosen] = useState<string | null>(search.get('site_id'));
  const siteId = params.siteId ?? chosen ?? '';
  const choices = useSiteChoices(!params.siteId);
  const site = useWidgetSite(siteId);
  const navigate = useNavigate();
  const create = useCreateWidget();
  const onSubmit = async (input: WidgetSubmit) => {
    const created = await create.mutateAsync({ ...input, site_id: siteId });
    notifySuccess(t('form.created'));
    navigate(`/widgets/${created._id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.create_title')}
        subtitle={site.data?.domain}
        back={site.data ? { to: `/sites/${siteId}/widgets`, label: site.data.title } : undefined}
      />
      {params.siteId ? null : (
        <Select
          label={t('fields:site_id')}
          data={(choices.data?.items ?? []).map((s) => ({ value: s._id, label: `${s.title} (${s.domain})` }))}
          value={chosen}
          onChange={setChosen}
          searchable
          required
          maw={420}
        />
      )}
      {siteId ? (
        <WidgetForm key={siteId} siteId={siteId} onSubmit={onSubmit} submitLabel={t('form.create_submit')} />
      ) : null}
    </Stack>
  );
}

export function WidgetEditPage() {
  const { t } = useTranslation('widgets');
  const { widgetId = '' } = useParams();
  const widget = useWidget(widgetId);
  const update = useUpdateWidget(widgetId);
  const navigate = useNavigate();
  if (widget.isPending) return <Skeleton height={480} radius="md" aria-busy="true" />;
  if (widget.isError) return <NotFound />;
  const onSubmit = async (input: WidgetSubmit) => {
    await update.mutateAsync(input);
    notifySuccess(t('form.saved'));
    navigate(`/widgets/${widgetId}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { title: widget.data.title })}
        back={{ to: `/widgets/${widgetId}`, label: widget.data.title }}
      />
      <WidgetForm
        key={widget.data._id}
        widget={widget.data}
        siteId={widget.data.site_id}
        onSubmit={onSubmit}
        submitLabel={t('form.save')}
      />
    </Stack>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** /widgets/{widgetId}: state, embed code, settings and the preview of the saved settings. */
export function WidgetPage() {
  const { t } = useTranslation('widgets');
  const { widgetId = '' } = useParams();
  const widget = useWidget(widgetId);
  const site = useWidgetSite(widget.data?.site_id ?? '');
  const ability = useAppAbility();
  const access = useSiteStatsAccess(site.data);
  usePageTitle(widget.data ? t('document_title', { title: widget.data.title }) : undefined);
  if (widget.isPending) return <Skeleton height={480} radius="md" aria-busy="true" />;
  if (widget.isError) return <NotFound />;
  const w = widget.data;
  const s = w.settings;
  const canWrite = ability.can('update', subject('Widget', { ...w }));
  return (
    <Stack gap="md">
      <PageHeader
        title={w.title}
        subtitle={
          <Group gap="xs" component="span">
            <span>{site.data?.domain ?? `#${w.site_id}`}</span>
            <WidgetStatusBadge status={w.status} />
            <WidgetModerationBadge moderation={w.moderation} />
          </Group>
        }
        back={{ to: `/sites/${w.site_id}/widgets`, label: site.data?.title ?? t('list.title') }}
        actions={
          <>
            {access === 'hidden' ? null : (
              <Button
                component={Link}
                to={`/widgets/${w._id}/stats`}
                variant="default"
                leftSection={<IconChartLine size={16} aria-hidden />}
              >
                {t('stats:open')}
              </Button>
            )}
            {canWrite ? (
              <Button
                component={Link}
                to={`/widgets/${w._id}/edit`}
                leftSection={<IconEdit size={16} aria-hidden />}
              >
                {t('overview.edit')}
              </Button>
            ) : null}
          </>
        }
      />
      {w.moderation !== 'approved' ? (
        <Alert
          color={w.moderation === 'rejected' ? 'red' : 'yellow'}
          title={t(`overview.moderation_${w.moderation}`)}
          role="status"
        >
          {w.moderation === 'rejected'
            ? t('overview.rejected_reason', { reason: w.moderation_reason ?? '—' })
            : t('overview.pending_text')}
        </Alert>
      ) : null}
      <EmbedCode widgetId={w._id} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Card padding="lg" radius="md" component="section" aria-label={t('overview.settings')}>
          <Stack gap="md">
            <Title order={2} fz="lg">
              {t('overview.settings')}
            </Title>
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <Item label={t('fields:type')}>{t(`types.${s.type}`)}</Item>
              <Item label={t('fields:processor')}>{t(`processors.${w.processor}`)}</Item>
              <Item label={t('fields:columns')}>
                {s.columns} × {s.rows}
              </Item>
              <Item label={t('fields:width')}>{s.width ? `${s.width} px` : t('overview.full_width')}</Item>
              <Item label={t('fields:earn_processor')}>{t(`earn_processors.${w.earn_processor}`)}</Item>
              <Item label={t('fields:earn_value')}>
                {w.earn_processor === 'percent'
                  ? `${formatNumber(w.earn_value)} %`
                  : formatNumber(w.earn_value)}
              </Item>
              <Item label={t('fields:font')}>{`${s.font}, ${s.font_size} px`}</Item>
              <Item label={t('fields:interstitial_time')}>
                {s.interstitial_time
                  ? `${s.interstitial_time} ms / ${s.interstitial_pages}`
                  : t('overview.off')}
              </Item>
            </SimpleGrid>
            {s.type === 'builder' && s.blocks.length ? (
              <Text fz="sm">
                {s.blocks.map((block) => `${t(`block_types.${block.type}`)} · ${block.format}`).join(', ')}
              </Text>
            ) : null}
          </Stack>
        </Card>
        <WidgetPreview settings={settingsOf(s)} siteId={w.site_id} title={w.title} saved />
      </SimpleGrid>
      {/* the site says what its owner may see of the statistics: nothing is asked before it is known */}
      {access === 'pending' ? null : access === 'hidden' ? (
        <StatsHiddenNotice />
      ) : (
        <StatsPanel entity="widgets" id={w._id} />
      )}
      <ClicksLinks kind="widget" base={`/widgets/${w._id}`} advanced={access === 'advanced'} />
      <RevenueTermsHistory entity="widget" entityId={w._id} />
    </Stack>
  );
}
