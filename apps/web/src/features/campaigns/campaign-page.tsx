import type { Banner, Campaign, CampaignPaymentsKind } from '@adp/contract';
import { platformCurrency } from '@adp/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconChartLine, IconCopy, IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ClicksLinks } from '../../components/clicks-links.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { ImportIps } from '../../components/import-ips.tsx';
import { ModerationButtons } from '../../components/moderation-buttons.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { useOwnerListTitle } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatsPanel } from '../../components/stats-panel.tsx';
import { Can } from '../../lib/ability.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useHidesOwnBalance } from '../../lib/me-query.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import {
  ownerQuery,
  useCampaign,
  useCampaignBanners,
  useCampaignPayments,
  useCopyCampaign,
  useDeleteCampaign,
  useImportCampaignIps,
  useModerateCampaign,
} from './api/campaigns-queries.ts';
import { BlockedSourcesPanel } from './components/blocked-sources-panel.tsx';
import { ModerationBadge, StatusBadge, TargetCtrBadge } from './components/campaign-badges.tsx';
import { CampaignIpList } from './components/campaign-ip-list.tsx';
import { CampaignPaymentsTable } from './components/campaign-payments-table.tsx';
import { CampaignStatusSwitch } from './components/campaign-status-switch.tsx';
import { FundCampaignButton } from './components/fund-campaign-dialog.tsx';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function Panel({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Card padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={2} fz="lg">
            {title}
          </Title>
          {actions}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

function CreativesPanel({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('campaigns');
  const [page, setPage] = useState(1);
  const banners = useCampaignBanners(campaign._id, page);
  const base = `/users/${campaign.user_id}/campaigns/${campaign._id}/creatives`;
  const columns: Column<Banner>[] = [
    {
      key: 'image',
      header: t('creatives_panel.image'),
      cell: (b) =>
        b.images?.thumb ? (
          <Image src={b.images.thumb} alt="" w={60} h={40} radius="sm" fit="cover" />
        ) : (
          <Text c="dimmed">—</Text>
        ),
    },
    {
      key: 'title',
      header: t('fields:title'),
      cell: (b) => (
        <Anchor component={Link} to={`${base}/${b._id}`} fw={600}>
          {b.title}
        </Anchor>
      ),
    },
    {
      key: 'status',
      header: t('fields:status'),
      cell: (b) => <StatusBadge status={b.status} ns="banners" />,
    },
    {
      key: 'moderation',
      header: t('fields:moderation'),
      cell: (b) => <ModerationBadge moderation={b.moderation} ns="banners" />,
    },
  ];
  return (
    <Panel
      title={t('creatives_panel.title', { count: campaign.banners_count })}
      actions={
        <Group gap="xs">
          <Button component={Link} to={base} variant="default" size="xs">
            {t('creatives_panel.all')}
          </Button>
          <Can I="create" a="Banner">
            <Button
              component={Link}
              to={`${base}/create`}
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
            >
              {t('creatives_panel.create')}
            </Button>
          </Can>
        </Group>
      }
    >
      <DataTable
        columns={columns}
        rows={banners.data?.items ?? []}
        rowKey={(b) => b._id}
        loading={banners.isPending}
        error={banners.error}
        empty={t('creatives_panel.empty')}
        page={page}
        total={banners.data?.total}
        limit={10}
        onPage={setPage}
        caption={t('creatives_panel.caption')}
      />
    </Panel>
  );
}

/** /users/{userId}/campaigns/{id} and /v2/{id}: summary, balance, creatives and payments of a campaign. */
export function CampaignPage() {
  const { t } = useTranslation('campaigns');
  const { userId = '', id = '' } = useParams();
  const navigate = useNavigate();
  const v2 = useLocation().pathname.includes('/campaigns/v2/');
  const campaign = useCampaign(id);
  const owner = useQuery({ ...ownerQuery(campaign.data?.user_id ?? userId), meta: { silent: true } });
  const hideOwnerBalance = useHidesOwnBalance(campaign.data?.user_id ?? userId);
  // the money moved in and out, beside the Fund button (the charges are in the statistics and the ledger)
  const payments = useCampaignPayments(id, 1, 5, 'payments');
  const listTitle = useOwnerListTitle(t, campaign.data?.user_id ?? userId);
  const copy = useCopyCampaign();
  const remove = useDeleteCampaign(id);
  const importIps = useImportCampaignIps(id);
  const moderate = useModerateCampaign(id);
  const [deleting, setDeleting] = useState(false);
  usePageTitle(campaign.data ? t('document_title', { title: campaign.data.title }) : undefined);

  if (campaign.isPending) return <Skeleton height={480} radius="md" aria-busy="true" />;
  if (campaign.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const c = campaign.data;
  // the campaign's money is in the platform currency (the owner's display currency converts its balance only)
  const currency = platformCurrency;
  const base = `/users/${c.user_id}/campaigns/${c._id}`;
  const rtb = c.openrtb;

  return (
    <Stack gap="md">
      <PageHeader
        title={c.title}
        subtitle={`#${c._id} · ${t(`adstypes.${c.adstype}`)}`}
        back={{ to: `/users/${c.user_id}/campaigns`, label: listTitle }}
        actions={
          <>
            <Button
              component={Link}
              to={`${base}/stats`}
              variant="default"
              leftSection={<IconChartLine size={16} aria-hidden />}
            >
              {t('stats:open')}
            </Button>
            <Button component={Link} to={`${base}/stats-sites`} variant="default">
              {t('stats:open_sites')}
            </Button>
            <Can I="update" a="Campaign">
              <Button component={Link} to={`${base}/edit`} leftSection={<IconEdit size={16} aria-hidden />}>
                {t('view.edit')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconCopy size={16} aria-hidden />}
                loading={copy.isPending}
                onClick={async () => {
                  const created = await copy.mutateAsync(c._id).catch(() => null);
                  if (!created) return;
                  notifySuccess(t('view.copied'));
                  navigate(`/users/${created.user_id}/campaigns/${created._id}`);
                }}
              >
                {t('view.copy')}
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setDeleting(true)}
              >
                {t('view.delete')}
              </Button>
            </Can>
          </>
        }
      />

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Panel title={t('view.summary')}>
          <Group gap="xs">
            <StatusBadge status={c.status} />
            <ModerationBadge moderation={c.moderation} />
            {rtb.enabled ? <Badge variant="outline">OpenRTB</Badge> : null}
          </Group>
          {c.moderation === 'rejected' && c.moderation_reason ? (
            <Alert color="red" variant="light" title={t('view.rejected_reason')}>
              {c.moderation_reason}
            </Alert>
          ) : null}
          <Can I="update" a="Campaign">
            <CampaignStatusSwitch campaign={c} />
          </Can>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Fact label={t('fields:clickprice')}>
              <MoneyText amount={c.clickprice} currency={currency} />
            </Fact>
            <Fact label={t('fields:dailyclicks')}>
              {c.dailyclicks ? formatNumber(c.dailyclicks) : t('view.unlimited')}
            </Fact>
            <Fact label={t('fields:daily_budget')}>
              {c.daily_budget !== null ? (
                <MoneyText amount={c.daily_budget} currency={currency} />
              ) : (
                t('view.unlimited')
              )}
            </Fact>
            <Fact label={t('fields:pacing')}>{t(`pacing.${c.pacing}`)}</Fact>
            <Fact label={t('fields:weight')}>{c.weight}</Fact>
            <Fact label={t('fields:click_filter')}>{t(`click_filters.${c.click_filter}`)}</Fact>
            <Fact label={t('fields:brand_name')}>{c.brand_name || '—'}</Fact>
            <Fact label={t('fields:sub_category')}>{c.sub_category || '—'}</Fact>
            <Fact label={t('fields:iab_categories')}>
              {c.iab_categories.length ? c.iab_categories.join(', ') : '—'}
            </Fact>
            <Fact label={t('view.ip_ranges')}>{c.ip_ranges}</Fact>
            <Fact label={t('view.created_at')}>{formatDateTime(c.created_at)}</Fact>
            {rtb.target_ctr !== null ? (
              <Fact label={t('fields:openrtb.target_ctr')}>
                <Group gap={6}>
                  {rtb.target_ctr} % <TargetCtrBadge status={c.target_ctr_status} />
                  {rtb.target_ctr_auto ? (
                    <Badge variant="outline" color="gray">
                      {t('target_ctr.auto')}
                    </Badge>
                  ) : null}
                </Group>
              </Fact>
            ) : null}
          </SimpleGrid>
          <Can I="update" a="Moderation">
            <ModerationButtons onDecide={(d) => moderate.mutateAsync(d)} pending={moderate.isPending} />
          </Can>
        </Panel>

        <Panel title={t('view.balance')}>
          <MoneyText amount={c.balance} currency={currency} fz={28} fw={700} />
          {owner.data && !hideOwnerBalance ? (
            <Text fz="sm" c="dimmed">
              {t('fund.owner_balance')}: <MoneyText amount={owner.data.balance} currency={currency} />
            </Text>
          ) : null}
          <Can I="update" a="Campaign">
            <FundCampaignButton
              campaign={c}
              ownerBalance={hideOwnerBalance ? undefined : owner.data?.balance}
              currency={currency}
            />
          </Can>
          <Group justify="space-between">
            <Title order={3} fz="md">
              {t('payments.recent')}
            </Title>
            <Anchor component={Link} to={`${base}/payments`} fz="sm">
              {t('payments.all')}
            </Anchor>
          </Group>
          <CampaignPaymentsTable
            rows={payments.data?.items ?? []}
            currency={currency}
            loading={payments.isPending}
            error={payments.error}
            compact
          />
        </Panel>
      </SimpleGrid>

      {/* /campaigns/v2/{id}: the second stats tree (SPEC.md section 7) */}
      <StatsPanel entity="campaigns" id={c._id} tree={v2} />
      <ClicksLinks kind="campaign" base={base} />

      <CreativesPanel campaign={c} />

      <BlockedSourcesPanel campaign={c} />

      <Can I="update" a="Campaign">
        <Panel title={t('import_ips.title')}>
          <Text fz="sm" c="dimmed">
            {t('import_ips.explain', { count: c.ip_ranges })}
          </Text>
          <ImportIps onImport={(file) => importIps.mutateAsync(file)} />
          {c.ip_ranges > 0 ? <CampaignIpList campaignId={c._id} count={c.ip_ranges} /> : null}
        </Panel>
      </Can>

      <ConfirmDialog
        opened={deleting}
        title={t('view.delete_title', { title: c.title })}
        message={
          <>
            {t('errors:campaign_delete_warning')}. {t('view.delete_refund')}
          </>
        }
        confirmLabel={t('view.delete')}
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await remove.mutateAsync().catch(() => null);
          setDeleting(false);
          notifySuccess(t('view.deleted'));
          navigate(`/users/${c.user_id}/campaigns`);
        }}
      />
    </Stack>
  );
}

/** /users/{userId}/campaigns/{id}/payments: the campaign's ledger. */
export function CampaignPaymentsPage() {
  const { t } = useTranslation('campaigns');
  const { id = '' } = useParams();
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<CampaignPaymentsKind>('all');
  const campaign = useCampaign(id);
  const payments = useCampaignPayments(id, page, 20, kind);
  const c = campaign.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={t('payments.title')}
        subtitle={c?.title}
        back={c ? { to: `/users/${c.user_id}/campaigns/${c._id}`, label: c.title } : undefined}
      />
      {/* an exchange campaign has a charge per impression: the payments in and out are found apart */}
      <SegmentedControl
        w="fit-content"
        value={kind}
        onChange={(v) => {
          setKind(v as CampaignPaymentsKind);
          setPage(1);
        }}
        data={[
          { value: 'all', label: t('payments.filter.all') },
          { value: 'payments', label: t('payments.filter.payments') },
          { value: 'charges', label: t('payments.filter.charges') },
        ]}
        aria-label={t('payments.filter.label')}
      />
      <CampaignPaymentsTable
        rows={payments.data?.items ?? []}
        currency={platformCurrency}
        loading={payments.isPending}
        error={payments.error}
        page={page}
        total={payments.data?.total}
        limit={20}
        onPage={setPage}
        empty={kind === 'charges' ? t('payments.empty_charges') : undefined}
      />
    </Stack>
  );
}
