import { type Pixel, pixelInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { FormSwitch, FormTextInput } from '../../components/form-fields.tsx';
import { OwnerGuard, OwnerLink, useOtherOwnerName, useOwnerListTitle } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Can } from '../../lib/ability.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { applyServerErrors } from '../../lib/server-field-errors.ts';
import { validationErrorMap } from '../../lib/validation.ts';
import {
  useCreatePixel,
  useDeletePixel,
  usePixel,
  usePixelsList,
  useUpdatePixel,
} from './api/pixels-queries.ts';
import { PixelCode } from './components/pixel-code.tsx';

const LIMIT = 20;
const pixelForm = pixelInput.omit({ user_id: true });

/** /pixels (admin) and /users/{userId}/pixels. */
export function PixelsListPage() {
  const { userId } = useParams();
  return (
    <OwnerGuard userId={userId} type="Pixel">
      <PixelsList />
    </OwnerGuard>
  );
}

function PixelsList() {
  const { t } = useTranslation('pixels');
  const { userId } = useParams();
  const ownerName = useOtherOwnerName(userId);
  const listTitle = !userId
    ? t('list.title')
    : ownerName
      ? t('list.of_title', { name: ownerName })
      : t('list.my_title');
  usePageTitle(listTitle);
  const [page, setPage] = useState(1);
  const pixels = usePixelsList({ user_id: userId, page, limit: LIMIT });
  const base = (p: Pixel) => `/users/${p.user_id}/pixels/${p._id}`;
  const columns: Column<Pixel & { user_name?: string | undefined }>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (p) => (
        <Anchor component={Link} to={base(p)} fw={600}>
          {p.title}
        </Anchor>
      ),
    },
    { key: 'all_pages', header: t('fields:all_pages'), cell: (p) => (p.all_pages ? t('yes') : t('no')) },
    { key: 'visitors', header: t('visitors'), align: 'right', cell: (p) => formatNumber(p.visitors) },
    { key: 'created', header: t('created'), cell: (p) => formatDateTime(p.created_at) },
    ...(userId
      ? []
      : [
          {
            key: 'owner',
            header: t('fields:account'),
            cell: (p: Pixel & { user_name?: string | undefined }) => (
              <OwnerLink userId={p.user_id} name={p.user_name} />
            ),
          },
        ]),
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={listTitle}
        subtitle={t('list.subtitle')}
        actions={
          userId ? (
            <Can I="create" a="Pixel">
              <Button
                component={Link}
                to={`/users/${userId}/pixels/create`}
                leftSection={<IconPlus size={16} aria-hidden />}
              >
                {t('list.create')}
              </Button>
            </Can>
          ) : null
        }
      />
      <DataTable
        columns={columns}
        rows={pixels.data?.items ?? []}
        rowKey={(p) => p._id}
        loading={pixels.isPending}
        error={pixels.error}
        empty={t('list.empty')}
        page={page}
        total={pixels.data?.total}
        limit={LIMIT}
        onPage={setPage}
        caption={t('list.title')}
      />
    </Stack>
  );
}

function PixelForm({
  pixel,
  onSubmit,
  submitLabel,
}: {
  pixel?: Pixel;
  onSubmit: (values: { title: string; all_pages: boolean }) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('pixels');
  const form = useForm({
    resolver: zodResolver(pixelForm, { error: validationErrorMap }),
    defaultValues: { title: pixel?.title ?? '', all_pages: pixel?.all_pages ?? true },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, ['title', 'all_pages']);
    }
  });
  return (
    <Card padding="lg" radius="md" component="form" onSubmit={submit} noValidate maw={640}>
      <Stack gap="md">
        <FormTextInput control={form.control} name="title" required />
        <FormSwitch control={form.control} name="all_pages" description={t('form.all_pages_hint')} />
        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function PixelCreatePage() {
  const { t } = useTranslation('pixels');
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const create = useCreatePixel();
  const listTitle = useOwnerListTitle(t, userId);
  return (
    <Stack gap="md">
      <PageHeader title={t('form.create_title')} back={{ to: `/users/${userId}/pixels`, label: listTitle }} />
      <PixelForm
        submitLabel={t('form.create_submit')}
        onSubmit={async (values) => {
          const created = await create.mutateAsync({ ...values, user_id: userId });
          notifySuccess(t('form.created'));
          navigate(`/users/${created.user_id}/pixels/${created._id}`);
        }}
      />
    </Stack>
  );
}

export function PixelEditPage() {
  const { t } = useTranslation('pixels');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const pixel = usePixel(id);
  const update = useUpdatePixel(id);
  if (pixel.isPending) return <Skeleton height={240} radius="md" aria-busy="true" />;
  if (pixel.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const p = pixel.data;
  const page = `/users/${p.user_id}/pixels/${p._id}`;
  return (
    <Stack gap="md">
      <PageHeader title={t('form.edit_title', { title: p.title })} back={{ to: page, label: p.title }} />
      <PixelForm
        pixel={p}
        submitLabel={t('form.save')}
        onSubmit={async (values) => {
          await update.mutateAsync(values);
          notifySuccess(t('form.saved'));
          navigate(page);
        }}
      />
    </Stack>
  );
}

/** /users/{userId}/pixels/{id}: the code to paste and the audience size. */
export function PixelPage() {
  const { t } = useTranslation('pixels');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const pixel = usePixel(id);
  const remove = useDeletePixel(id);
  const [deleting, setDeleting] = useState(false);
  const listTitle = useOwnerListTitle(t, pixel.data?.user_id);
  usePageTitle(pixel.data ? t('document_title', { title: pixel.data.title }) : undefined);
  if (pixel.isPending) return <Skeleton height={320} radius="md" aria-busy="true" />;
  if (pixel.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const p = pixel.data;
  const list = `/users/${p.user_id}/pixels`;
  return (
    <Stack gap="md">
      <PageHeader
        title={p.title}
        subtitle={`#${p._id} · ${p.all_pages ? t('form.on_all_pages') : t('form.on_some_pages')}`}
        back={{ to: list, label: listTitle }}
        actions={
          <Can I="update" a="Pixel">
            <Button
              component={Link}
              to={`${list}/${p._id}/edit`}
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('view.edit')}
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
        }
      />
      <Card padding="lg" radius="md" component="section" aria-label={t('visitors')}>
        <Group justify="space-between">
          <div>
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('visitors')}
            </Text>
            <Text fz={32} fw={700} data-testid="pixel-visitors">
              {formatNumber(p.visitors)}
            </Text>
            <Text fz="sm" c="dimmed">
              {t('view.visitors_hint')}
            </Text>
          </div>
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => void pixel.refetch()}
            loading={pixel.isFetching}
          >
            {t('view.refresh')}
          </Button>
        </Group>
      </Card>
      <Card padding="lg" radius="md" component="section" aria-label={t('code.title')}>
        <Stack gap="sm">
          <Title order={2} fz="lg">
            {t('code.title')}
          </Title>
          <PixelCode code={p.code} />
        </Stack>
      </Card>
      <ConfirmDialog
        opened={deleting}
        title={t('view.delete_title', { title: p.title })}
        message={t('view.delete_warning')}
        confirmLabel={t('view.delete')}
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
