import { moderationDecision } from '@adp/contract';
import { Anchor, Badge, Button, Group, Image, Modal, Stack, Tabs, Text, Textarea } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { OwnerLink } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useNames } from '../../lib/name-cache.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { translateFieldError, validationErrorMap } from '../../lib/validation.ts';
import {
  type ModerationKind,
  useModerate,
  usePendingBanners,
  usePendingCampaigns,
  usePendingSites,
  usePendingWidgets,
} from './api/moderation-queries.ts';

interface Pending {
  _id: string;
  title: string;
  /** Where the record's own page is. */
  to: string;
  detail: ReactNode;
  /** A creative's picture (its thumbnail), to judge it without opening it. */
  thumb?: string | null | undefined;
  user_id: string;
  user_name?: string | undefined;
  created_at: string;
}

function RejectDialog({
  target,
  onClose,
  onReject,
  loading,
}: {
  target: Pending | null;
  onClose: () => void;
  onReject: (reason: string) => void;
  loading: boolean;
}) {
  const { t } = useTranslation('moderation');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = () => {
    const parsed = moderationDecision.safeParse(
      { decision: 'reject', reason },
      { error: validationErrorMap },
    );
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    onReject(reason.trim());
  };
  return (
    <Modal
      opened={target !== null}
      onClose={() => {
        setReason('');
        setError(undefined);
        onClose();
      }}
      title={t('reject_title', { title: target?.title ?? '' })}
      centered
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <Stack gap="md">
        <Textarea
          label={t('fields:reason')}
          description={t('reason_hint')}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={translateFieldError(error, 'reason', t)}
          autosize
          minRows={3}
          maxLength={1000}
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button color="red" onClick={submit} loading={loading}>
            {t('reject')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function Queue({
  kind,
  rows,
  total,
  loading,
  page,
  onPage,
}: {
  kind: ModerationKind;
  rows: Pending[];
  total?: number;
  loading: boolean;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation('moderation');
  const moderate = useModerate(kind);
  const [rejecting, setRejecting] = useState<Pending | null>(null);
  const approve = async (row: Pending) => {
    await moderate.mutateAsync({ id: row._id, decision: { decision: 'approve' } });
    notifySuccess(t('approved', { title: row.title }));
  };
  const reject = async (reason: string) => {
    if (!rejecting) return;
    await moderate.mutateAsync({ id: rejecting._id, decision: { decision: 'reject', reason } });
    notifySuccess(t('rejected', { title: rejecting.title }));
    setRejecting(null);
  };
  const columns: Column<Pending>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (row) => (
        <Group gap="sm" wrap="nowrap" align="flex-start">
          {row.thumb ? (
            <Image src={row.thumb} alt="" w={90} h={60} radius="sm" fit="cover" style={{ flex: 'none' }} />
          ) : null}
          <div>
            <Anchor component={Link} to={row.to} fw={600}>
              {row.title}
            </Anchor>
            <Text fz="xs" c="dimmed">
              {row.detail}
            </Text>
          </div>
        </Group>
      ),
    },
    {
      key: 'actions',
      header: t('actions'),
      cell: (row) => (
        <Group gap="xs" miw={120}>
          <Button
            size="xs"
            color="teal"
            leftSection={<IconCheck size={14} aria-hidden />}
            onClick={() => approve(row)}
            aria-label={t('approve_named', { title: row.title })}
          >
            {t('approve')}
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconX size={14} aria-hidden />}
            onClick={() => setRejecting(row)}
            aria-label={t('reject_named', { title: row.title })}
          >
            {t('reject')}
          </Button>
        </Group>
      ),
    },
    {
      key: 'owner',
      header: t('fields:account'),
      cell: (row) => <OwnerLink userId={row.user_id} name={row.user_name} />,
    },
    { key: 'created', header: t('created'), cell: (row) => formatDateTime(row.created_at) },
  ];
  return (
    <>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(row) => row._id}
        loading={loading}
        empty={t('empty')}
        page={page}
        total={total}
        limit={20}
        onPage={onPage}
        caption={t(`tab_${kind}`)}
      />
      <RejectDialog
        target={rejecting}
        onClose={() => setRejecting(null)}
        onReject={reject}
        loading={moderate.isPending}
      />
    </>
  );
}

function CountTab({ value, label, count }: { value: string; label: string; count: number | undefined }) {
  return (
    <Tabs.Tab
      value={value}
      rightSection={
        <Badge size="sm" variant="light">
          {count ?? 0}
        </Badge>
      }
    >
      {label}
    </Tabs.Tab>
  );
}

/** Admins' queue of sites, widgets, campaigns and creatives awaiting moderation. */
export function ModerationPage() {
  const { t } = useTranslation(['moderation', 'widgets', 'campaigns']);
  const [sitesPage, setSitesPage] = useState(1);
  const [widgetsPage, setWidgetsPage] = useState(1);
  const [campaignsPage, setCampaignsPage] = useState(1);
  const [bannersPage, setBannersPage] = useState(1);
  const sites = usePendingSites(sitesPage);
  const widgets = usePendingWidgets(widgetsPage);
  const campaigns = usePendingCampaigns(campaignsPage);
  const banners = usePendingBanners(bannersPage);
  // a widget row names its site (the name cache), not `#<site_id>`
  const siteNames = useNames(
    'sites',
    (widgets.data?.items ?? []).map((w) => w.site_id),
  );
  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Tabs defaultValue="sites">
        <Tabs.List>
          <CountTab value="sites" label={t('tab_sites')} count={sites.data?.total} />
          <CountTab value="widgets" label={t('tab_widgets')} count={widgets.data?.total} />
          <CountTab value="campaigns" label={t('tab_campaigns')} count={campaigns.data?.total} />
          <CountTab value="banners" label={t('tab_banners')} count={banners.data?.total} />
        </Tabs.List>
        <Tabs.Panel value="sites" pt="md">
          <Queue
            kind="sites"
            rows={(sites.data?.items ?? []).map((s) => ({ ...s, to: `/sites/${s._id}`, detail: s.domain }))}
            total={sites.data?.total}
            loading={sites.isPending}
            page={sitesPage}
            onPage={setSitesPage}
          />
        </Tabs.Panel>
        <Tabs.Panel value="widgets" pt="md">
          <Queue
            kind="widgets"
            rows={(widgets.data?.items ?? []).map((w) => ({
              ...w,
              to: `/widgets/${w._id}`,
              detail: `${t(`processors.${w.processor}`, { ns: 'widgets' })} · ${siteNames.get(w.site_id)?.name ?? `#${w.site_id}`}`,
            }))}
            total={widgets.data?.total}
            loading={widgets.isPending}
            page={widgetsPage}
            onPage={setWidgetsPage}
          />
        </Tabs.Panel>
        <Tabs.Panel value="campaigns" pt="md">
          <Queue
            kind="campaigns"
            rows={(campaigns.data?.items ?? []).map((c) => ({
              ...c,
              to: `/users/${c.user_id}/campaigns/${c._id}`,
              detail: t(`adstypes.${c.adstype}`, { ns: 'campaigns' }),
            }))}
            total={campaigns.data?.total}
            loading={campaigns.isPending}
            page={campaignsPage}
            onPage={setCampaignsPage}
          />
        </Tabs.Panel>
        <Tabs.Panel value="banners" pt="md">
          <Queue
            kind="banners"
            rows={(banners.data?.items ?? []).map((b) => ({
              ...b,
              to: `/users/${b.user_id}/campaigns/${b.campaign_id}/creatives/${b._id}`,
              detail: b.text ? `${b.text} · ${b.url}` : b.url,
              thumb: b.images?.thumb ?? b.images?.square,
            }))}
            total={banners.data?.total}
            loading={banners.isPending}
            page={bannersPage}
            onPage={setBannersPage}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
