import type { Landing, landingLead } from '@adp/contract';
import { subject } from '@adp/permissions';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  FileButton,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconDownload,
  IconExternalLink,
  IconPhotoUp,
  IconPlus,
  IconSparkles,
  IconTrash,
} from '@tabler/icons-react';
import { Fragment, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { OwnerGuard, useOtherOwnerName } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Can, useAppAbility, useAuth } from '../../lib/ability.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { pathOf } from '../../lib/url.ts';
import {
  downloadLeadsCsv,
  useCreateLanding,
  useDeleteLanding,
  useGenerateLanding,
  useLanding,
  useLandingsList,
  useLeads,
  useUpdateLanding,
  useUploadLandingImage,
} from './api/landings-queries.ts';
import { LandingForm } from './components/landing-form.tsx';

type Lead = z.infer<typeof landingLead>;
const LEADS_PER_PAGE = 20;

/** /users/{userId}/landings */
export function LandingsListPage() {
  const { userId } = useParams();
  return (
    <OwnerGuard userId={userId} type="Landing">
      <LandingsList />
    </OwnerGuard>
  );
}

function LandingsList() {
  const { t } = useTranslation('landings');
  const { userId = '' } = useParams();
  const ownerName = useOtherOwnerName(userId);
  const listTitle = ownerName ? t('list.of_title', { name: ownerName }) : t('list.title');
  usePageTitle(listTitle);
  const [page, setPage] = useState(1);
  const landings = useLandingsList(userId, page);
  const columns: Column<Landing>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (l) => (
        <Anchor component={Link} to={`/landings/${l._id}/edit`} fw={600}>
          {l.title}
        </Anchor>
      ),
    },
    {
      key: 'status',
      header: t('fields:status'),
      cell: (l) => (
        <Badge variant="light" color={l.status === 'active' ? 'teal' : 'gray'}>
          {t(`status.${l.status}`)}
        </Badge>
      ),
    },
    {
      key: 'generated',
      header: t('list.generated'),
      cell: (l) => (l.generated_at ? formatDateTime(l.generated_at) : t('list.not_generated')),
    },
    { key: 'leads', header: t('leads.title'), align: 'right', cell: (l) => l.leads },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={listTitle}
        actions={
          <Can I="create" a="Landing">
            <Button
              component={Link}
              to={`/users/${userId}/landings/create`}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              {t('list.create')}
            </Button>
          </Can>
        }
      />
      <DataTable
        columns={columns}
        rows={landings.data?.items ?? []}
        rowKey={(l) => l._id}
        loading={landings.isPending}
        error={landings.error}
        empty={t('list.empty')}
        page={page}
        total={landings.data?.total}
        limit={20}
        onPage={setPage}
        caption={listTitle}
      />
    </Stack>
  );
}

/**
 * /landings/create: the signed-in user's landing; /users/{userId}/landings/create: that user's (an admin's
 * or an agency's for a member; the server decides who may).
 */
export function LandingCreatePage() {
  const { userId } = useParams();
  if (!userId) return <LandingCreate />;
  return (
    <OwnerGuard userId={userId} type="Landing">
      <LandingCreate ownerId={userId} />
    </OwnerGuard>
  );
}

function LandingCreate({ ownerId }: { ownerId?: string }) {
  const { t } = useTranslation('landings');
  const { userId: me } = useAuth();
  const navigate = useNavigate();
  const create = useCreateLanding();
  const ownerName = useOtherOwnerName(ownerId ?? '');
  const listOwner = ownerId ?? me;
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.create_title')}
        subtitle={ownerName ?? undefined}
        back={
          listOwner
            ? {
                to: `/users/${listOwner}/landings`,
                label: ownerName ? t('list.of_title', { name: ownerName }) : t('list.title'),
              }
            : undefined
        }
      />
      <LandingForm
        submitLabel={t('form.create_submit')}
        onSubmit={async (values) => {
          const created = await create.mutateAsync(
            ownerId && ownerId !== me ? { ...values, user_id: ownerId } : values,
          );
          notifySuccess(t('form.created'));
          navigate(`/landings/${created._id}/edit`);
        }}
      />
    </Stack>
  );
}

/** `<img>` markup for an uploaded image, its alt text from the file name. */
function imageTag(url: string, fileName: string) {
  const alt = fileName
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ')
    .replace(/[<>&"]/g, '')
    .trim();
  return `<img src="${url.replace(/"/g, '&quot;')}" alt="${alt}" style="max-width:100%;height:auto">`;
}

function GeneratedPage({ landing }: { landing: Landing }) {
  const { t } = useTranslation('landings');
  const generate = useGenerateLanding();
  const update = useUpdateLanding(landing._id);
  const uploadImage = useUploadLandingImage(landing._id);
  const [html, setHtml] = useState(landing.html ?? '');
  const editor = useRef<HTMLTextAreaElement>(null);
  const cursorSet = useRef(false);

  // the image goes into the HTML and the page is saved with it
  const insertImage = async (file: File | null) => {
    if (!file) return;
    const uploaded = await uploadImage.mutateAsync(file).catch(() => null);
    if (!uploaded) return;
    // where the author put the cursor; untouched, at the top of the page's content (after its styles)
    const styles = html.indexOf('</style>');
    const at = cursorSet.current
      ? (editor.current?.selectionStart ?? html.length)
      : styles === -1
        ? 0
        : styles + '</style>'.length;
    const next = `${html.slice(0, at)}${imageTag(uploaded.url, file.name)}${html.slice(at)}`;
    setHtml(next);
    const saved = await update.mutateAsync({ html: next }).catch(() => null);
    if (saved) {
      setHtml(saved.html ?? '');
      notifySuccess(t('generate.image_inserted'));
    }
  };
  const [needsForm, setNeedsForm] = useState(false);
  const hasForm = landing.form.fields.length > 0;

  const run = async () => {
    if (!hasForm) {
      setNeedsForm(true);
      return;
    }
    setNeedsForm(false);
    const updated = await generate
      .mutateAsync({ user_id: landing.user_id, page_id: landing._id })
      .catch(() => null);
    if (updated) {
      setHtml(updated.html ?? '');
      notifySuccess(t('generate.done'));
    }
  };

  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('generate.title')}>
      <Stack gap="md">
        <Group justify="space-between">
          <div>
            <Title order={2} fz="lg">
              {t('generate.title')}
            </Title>
            <Text c="dimmed" fz="sm">
              {t('generate.hint')}
            </Text>
          </div>
          <Can I="update" a="Landing">
            <Button
              leftSection={<IconSparkles size={16} aria-hidden />}
              loading={generate.isPending}
              onClick={() => void run()}
            >
              {landing.html ? t('generate.again') : t('generate.button')}
            </Button>
          </Can>
        </Group>
        {needsForm || (!hasForm && !landing.html) ? (
          <Alert color="yellow" variant="light" role="alert">
            {t('errors:landing_needs_form')}
          </Alert>
        ) : null}
        {landing.html ? (
          <>
            <Group gap="xs">
              <Text fz="sm">{t('generate.public_url')}:</Text>
              <Anchor href={landing.public_url} target="_blank" rel="noopener noreferrer" fz="sm">
                <Group gap={4} component="span">
                  {landing.public_url}
                  <IconExternalLink size={14} aria-hidden />
                </Group>
              </Anchor>
              {landing.generated_at ? (
                <Text fz="xs" c="dimmed">
                  {t('generate.generated_at', { date: formatDateTime(landing.generated_at) })}
                </Text>
              ) : null}
            </Group>
            {landing.status === 'active' ? (
              // from the dashboard's own origin: the landing lets only its own origin frame it, and a
              // dashboard opened at another host than PUBLIC_URL would show a blank frame
              <iframe
                key={landing.generated_at ?? ''}
                src={pathOf(landing.public_url)}
                title={t('generate.preview')}
                style={{
                  width: '100%',
                  height: 520,
                  border: '1px solid var(--mantine-color-default-border)',
                  borderRadius: 8,
                }}
              />
            ) : (
              <Alert color="gray" variant="light">
                {t('generate.inactive')}
              </Alert>
            )}
            <Can I="update" a="Landing">
              <Textarea
                ref={editor}
                onSelect={() => {
                  cursorSet.current = true;
                }}
                label={t('generate.html')}
                description={t('generate.html_hint')}
                value={html}
                onChange={(e) => setHtml(e.currentTarget.value)}
                autosize
                minRows={8}
                maxRows={24}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
              />
              <Group justify="flex-end">
                <FileButton
                  onChange={(file) => void insertImage(file)}
                  accept="image/png,image/jpeg,image/webp,image/gif"
                >
                  {(props) => (
                    <Button
                      {...props}
                      variant="default"
                      leftSection={<IconPhotoUp size={16} aria-hidden />}
                      loading={uploadImage.isPending}
                      title={t('generate.upload_image_hint')}
                    >
                      {t('generate.upload_image')}
                    </Button>
                  )}
                </FileButton>
                <Button
                  variant="light"
                  loading={update.isPending}
                  onClick={async () => {
                    const saved = await update.mutateAsync({ html }).catch(() => null);
                    if (saved) {
                      setHtml(saved.html ?? '');
                      notifySuccess(t('generate.html_saved'));
                    }
                  }}
                >
                  {t('generate.save_html')}
                </Button>
              </Group>
            </Can>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

function LeadsPanel({ landing }: { landing: Landing }) {
  const { t } = useTranslation('landings');
  const [page, setPage] = useState(1);
  const leads = useLeads(landing._id, page);
  const [exporting, setExporting] = useState(false);
  // below 36em (phones) the leads stack as cards; wider, a table
  const phone = useMediaQuery('(max-width: 36em)');
  const names = landing.form.fields.map((f) => ({ name: f.name, label: f.label, type: f.type }));
  const columns: Column<Lead>[] = [
    { key: 'date', header: t('leads.date'), nowrap: true, cell: (l) => formatDateTime(l.date) },
    ...names.map((f) => ({
      key: `f-${f.name}`,
      header: f.label,
      nowrap: f.type === 'phone',
      cell: (l: Lead) => l.data[f.name] ?? '',
    })),
  ];
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('leads.title')}>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('leads.title')} ({landing.leads})
          </Title>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={exporting}
            onClick={async () => {
              setExporting(true);
              try {
                await downloadLeadsCsv(landing._id);
              } catch (error) {
                notifyError(error);
              } finally {
                setExporting(false);
              }
            }}
          >
            {t('leads.export')}
          </Button>
        </Group>
        {phone ? (
          <LeadCards
            fields={names}
            leads={leads.data?.items ?? []}
            loading={leads.isPending}
            page={page}
            total={leads.data?.total ?? 0}
            onPage={setPage}
          />
        ) : (
          <DataTable
            columns={columns}
            rows={leads.data?.items ?? []}
            rowKey={(l) => l._id}
            loading={leads.isPending}
            error={leads.error}
            empty={t('leads.empty')}
            page={page}
            total={leads.data?.total}
            limit={LEADS_PER_PAGE}
            onPage={setPage}
            caption={t('leads.title')}
          />
        )}
      </Stack>
    </Card>
  );
}

/**
 * The leads at phone width: one card per lead with each field's label above its value, so a long e-mail
 * wraps in full instead of hiding in a table scrolled sideways.
 */
function LeadCards({
  fields,
  leads,
  loading,
  page,
  total,
  onPage,
}: {
  fields: { name: string; label: string }[];
  leads: Lead[];
  loading: boolean;
  page: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation('landings');
  const { t: tc } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / LEADS_PER_PAGE));
  if (loading)
    return (
      <Stack gap="xs">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h={96} radius="md" />
        ))}
      </Stack>
    );
  if (leads.length === 0)
    return (
      <Text c="dimmed" ta="center" p="lg">
        {t('leads.empty')}
      </Text>
    );
  return (
    <Stack gap="sm">
      <Stack gap="xs" component="ul" aria-label={t('leads.title')} p={0} m={0} style={{ listStyle: 'none' }}>
        {leads.map((lead) => (
          <Paper key={lead._id} component="li" withBorder radius="md" p="sm">
            <Box component="dl" m={0}>
              <Text component="dt" size="xs" c="dimmed">
                {t('leads.date')}
              </Text>
              <Text component="dd" size="sm" m={0} mb={6}>
                {formatDateTime(lead.date)}
              </Text>
              {fields.map((f) => (
                <Fragment key={f.name}>
                  <Text component="dt" size="xs" c="dimmed">
                    {f.label}
                  </Text>
                  <Text component="dd" size="sm" m={0} mb={6} style={{ overflowWrap: 'anywhere' }}>
                    {lead.data[f.name] || '—'}
                  </Text>
                </Fragment>
              ))}
            </Box>
          </Paper>
        ))}
      </Stack>
      {pages > 1 ? (
        <Group justify="space-between" gap="xs">
          <Text c="dimmed" fz="sm">
            {tc('table.total', { count: total })}
          </Text>
          <Pagination
            value={page}
            total={pages}
            onChange={onPage}
            size="sm"
            siblings={0}
            getControlProps={(control) => ({ 'aria-label': tc(`table.${control}`) })}
            getItemProps={(item) => ({ 'aria-label': tc('table.page', { page: item }) })}
          />
        </Group>
      ) : null}
    </Stack>
  );
}

/** /landings/{landingId}/edit: the page, its form, generation with preview and HTML editor, and leads. */
export function LandingEditPage() {
  const { t } = useTranslation('landings');
  const { landingId = '' } = useParams();
  const navigate = useNavigate();
  const ability = useAppAbility();
  const landing = useLanding(landingId);
  const update = useUpdateLanding(landingId);
  const remove = useDeleteLanding(landingId);
  const [deleting, setDeleting] = useState(false);
  usePageTitle(landing.data ? t('document_title', { title: landing.data.title }) : undefined);
  if (landing.isPending) return <Skeleton height={480} radius="md" aria-busy="true" />;
  if (landing.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const l = landing.data;
  const list = `/users/${l.user_id}/landings`;
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { title: l.title })}
        back={{ to: list, label: t('list.title') }}
        actions={
          <Can I="delete" a="Landing">
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setDeleting(true)}
            >
              {t('form.delete')}
            </Button>
          </Can>
        }
      />
      <LandingForm
        key={`${l._id}-${l.form.fields.length}`}
        landing={l}
        readOnly={!ability.can('update', subject('Landing', { user_id: l.user_id }))}
        submitLabel={t('form.save')}
        onSubmit={async (values) => {
          await update.mutateAsync(values);
          notifySuccess(t('form.saved'));
        }}
      />
      <GeneratedPage key={l.generated_at ?? 'none'} landing={l} />
      <LeadsPanel landing={l} />
      <ConfirmDialog
        opened={deleting}
        title={t('form.delete_title', { title: l.title })}
        message={t('form.delete_warning')}
        confirmLabel={t('form.delete')}
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          const ok = await remove.mutateAsync().then(
            () => true,
            () => false,
          );
          setDeleting(false);
          if (ok) navigate(list);
        }}
      />
    </Stack>
  );
}
