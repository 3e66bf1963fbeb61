import type { Banner } from '@adp/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconChartLine, IconCopy, IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { ImportIps } from '../../components/import-ips.tsx';
import { ModerationButtons } from '../../components/moderation-buttons.tsx';
import { OwnerLink } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatsPanel } from '../../components/stats-panel.tsx';
import { Can, useAuth } from '../../lib/ability.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import {
  type BannerRow,
  bannerQuery,
  campaignHeadQuery,
  useBanner,
  useBannersList,
  useCopyBanner,
  useCreateBanner,
  useDeleteBanner,
  useImportBannerIps,
  useModerateBanner,
  useRemoveBannerVideo,
  useUpdateBanner,
  useUploadBannerMedia,
} from './api/banners-queries.ts';
import {
  BannerForm,
  type BannerFormOutput,
  type BannerMedia,
  ImageFormats,
} from './components/banner-form.tsx';
import { CopyIdButton } from './components/copy-id-button.tsx';
import { TargetingSummary } from './components/targeting-summary.tsx';

const moderationColor = { pending: 'yellow', approved: 'teal', rejected: 'red' } as const;

function useRoute() {
  const { userId = '', id = '', bannerId = '' } = useParams();
  const base = `/users/${userId}/campaigns/${id}/creatives`;
  return { userId, campaignId: id, bannerId, base };
}

function Badges({ banner }: { banner: Banner }) {
  const { t } = useTranslation('banners');
  return (
    <Group gap={6}>
      <Badge variant="light" color={banner.status === 'active' ? 'teal' : 'gray'}>
        {t(`status.${banner.status}`)}
      </Badge>
      <Badge variant="light" color={moderationColor[banner.moderation]}>
        {t(`moderation.${banner.moderation}`)}
      </Badge>
    </Group>
  );
}

function Panel({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Card padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="md">
        <Group justify="space-between">
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

/** /users/{userId}/campaigns/{id}/creatives */
export function BannersListPage() {
  const { t } = useTranslation('banners');
  const { campaignId, base, userId } = useRoute();
  const [page, setPage] = useState(1);
  const campaign = useQuery(campaignHeadQuery(campaignId));
  const banners = useBannersList(campaignId, page);
  // someone else's creatives (an admin, an agency): each row names its owner, linked to the user page
  const other = useAuth().userId !== userId;
  const columns: Column<BannerRow>[] = [
    {
      key: 'image',
      header: t('list.image'),
      cell: (b) =>
        b.images?.thumb ? <Image src={b.images.thumb} alt="" w={60} h={40} radius="sm" fit="cover" /> : '—',
    },
    {
      key: 'title',
      header: t('fields:title'),
      cell: (b) => (
        <div>
          <Anchor component={Link} to={`${base}/${b._id}`} fw={600}>
            {b.title}
          </Anchor>
          <Text fz="xs" c="dimmed">
            #{b._id} · {b.text}
          </Text>
        </div>
      ),
    },
    { key: 'state', header: t('fields:status'), cell: (b) => <Badges banner={b} /> },
    ...(other
      ? [
          {
            key: 'owner',
            header: t('fields:account'),
            cell: (b: BannerRow) => <OwnerLink userId={b.user_id} name={b.user_name} />,
          },
        ]
      : []),
    { key: 'created', header: t('list.created'), cell: (b) => formatDateTime(b.created_at) },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        subtitle={campaign.data?.title}
        back={{
          to: `/users/${userId}/campaigns/${campaignId}`,
          label: campaign.data?.title ?? t('list.campaign'),
        }}
        actions={
          <Can I="create" a="Banner">
            <Button component={Link} to={`${base}/create`} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('list.create')}
            </Button>
          </Can>
        }
      />
      <DataTable
        columns={columns}
        rows={banners.data?.items ?? []}
        rowKey={(b) => b._id}
        loading={banners.isPending}
        error={banners.error}
        empty={t('list.empty')}
        page={page}
        total={banners.data?.total}
        limit={20}
        onPage={setPage}
        caption={t('list.title')}
      />
    </Stack>
  );
}

/** /creatives/{bannerId} */
export function BannerPage() {
  const { t } = useTranslation('banners');
  const { bannerId, base } = useRoute();
  const navigate = useNavigate();
  const banner = useBanner(bannerId);
  const copy = useCopyBanner();
  const remove = useDeleteBanner();
  const moderate = useModerateBanner(bannerId);
  const [deleting, setDeleting] = useState(false);
  usePageTitle(banner.data ? t('document_title', { title: banner.data.title }) : undefined);
  if (banner.isPending) return <Skeleton height={400} radius="md" aria-busy="true" />;
  if (banner.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const b = banner.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={b.title}
        subtitle={`#${b._id}`}
        back={{ to: base, label: t('list.title') }}
        actions={
          <>
            <CopyIdButton id={b._id} />
            <Button
              component={Link}
              to={`${base}/${b._id}/stats`}
              variant="default"
              leftSection={<IconChartLine size={16} aria-hidden />}
            >
              {t('stats:open')}
            </Button>
            <Can I="update" a="Banner">
              <Button
                component={Link}
                to={`${base}/${b._id}/edit`}
                leftSection={<IconEdit size={16} aria-hidden />}
              >
                {t('view.edit')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconCopy size={16} aria-hidden />}
                loading={copy.isPending}
                onClick={async () => {
                  const created = await copy.mutateAsync(b._id).catch(() => null);
                  if (!created) return;
                  notifySuccess(t('view.copied'));
                  navigate(`${base}/${created._id}`);
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
      <Panel title={t('view.content')}>
        <Badges banner={b} />
        {b.moderation === 'rejected' && b.moderation_reason ? (
          <Alert color="red" variant="light" title={t('campaigns:view.rejected_reason')}>
            {b.moderation_reason}
          </Alert>
        ) : null}
        <Text fw={600}>{b.title}</Text>
        {b.text ? <Text>{b.text}</Text> : null}
        <Anchor href={b.url} target="_blank" rel="noopener noreferrer" style={{ overflowWrap: 'anywhere' }}>
          {b.url}
        </Anchor>
        {b.images ? <ImageFormats images={b.images} /> : <Text c="dimmed">{t('view.no_image')}</Text>}
        {b.video ? (
          // biome-ignore lint/a11y/useMediaCaption: advertisers' creatives come without captions
          <video
            src={b.video}
            controls
            style={{ maxWidth: 320, borderRadius: 8 }}
            aria-label={t('form.video')}
          />
        ) : null}
        <Can I="update" a="Moderation">
          <ModerationButtons onDecide={(d) => moderate.mutateAsync(d)} pending={moderate.isPending} />
        </Can>
      </Panel>
      <StatsPanel entity="banners" id={b._id} />
      <Panel title={t('targeting.title')}>
        <TargetingSummary targeting={b.targeting} />
      </Panel>
      <ConfirmDialog
        opened={deleting}
        title={t('view.delete_title', { title: b.title })}
        message={t('view.delete_warning')}
        confirmLabel={t('view.delete')}
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          const ok = await remove.mutateAsync(b._id).then(
            () => true,
            () => false,
          );
          setDeleting(false);
          if (!ok) return;
          notifySuccess(t('view.deleted'));
          navigate(base);
        }}
      />
    </Stack>
  );
}

/** /creatives/create and /creatives/{bannerId}/create (starts from that creative). */
export function BannerCreatePage() {
  const { t } = useTranslation('banners');
  const { campaignId, bannerId, base, userId } = useRoute();
  const navigate = useNavigate();
  const template = useQuery({ ...bannerQuery(bannerId), enabled: Boolean(bannerId) });
  const campaign = useQuery(campaignHeadQuery(campaignId));
  const create = useCreateBanner();
  const upload = useUploadBannerMedia();
  if (bannerId && template.isPending) return <Skeleton height={400} radius="md" aria-busy="true" />;
  const onSubmit = async (input: BannerFormOutput, media: BannerMedia) => {
    const created = await create.mutateAsync({ ...input, campaign_id: campaignId });
    // the creative exists now: its files go up against its id
    try {
      if (media.image)
        await upload.mutateAsync({ bannerId: created._id, file: media.image, kind: 'image', type: 'new' });
      if (media.video)
        await upload.mutateAsync({ bannerId: created._id, file: media.video, kind: 'video', type: 'new' });
    } catch {
      navigate(`${base}/${created._id}/edit`);
      return;
    }
    notifySuccess(t('form.created'));
    navigate(`${base}/${created._id}`);
  };
  const from = template.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.create_title')}
        subtitle={campaign.data?.title}
        back={{ to: base, label: t('list.title') }}
      />
      <BannerForm
        userId={campaign.data?.user_id ?? userId}
        defaults={
          from
            ? {
                title: from.title,
                text: from.text,
                url: from.url,
                status: from.status,
                targeting: from.targeting,
              }
            : undefined
        }
        onSubmit={onSubmit}
        submitLabel={t('form.create_submit')}
      />
    </Stack>
  );
}

/** /creatives/{bannerId}/edit */
export function BannerEditPage() {
  const { t } = useTranslation('banners');
  const { bannerId, base } = useRoute();
  const navigate = useNavigate();
  const banner = useBanner(bannerId);
  const update = useUpdateBanner(bannerId);
  const upload = useUploadBannerMedia();
  const importIps = useImportBannerIps(bannerId);
  const removeVideo = useRemoveBannerVideo(bannerId);
  if (banner.isPending) return <Skeleton height={400} radius="md" aria-busy="true" />;
  if (banner.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const b = banner.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { title: b.title })}
        back={{ to: `${base}/${b._id}`, label: b.title }}
      />
      <BannerForm
        key={`${b._id}-${b.targeting.ips.values.length}`}
        banner={b}
        userId={b.user_id}
        onSubmit={async (input) => {
          await update.mutateAsync(input);
          notifySuccess(t('form.saved'));
          navigate(`${base}/${b._id}`);
        }}
        onUpload={async (file, kind) => {
          await upload.mutateAsync({ bannerId: b._id, file, kind, type: 'edit' });
          notifySuccess(kind === 'image' ? t('form.image_uploaded') : t('form.video_uploaded'));
        }}
        onRemoveVideo={async () => {
          await removeVideo.mutateAsync();
          notifySuccess(t('form.video_removed'));
        }}
        ipImport={<ImportIps onImport={(file) => importIps.mutateAsync(file)} />}
        submitLabel={t('form.save')}
      />
    </Stack>
  );
}
