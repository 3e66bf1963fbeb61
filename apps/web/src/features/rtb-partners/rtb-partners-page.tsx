import type { RtbPartner } from '@adp/contract';
import { ActionIcon, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEdit, IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/partner-kit.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { pathOf } from '../../lib/url.ts';
import { useNewRtbPartnerKey, useRtbPartners } from './api/rtb-partners-queries.ts';
import { RtbPartnerDialog } from './components/rtb-partner-dialog.tsx';

const LIMIT = 20;

/** Admin: the RTB partners that send us bid requests, each with the endpoint URL to hand over. */
export function RtbPartnersPage() {
  const { t } = useTranslation('rtbpartners');
  const canEdit = useAppAbility().can('update', 'RtbPartner');
  const canCreate = useAppAbility().can('create', 'RtbPartner');
  const [page, setPage] = useState(1);
  const partners = useRtbPartners(page, LIMIT);
  const [editing, setEditing] = useState<RtbPartner | 'new' | null>(null);
  const [rekey, setRekey] = useState<RtbPartner | null>(null);
  const newKey = useNewRtbPartnerKey();

  const columns: Column<RtbPartner>[] = [
    { key: 'name', header: t('fields.name'), cell: (p) => <Text fw={600}>{p.name}</Text> },
    {
      key: 'status',
      header: t('fields.status'),
      cell: (p) => <StatusBadge status={p.status} label={t(`status.${p.status}`)} />,
    },
    {
      key: 'endpoint',
      header: t('fields.endpoint'),
      cell: (p) => (
        <Group gap={4} wrap="nowrap">
          {/* the path on one line (every partner's host is ours); the button copies the whole URL */}
          <Code title={p.endpoint} style={{ whiteSpace: 'nowrap' }}>
            {pathOf(p.endpoint)}
          </Code>
          <CopyButton value={p.endpoint}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('copied') : t('copy')}>
                <ActionIcon variant="subtle" onClick={copy} aria-label={t('copy')}>
                  {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      ),
    },
    {
      key: 'max_request_ms',
      header: t('fields.max_request_ms'),
      align: 'right',
      nowrap: true,
      cell: (p) => t('ms', { value: p.max_request_ms }),
    },
    {
      key: 'daily_limit',
      header: t('fields.daily_limit'),
      align: 'right',
      cell: (p) => (p.daily_limit === null ? t('no_limit') : <MoneyText amount={p.daily_limit} />),
    },
    { key: 'currency', header: t('fields.currency'), cell: (p) => p.currency },
    {
      key: 'created_at',
      header: t('fields.created_at'),
      nowrap: true,
      cell: (p) => formatDateTime(p.created_at),
    },
    ...(canEdit
      ? [
          {
            key: 'actions',
            header: t('actions'),
            align: 'right' as const,
            cell: (p: RtbPartner) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t('edit_title', { name: p.name })}>
                  <ActionIcon
                    variant="subtle"
                    onClick={() => setEditing(p)}
                    aria-label={t('edit_title', { name: p.name })}
                  >
                    <IconEdit size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('new_key')}>
                  <ActionIcon
                    variant="subtle"
                    color="orange"
                    onClick={() => setRekey(p)}
                    aria-label={t('new_key')}
                  >
                    <IconKey size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ),
          },
        ]
      : []),
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          canCreate ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
              {t('create')}
            </Button>
          ) : null
        }
      />
      <DataTable
        caption={t('title')}
        columns={columns}
        rows={partners.data?.items ?? []}
        rowKey={(p) => p._id}
        loading={partners.isPending}
        error={partners.error}
        empty={t('empty')}
        page={page}
        total={partners.data?.total}
        limit={LIMIT}
        onPage={setPage}
        minWidth={900}
      />
      {editing ? (
        <RtbPartnerDialog partner={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        opened={rekey !== null}
        title={t('new_key')}
        message={t('new_key_confirm', { name: rekey?.name ?? '' })}
        confirmLabel={t('new_key')}
        color="orange"
        loading={newKey.isPending}
        onClose={() => setRekey(null)}
        onConfirm={() => {
          if (!rekey) return;
          newKey.mutate(rekey._id, {
            onSuccess: (p) => {
              notifySuccess(t('new_key_done', { name: p.name }));
              setRekey(null);
            },
            onError: notifyError,
          });
        }}
      />
    </Stack>
  );
}
