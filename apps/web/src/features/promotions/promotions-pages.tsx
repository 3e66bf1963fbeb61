import type { Promotion, PromotionPage } from '@adp/contract';
import { subject } from '@adp/permissions';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import {
  useCreatePromotion,
  useCreatePromotionPage,
  usePromotion,
  usePromotionPage,
  usePromotionPages,
  usePromotionSite,
  usePromotionSiteChoices,
  useSitePromotions,
  useUpdatePromotion,
  useUpdatePromotionPage,
} from './api/promotions-queries.ts';
import {
  PromotionForm,
  PromotionPageForm,
  type PromotionPageSubmit,
  type PromotionSubmit,
} from './components/promotion-forms.tsx';
import { PromotionImage } from './components/promotion-image.tsx';

function NotFound() {
  const { t } = useTranslation('promotions');
  return (
    <Alert color="red" title={t('errors:error_title')} role="alert">
      {t('errors:not_found')}
    </Alert>
  );
}

function StatusBadge({ status }: { status: 'active' | 'inactive' }) {
  const { t } = useTranslation('promotions');
  return (
    <Badge variant="light" color={status === 'active' ? 'teal' : 'gray'}>
      {t(`status.${status}`)}
    </Badge>
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

const period = (p: Promotion) =>
  p.starts_at || p.ends_at ? `${formatDateTime(p.starts_at)} – ${formatDateTime(p.ends_at)}` : '—';

/** /sites/{siteId}/promotions */
export function SitePromotionsPage() {
  const { t } = useTranslation('promotions');
  const { siteId = '' } = useParams();
  const [page, setPage] = useState(1);
  const site = usePromotionSite(siteId);
  const promotions = useSitePromotions(siteId, page);
  const ability = useAppAbility();
  const canCreate = Boolean(
    site.data && ability.can('create', subject('Promotion', { user_id: site.data.user_id })),
  );
  const columns: Column<Promotion>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (p) => (
        <Anchor component={Link} to={`/promotions/${p._id}`} fw={600}>
          {p.title}
        </Anchor>
      ),
    },
    { key: 'period', header: t('period'), cell: period },
    { key: 'pages', header: t('pages.title'), cell: (p) => p.pages_count, align: 'right' },
    { key: 'status', header: t('fields:status'), cell: (p) => <StatusBadge status={p.status} /> },
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
              to={`/sites/${siteId}/promotions/create`}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              {t('list.create')}
            </Button>
          ) : null
        }
      />
      <DataTable
        columns={columns}
        rows={promotions.data?.items ?? []}
        rowKey={(p) => p._id}
        loading={promotions.isPending}
        error={promotions.error}
        empty={t('list.empty')}
        page={page}
        total={promotions.data?.total}
        limit={20}
        onPage={setPage}
        caption={t('list.title')}
      />
    </Stack>
  );
}

/**
 * /sites/{siteId}/promotions/create, /promotions/create?site_id= and /promotions/create (a site is picked
 * first when none is given).
 */
export function PromotionCreatePage() {
  const { t } = useTranslation('promotions');
  const params = useParams();
  const [search] = useSearchParams();
  const [chosen, setChosen] = useState<string | null>(search.get('site_id'));
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, 300);
  const siteId = params.siteId ?? chosen ?? '';
  const choices = usePromotionSiteChoices(debounced, !params.siteId);
  const site = usePromotionSite(siteId);
  const create = useCreatePromotion();
  const navigate = useNavigate();
  const onSubmit = async (input: PromotionSubmit) => {
    const created = await create.mutateAsync({ ...input, site_id: siteId });
    notifySuccess(t('form.created'));
    navigate(`/promotions/${created._id}`);
  };
  const options = (choices.data?.items ?? []).map((s) => ({
    value: s._id,
    label: `${s.title} (${s.domain})`,
  }));
  if (site.data && !options.some((o) => o.value === site.data._id)) {
    options.unshift({ value: site.data._id, label: `${site.data.title} (${site.data.domain})` });
  }
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.create_title')}
        subtitle={site.data?.domain}
        back={site.data ? { to: `/sites/${siteId}/promotions`, label: site.data.title } : undefined}
      />
      {params.siteId ? null : (
        <Select
          label={t('fields:site_id')}
          placeholder={t('form.site_pick')}
          data={options}
          value={chosen}
          onChange={setChosen}
          searchable
          searchValue={query}
          onSearchChange={setQuery}
          filter={({ options: all }) => all}
          nothingFoundMessage={choices.isFetching ? undefined : t('form.site_none')}
          required
          maw={420}
        />
      )}
      {siteId ? (
        <PromotionForm key={siteId} onSubmit={onSubmit} submitLabel={t('form.create_submit')} />
      ) : null}
    </Stack>
  );
}

export function PromotionEditPage() {
  const { t } = useTranslation('promotions');
  const { promotionId = '' } = useParams();
  const promotion = usePromotion(promotionId);
  const update = useUpdatePromotion(promotionId);
  const navigate = useNavigate();
  if (promotion.isPending) return <Skeleton height={320} radius="md" aria-busy="true" />;
  if (promotion.isError) return <NotFound />;
  const onSubmit = async (input: PromotionSubmit) => {
    await update.mutateAsync(input);
    notifySuccess(t('form.saved'));
    navigate(`/promotions/${promotionId}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { title: promotion.data.title })}
        back={{ to: `/promotions/${promotionId}`, label: promotion.data.title }}
      />
      <PromotionForm promotion={promotion.data} onSubmit={onSubmit} submitLabel={t('form.save')} />
    </Stack>
  );
}

/** /promotions/{promotionId}: the promotion and its pages. */
export function PromotionViewPage() {
  const { t } = useTranslation('promotions');
  const { promotionId = '' } = useParams();
  const promotion = usePromotion(promotionId);
  const [page, setPage] = useState(1);
  const pages = usePromotionPages(promotionId, page);
  const ability = useAppAbility();
  if (promotion.isPending) return <Skeleton height={320} radius="md" aria-busy="true" />;
  if (promotion.isError) return <NotFound />;
  const p = promotion.data;
  const canWrite = ability.can('update', subject('Promotion', { ...p }));
  const canCreatePage = ability.can('create', subject('PromotionPage', { user_id: p.user_id }));
  const columns: Column<PromotionPage>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (pg) => (
        <Anchor component={Link} to={`/promotions/${p._id}/pages/${pg._id}`} fw={600}>
          {pg.title}
        </Anchor>
      ),
    },
    { key: 'text', header: t('fields:text'), cell: (pg) => pg.text || '—' },
    { key: 'image', header: t('fields:image'), cell: (pg) => (pg.image ? t('image.yes') : t('image.no')) },
    { key: 'status', header: t('fields:status'), cell: (pg) => <StatusBadge status={pg.status} /> },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={p.title}
        subtitle={<StatusBadge status={p.status} />}
        back={{ to: `/sites/${p.site_id}/promotions`, label: t('list.title') }}
        actions={
          canWrite ? (
            <Button
              component={Link}
              to={`/promotions/${p._id}/edit`}
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('edit')}
            </Button>
          ) : null
        }
      />
      <Card padding="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Item label={t('fields:url')}>
            <Anchor href={p.url} target="_blank" rel="noreferrer">
              {p.url}
            </Anchor>
          </Item>
          <Item label={t('fields:starts_at')}>{formatDateTime(p.starts_at)}</Item>
          <Item label={t('fields:ends_at')}>{formatDateTime(p.ends_at)}</Item>
        </SimpleGrid>
        {p.description ? (
          <Text mt="md" fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {p.description}
          </Text>
        ) : null}
      </Card>
      <Group justify="space-between">
        <Text fw={600} fz="lg" component="h2" m={0}>
          {t('pages.title')}
        </Text>
        {canCreatePage ? (
          <Button
            component={Link}
            to={`/promotions/${p._id}/pages/create`}
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
          >
            {t('pages.create')}
          </Button>
        ) : null}
      </Group>
      <DataTable
        columns={columns}
        rows={pages.data?.items ?? []}
        rowKey={(pg) => pg._id}
        loading={pages.isPending}
        error={pages.error}
        empty={t('pages.empty')}
        page={page}
        total={pages.data?.total}
        limit={20}
        onPage={setPage}
        caption={t('pages.title')}
      />
    </Stack>
  );
}

export function PromotionPageCreatePage() {
  const { t } = useTranslation('promotions');
  const { promotionId = '' } = useParams();
  const promotion = usePromotion(promotionId);
  const create = useCreatePromotionPage();
  const navigate = useNavigate();
  const onSubmit = async (input: PromotionPageSubmit) => {
    const created = await create.mutateAsync({ ...input, promotion_id: promotionId });
    notifySuccess(t('pages.created'));
    navigate(`/promotions/${promotionId}/pages/${created._id}/edit`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('pages.create_title')}
        back={promotion.data ? { to: `/promotions/${promotionId}`, label: promotion.data.title } : undefined}
      />
      <PromotionPageForm onSubmit={onSubmit} submitLabel={t('form.create_submit')} />
    </Stack>
  );
}

export function PromotionPageViewPage() {
  const { t } = useTranslation('promotions');
  const { promotionId = '', promotionpageId = '' } = useParams();
  const page = usePromotionPage(promotionpageId);
  const ability = useAppAbility();
  if (page.isPending) return <Skeleton height={320} radius="md" aria-busy="true" />;
  if (page.isError) return <NotFound />;
  const pg = page.data;
  const canWrite = ability.can('update', subject('PromotionPage', { ...pg }));
  return (
    <Stack gap="md">
      <PageHeader
        title={pg.title}
        subtitle={<StatusBadge status={pg.status} />}
        back={{ to: `/promotions/${promotionId || pg.promotion_id}`, label: t('pages.back') }}
        actions={
          canWrite ? (
            <Button
              component={Link}
              to={`/promotions/${pg.promotion_id}/pages/${pg._id}/edit`}
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('edit')}
            </Button>
          ) : null
        }
      />
      <Card padding="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Item label={t('fields:text')}>{pg.text || '—'}</Item>
          <Item label={t('fields:url')}>
            <Anchor href={pg.url} target="_blank" rel="noreferrer">
              {pg.url}
            </Anchor>
          </Item>
          <Item label={t('fields:status')}>{t(`status.${pg.status}`)}</Item>
        </SimpleGrid>
      </Card>
      <PromotionImage page={pg} canWrite={false} />
    </Stack>
  );
}

export function PromotionPageEditPage() {
  const { t } = useTranslation('promotions');
  const { promotionpageId = '' } = useParams();
  const page = usePromotionPage(promotionpageId);
  const update = useUpdatePromotionPage(promotionpageId);
  const navigate = useNavigate();
  if (page.isPending) return <Skeleton height={320} radius="md" aria-busy="true" />;
  if (page.isError) return <NotFound />;
  const pg = page.data;
  const onSubmit = async (input: PromotionPageSubmit) => {
    await update.mutateAsync(input);
    notifySuccess(t('form.saved'));
    navigate(`/promotions/${pg.promotion_id}/pages/${pg._id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { title: pg.title })}
        back={{ to: `/promotions/${pg.promotion_id}/pages/${pg._id}`, label: pg.title }}
      />
      <PromotionPageForm key={pg._id} page={pg} onSubmit={onSubmit} submitLabel={t('form.save')} />
      <PromotionImage page={pg} canWrite />
    </Stack>
  );
}
