import type { AdsenseImport, AdsenseIncome } from '@adp/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconCheck, IconFileSpreadsheet, IconUpload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { DetailItem, EntityLoading, EntityNotFound, useListParams } from '../../components/partner-kit.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDate, formatDateTime, formatMoney, formatNumber } from '../../lib/format.ts';
import { notifyErrorMessage, notifySuccess } from '../../lib/notify.ts';
import {
  LIMIT,
  useAdsenseImport,
  useAdsenseImports,
  useApproveAdsense,
  useSiteChoices,
  useUploadAdsense,
} from './api/adsense-queries.ts';

/** The server's limit (adsense.routes REPORT_MAX_BYTES). */
const REPORT_MAX_BYTES = 5 * 1024 * 1024;

function ImportStatus({ status }: { status: AdsenseImport['status'] }) {
  const { t } = useTranslation('adsense');
  return (
    <Badge variant="light" color={status === 'approved' ? 'teal' : 'yellow'} miw="max-content">
      {t(`status.${status}`)}
    </Badge>
  );
}

function UploadCard() {
  const { t } = useTranslation('adsense');
  const upload = useUploadAdsense();
  const navigate = useNavigate();
  const onDrop = (files: File[]) => {
    const file = files[0];
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (detail) => {
        notifySuccess(t('uploaded', { rows: detail.rows_count, errors: detail.error_rows }));
        navigate(`/adsense-incomes/${detail._id}`);
      },
    });
  };
  const onReject = (rejections: FileRejection[]) => {
    if (rejections.length > 0) notifyErrorMessage(t('errors:invalid_file'));
  };
  return (
    <Card padding="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('upload.title')}
        </Title>
        <Dropzone
          onDrop={onDrop}
          onReject={onReject}
          maxSize={REPORT_MAX_BYTES}
          maxFiles={1}
          multiple={false}
          loading={upload.isPending}
          aria-label={t('upload.button')}
          name="file"
        >
          <Group justify="center" gap="md" mih={88} style={{ pointerEvents: 'none' }} wrap="nowrap">
            <Dropzone.Accept>
              <IconUpload size={36} aria-hidden />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={36} aria-hidden />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconFileSpreadsheet size={36} aria-hidden />
            </Dropzone.Idle>
            <div>
              <Text fw={500}>{t('upload.button')}</Text>
              <Text c="dimmed" fz="sm">
                {t('upload.hint')}
              </Text>
            </div>
          </Group>
        </Dropzone>
      </Stack>
    </Card>
  );
}

/** /adsense-incomes: upload an AdSense report; the imports, newest first. */
export function AdsenseIncomesPage() {
  const { t } = useTranslation('adsense');
  const { page, set } = useListParams();
  const imports = useAdsenseImports(page);
  const canUpload = useAppAbility().can('create', 'Adsense');
  const columns: Column<AdsenseImport>[] = [
    {
      key: 'file',
      header: t('columns.file'),
      cell: (i) => (
        <Anchor
          component={Link}
          to={`/adsense-incomes/${i._id}`}
          fw={600}
          style={{ overflowWrap: 'anywhere' }}
        >
          {i.file_name}
        </Anchor>
      ),
    },
    {
      key: 'created',
      header: t('columns.uploaded_at'),
      cell: (i) => formatDateTime(i.created_at),
      nowrap: true,
    },
    { key: 'status', header: t('columns.status'), cell: (i) => <ImportStatus status={i.status} /> },
    {
      key: 'rows',
      header: t('columns.rows'),
      align: 'right',
      cell: (i) => (
        <Text span fz="sm">
          {formatNumber(i.rows_count)}
          {i.error_rows ? (
            <Text span c="red" fz="sm">
              {' '}
              ({t('with_errors', { count: i.error_rows })})
            </Text>
          ) : null}
        </Text>
      ),
    },
    {
      key: 'revenue',
      header: t('fields:adsense_revenue'),
      align: 'right',
      nowrap: true,
      cell: (i) => <MoneyText amount={i.adsense_revenue} fz="sm" />,
    },
    {
      key: 'site_income',
      header: t('columns.site_income'),
      align: 'right',
      nowrap: true,
      cell: (i) => (i.status === 'approved' ? <MoneyText amount={i.site_income} fz="sm" /> : '—'),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      {canUpload ? <UploadCard /> : null}
      <DataTable
        columns={columns}
        rows={imports.data?.items ?? []}
        rowKey={(i) => i._id}
        loading={imports.isPending}
        error={imports.error}
        empty={t('empty')}
        page={page}
        total={imports.data?.total}
        limit={LIMIT}
        onPage={(p) => set('page', String(p))}
        caption={t('title')}
        minWidth={720}
      />
    </Stack>
  );
}

function SiteChoice({
  row,
  value,
  onChange,
}: {
  row: AdsenseIncome;
  value: string | null;
  onChange: (siteId: string | null) => void;
}) {
  const { t } = useTranslation('adsense');
  const [search, setSearch] = useState('');
  const choices = useSiteChoices(search);
  const data = (choices.data?.items ?? []).map((s) => ({ value: s._id, label: `${s.title} (${s.domain})` }));
  if (row.site_id && row.site_id === value && !data.some((d) => d.value === row.site_id))
    data.unshift({ value: row.site_id, label: row.site_title ?? row.site_id });
  return (
    <Select
      aria-label={t('site_for_line', { line: row.line })}
      placeholder={t('choose_site')}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      clearable
      onSearchChange={setSearch}
      nothingFoundMessage={t('no_sites')}
      size="xs"
      miw={200}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** /adsense-incomes/{id}: the report's rows with their errors, the site of each, and approval. */
export function AdsenseIncomePage() {
  const { t } = useTranslation('adsense');
  const { id = '' } = useParams();
  const detail = useAdsenseImport(id);
  const approve = useApproveAdsense();
  const canApprove = useAppAbility().can('update', 'Adsense');
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const [confirming, setConfirming] = useState(false);
  if (detail.isPending) return <EntityLoading />;
  if (detail.isError) return <EntityNotFound />;
  const imp = detail.data;
  const editable = imp.status === 'uploaded' && canApprove;
  const siteOf = (r: AdsenseIncome) => (r._id in mapping ? (mapping[r._id] ?? null) : r.site_id);
  const onApprove = () =>
    approve.mutate(
      { _id: imp._id, rows: Object.entries(mapping).map(([_id, site_id]) => ({ _id, site_id })) },
      {
        onSuccess: (done) => {
          setMapping({});
          setConfirming(false);
          notifySuccess(t('approved', { amount: formatMoney(done.site_income) }));
        },
      },
    );
  const columns: Column<AdsenseIncome>[] = [
    { key: 'line', header: t('columns.line'), cell: (r) => r.line, align: 'right' },
    { key: 'date', header: t('fields:date'), cell: (r) => (r.date ? formatDate(r.date) : '—'), nowrap: true },
    {
      key: 'source',
      header: t('columns.source'),
      cell: (r) => (
        <Text span fz="sm" style={{ whiteSpace: 'nowrap' }}>
          {r.source || '—'}
        </Text>
      ),
    },
    {
      key: 'site',
      header: t('fields:site_id'),
      cell: (r) =>
        editable ? (
          <SiteChoice row={r} value={siteOf(r)} onChange={(v) => setMapping((m) => ({ ...m, [r._id]: v }))} />
        ) : r.site_id ? (
          <Anchor component={Link} to={`/sites/${r.site_id}`} fz="sm">
            {r.site_title}
          </Anchor>
        ) : (
          '—'
        ),
    },
    {
      key: 'page_views',
      header: t('fields:page_views'),
      align: 'right',
      cell: (r) => formatNumber(r.page_views),
    },
    {
      key: 'impressions',
      header: t('fields:impressions'),
      align: 'right',
      cell: (r) => formatNumber(r.impressions),
    },
    { key: 'clicks', header: t('fields:clicks'), align: 'right', cell: (r) => formatNumber(r.clicks) },
    {
      key: 'revenue',
      header: t('fields:adsense_revenue'),
      align: 'right',
      nowrap: true,
      cell: (r) => <MoneyText amount={r.adsense_revenue} fz="sm" />,
    },
    {
      key: 'site_income',
      header: t('columns.site_income'),
      align: 'right',
      nowrap: true,
      cell: (r) => (r.site_income === null ? '—' : <MoneyText amount={r.site_income} fz="sm" />),
    },
    {
      key: 'own_income',
      header: t('columns.own_income'),
      align: 'right',
      nowrap: true,
      cell: (r) => (r.own_income === null ? '—' : <MoneyText amount={r.own_income} fz="sm" />),
    },
    {
      key: 'errors',
      header: t('columns.errors'),
      cell: (r) =>
        r.errors.length ? (
          <List size="sm" c="red" spacing={2} data-testid="row-errors">
            {r.errors.map((e) => (
              <List.Item key={`${e.field}:${e.code}`}>{e.detail}</List.Item>
            ))}
          </List>
        ) : (
          <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-label={t('no_errors')} />
        ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={imp.file_name}
        subtitle={t('detail_subtitle')}
        back={{ to: '/adsense-incomes', label: t('title') }}
      />
      <Card padding="lg" radius="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <DetailItem label={t('columns.status')}>
            <ImportStatus status={imp.status} />
          </DetailItem>
          <DetailItem label={t('columns.uploaded_at')}>{formatDateTime(imp.created_at)}</DetailItem>
          <DetailItem label={t('columns.format')}>
            {t(`format.${imp.format}`)} · {imp.currency}
          </DetailItem>
          <DetailItem label={t('columns.rows')}>
            {formatNumber(imp.rows_count)}
            {imp.error_rows ? ` (${t('with_errors', { count: imp.error_rows })})` : ''}
          </DetailItem>
          <DetailItem label={t('fields:adsense_revenue')}>
            <MoneyText amount={imp.adsense_revenue} />
          </DetailItem>
          <DetailItem label={t('columns.site_income')}>
            {imp.status === 'approved' ? <MoneyText amount={imp.site_income} /> : '—'}
          </DetailItem>
          <DetailItem label={t('columns.own_income')}>
            {imp.status === 'approved' ? <MoneyText amount={imp.own_income} /> : '—'}
          </DetailItem>
          {imp.approved_at ? (
            <DetailItem label={t('columns.approved_at')}>{formatDateTime(imp.approved_at)}</DetailItem>
          ) : null}
        </SimpleGrid>
      </Card>
      {editable ? (
        <Alert color="blue" variant="light">
          <Group justify="space-between" gap="sm">
            <Text fz="sm" style={{ flex: '1 1 320px' }}>
              {t('approve_hint')}
            </Text>
            <Button onClick={() => setConfirming(true)} leftSection={<IconCheck size={16} aria-hidden />}>
              {t('approve')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      <ConfirmDialog
        opened={confirming}
        title={t('confirm.title')}
        message={t('confirm.message', {
          count: imp.rows.filter((r) => siteOf(r) !== null && !r.errors.some((e) => e.field !== 'site_id'))
            .length,
        })}
        confirmLabel={t('approve')}
        color="blue"
        loading={approve.isPending}
        onConfirm={onApprove}
        onClose={() => setConfirming(false)}
      />
      <DataTable
        columns={columns}
        rows={imp.rows}
        rowKey={(r) => r._id}
        empty={t('no_rows')}
        caption={t('rows_caption')}
        minWidth={1180}
      />
    </Stack>
  );
}
