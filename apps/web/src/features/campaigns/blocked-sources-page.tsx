import { account, type BlockedSource } from '@adp/contract';
import { ActionIcon, Anchor, Button, Card, Group, Modal, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconBan, IconEdit, IconLockOpen } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { OwnerLink } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useNames } from '../../lib/name-cache.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAllBlockedSources, useUnblockSource } from './api/blocked-sources-queries.ts';
import { BlockDialog, EditDialog, SourceCell, UntilCell } from './components/blocked-sources-panel.tsx';

const LIMIT = 20;

/** The campaign a block is for (its name from the name cache, linked), or every campaign. */
function CampaignCell({ block }: { block: BlockedSource }) {
  const { t } = useTranslation('campaigns');
  const id = block.campaign_id;
  const names = useNames('campaigns', id ? [id] : []);
  if (!id)
    return (
      <Text fz="sm" fw={600}>
        {t('blocked_sources.all_campaigns')}
      </Text>
    );
  const named = names.get(id);
  return named ? (
    <Anchor component={Link} to={`/users/${named.user_id}/campaigns/${id}`} fz="sm" fw={600}>
      {named.name}
    </Anchor>
  ) : (
    <Text fz="sm">#{id}</Text>
  );
}

/** Who blocked the source (linked to the user) and when. */
function WhoCell({ block }: { block: BlockedSource }) {
  const by = block.created_by;
  const user = useQuery({
    queryKey: ['users', by],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(by ?? '')}`, { schema: account }),
    enabled: Boolean(by),
    meta: { silent: true },
    staleTime: 3_600_000,
  });
  return (
    <Stack gap={0}>
      {by ? <OwnerLink userId={by} name={user.data?.name} /> : <Text fz="sm">—</Text>}
      <Text fz="xs" c="dimmed">
        {formatDateTime(block.created_at)}
      </Text>
    </Stack>
  );
}

/**
 * /sources (admin): every campaign's blocked traffic sources (SPEC.md section 4), the site or widget, why,
 * until when and who blocked it; admins edit a block or unblock it (amnesty), readonly admins read.
 */
export function BlockedSourcesPage() {
  const { t } = useTranslation('campaigns');
  const title = t('blocked_sources.all_title');
  usePageTitle(title);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const blocks = useAllBlockedSources(page, LIMIT);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<BlockedSource | null>(null);
  const [unblocking, setUnblocking] = useState<BlockedSource | null>(null);
  const unblock = useUnblockSource(unblocking?.campaign_id ?? 'none');
  const ability = useAppAbility();
  const mayChange = ability.can('update', 'TrafficBlock');
  const mayBlock = ability.can('create', 'TrafficBlock');
  const columns: Column<BlockedSource>[] = [
    { key: 'campaign', header: t('blocked_sources.campaign'), cell: (b) => <CampaignCell block={b} /> },
    { key: 'source', header: t('blocked_sources.source'), cell: (b) => <SourceCell block={b} /> },
    {
      key: 'reason',
      header: t('blocked_sources.reason'),
      cell: (b) => (
        <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {b.reason || '—'}
        </Text>
      ),
    },
    { key: 'until', header: t('blocked_sources.until'), nowrap: true, cell: (b) => <UntilCell block={b} /> },
    { key: 'who', header: t('blocked_sources.blocked_by'), cell: (b) => <WhoCell block={b} /> },
  ];
  const actions: Column<BlockedSource> = {
    key: 'actions',
    header: <VisuallyHidden>{t('blocked_sources.actions')}</VisuallyHidden>,
    align: 'right',
    nowrap: true,
    cell: (b) => (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <ActionIcon
          variant="subtle"
          aria-label={t('blocked_sources.edit_label', { id: b.site_id ?? b.widget_id })}
          onClick={() => setEditing(b)}
        >
          <IconEdit size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          color="green"
          aria-label={t('blocked_sources.unblock_label', { id: b.site_id ?? b.widget_id })}
          onClick={() => setUnblocking(b)}
        >
          <IconLockOpen size={16} aria-hidden />
        </ActionIcon>
      </Group>
    ),
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        subtitle={t('blocked_sources.all_explain')}
        actions={
          mayBlock ? (
            <Button
              color="red"
              leftSection={<IconBan size={16} aria-hidden />}
              onClick={() => setAdding(true)}
            >
              {t('blocked_sources.add')}
            </Button>
          ) : undefined
        }
      />
      <Card padding="lg" radius="md">
        <DataTable
          minWidth={860}
          columns={mayChange ? [...columns, actions] : columns}
          rows={blocks.data?.items ?? []}
          rowKey={(b) => b._id}
          loading={blocks.isPending}
          error={blocks.error}
          empty={t('blocked_sources.empty')}
          page={page}
          total={blocks.data?.total}
          limit={LIMIT}
          onPage={(next) =>
            setParams((current) => {
              const updated = new URLSearchParams(current);
              if (next > 1) updated.set('page', String(next));
              else updated.delete('page');
              return updated;
            })
          }
          caption={title}
        />
      </Card>
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('blocked_sources.add_title')}>
        {adding ? <BlockDialog campaignId={null} onClose={() => setAdding(false)} /> : null}
      </Modal>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={t('blocked_sources.edit_title')}
      >
        {editing ? (
          <EditDialog
            block={editing}
            campaignId={editing.campaign_id ?? 'none'}
            onClose={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDialog
        opened={unblocking !== null}
        title={t('blocked_sources.unblock_title')}
        message={t('blocked_sources.unblock_message_all')}
        confirmLabel={t('blocked_sources.unblock')}
        color="green"
        loading={unblock.isPending}
        onClose={() => setUnblocking(null)}
        onConfirm={async () => {
          if (!unblocking) return;
          const done = await unblock.mutateAsync(unblocking._id).then(
            () => true,
            () => false,
          );
          setUnblocking(null);
          if (done) notifySuccess(t('blocked_sources.unblocked'));
        }}
      />
    </Stack>
  );
}
