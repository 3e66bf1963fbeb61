import type { BlockedSource, Campaign } from '@adp/contract';
import { subject } from '@adp/permissions';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconBan, IconEdit, IconLockOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { type Control, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { FormDateField } from '../../../components/date-field.tsx';
import { FormSelect, FormTextarea, FormTextInput } from '../../../components/form-fields.tsx';
import { useAppAbility } from '../../../lib/ability.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { validationErrorMap } from '../../../lib/validation.ts';
import {
  useAdminBlockSource,
  useBlockedSources,
  useBlockSource,
  useEditBlockedSource,
  useUnblockSource,
} from '../api/blocked-sources-queries.ts';

const LIMIT = 10;

/** A block's end is a day (UTC): the block holds through its last moment. */
function formatUntil(iso: string): string {
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}

const editForm = z.object({
  reason: z.string().trim().max(1000),
  until: z.union([z.iso.date(), z.literal('')]),
});
const blockForm = editForm.extend({
  source_type: z.enum(['site', 'widget']),
  source_id: z
    .string()
    .trim()
    .regex(/^[0-9]{1,18}$/),
  /** The admin's form only: the campaign, or '' for every campaign. */
  campaign_id: z
    .string()
    .trim()
    .regex(/^([0-9]{1,18})?$/),
});
type BlockForm = z.infer<typeof blockForm>;
type EditForm = z.infer<typeof editForm>;

/** The reason and the end date of a block: the same two fields when blocking and when editing. */
function BlockTermsFields({ control }: { control: Control<EditForm> }) {
  const { t } = useTranslation('campaigns');
  return (
    <>
      <FormTextarea
        control={control}
        name="reason"
        label={t('blocked_sources.reason')}
        autosize
        minRows={2}
      />
      <FormDateField
        control={control}
        name="until"
        label={t('blocked_sources.until')}
        description={t('blocked_sources.until_hint')}
      />
    </>
  );
}

/** A block's source: the widget's title or the site's domain, and its id. */
export function SourceCell({ block }: { block: BlockedSource }) {
  const { t } = useTranslation('campaigns');
  return (
    <Stack gap={0}>
      <Text fz="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {block.widget_id ? block.widget_title || '—' : block.site_domain}
      </Text>
      <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {block.widget_id
          ? `${t('blocked_sources.widget_n', { id: block.widget_id })} · ${block.site_domain}`
          : t('blocked_sources.site_n', { id: block.site_id })}
      </Text>
    </Stack>
  );
}

/** Until when a block holds: permanent, a day, or a day that has passed (ended). */
export function UntilCell({ block }: { block: BlockedSource }) {
  const { t } = useTranslation('campaigns');
  if (block.until === null)
    return (
      <Badge color="red" variant="light">
        {t('blocked_sources.permanent')}
      </Badge>
    );
  if (block.active) return formatUntil(block.until);
  return (
    <Group gap={6} wrap="nowrap">
      {formatUntil(block.until)}
      <Badge color="gray" variant="light">
        {t('blocked_sources.ended')}
      </Badge>
    </Group>
  );
}

/**
 * The block form: a site or widget, a reason and an end date. On a campaign's page (`campaignId`) it
 * blocks the source for that campaign; on the admin's /sources page (`campaignId` null) it also asks for
 * the campaign, empty for every campaign.
 */
export function BlockDialog({ campaignId, onClose }: { campaignId: string | null; onClose: () => void }) {
  const { t } = useTranslation('campaigns');
  const block = useBlockSource(campaignId ?? 'none');
  const adminBlock = useAdminBlockSource();
  const form = useForm<BlockForm>({
    resolver: zodResolver(blockForm, { error: validationErrorMap }),
    defaultValues: { source_type: 'site', source_id: '', reason: '', until: '', campaign_id: '' },
  });
  const submit = form.handleSubmit(async (v) => {
    const input = {
      ...(v.source_type === 'site' ? { site_id: v.source_id } : { widget_id: v.source_id }),
      reason: v.reason,
      until: v.until || null,
    };
    try {
      if (campaignId === null) await adminBlock.mutateAsync({ ...input, campaign_id: v.campaign_id || null });
      else await block.mutateAsync(input);
      notifySuccess(t('blocked_sources.blocked'));
      onClose();
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors.map((e) => e.field) : [];
      if (fields.includes('campaign_id'))
        form.setError(
          'campaign_id',
          { message: t('blocked_sources.unknown_campaign') },
          { shouldFocus: true },
        );
      else if (fields.some((f) => /^(site_id|widget_id)$/.test(f)))
        form.setError('source_id', { message: t('blocked_sources.unknown_source') }, { shouldFocus: true });
      else applyServerErrors(error, form.setError, ['reason', 'until']);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {campaignId === null ? (
          <FormTextInput
            control={form.control}
            name="campaign_id"
            label={t('blocked_sources.campaign_id')}
            description={t('blocked_sources.campaign_id_hint')}
            inputMode="numeric"
          />
        ) : null}
        <FormSelect
          control={form.control}
          name="source_type"
          label={t('blocked_sources.source_type')}
          data={[
            { value: 'site', label: t('blocked_sources.site') },
            { value: 'widget', label: t('blocked_sources.widget') },
          ]}
          allowDeselect={false}
        />
        <FormTextInput
          control={form.control}
          name="source_id"
          label={t('blocked_sources.source_id')}
          inputMode="numeric"
          required
        />
        {/* the block form is the edit form with the source added: its reason and until fields are the same */}
        <BlockTermsFields control={form.control as unknown as Control<EditForm>} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" color="red" loading={form.formState.isSubmitting}>
            {t('blocked_sources.block')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The edit form of a block: its reason and until. */
export function EditDialog({
  block,
  campaignId,
  onClose,
}: {
  block: BlockedSource;
  campaignId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('campaigns');
  const edit = useEditBlockedSource(campaignId);
  const form = useForm<EditForm>({
    resolver: zodResolver(editForm, { error: validationErrorMap }),
    defaultValues: { reason: block.reason, until: block.until ? block.until.slice(0, 10) : '' },
  });
  const submit = form.handleSubmit(async (v) => {
    try {
      await edit.mutateAsync({ id: block._id, input: { reason: v.reason, until: v.until || null } });
      notifySuccess(t('blocked_sources.saved'));
      onClose();
    } catch (error) {
      applyServerErrors(error, form.setError, ['reason', 'until']);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SourceCell block={block} />
        <BlockTermsFields control={form.control} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('blocked_sources.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Traffic sources (SPEC.md section 4) on the campaign page: the sites and widgets where the campaign does
 * not serve, why and until when; whoever may change the campaign blocks, edits and unblocks (amnesty).
 */
export function BlockedSourcesPanel({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('campaigns');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<BlockedSource | null>(null);
  const [unblocking, setUnblocking] = useState<BlockedSource | null>(null);
  const blocks = useBlockedSources(campaign._id, page);
  const unblock = useUnblockSource(campaign._id);
  const title = t('blocked_sources.title');
  const mayChange = useAppAbility().can('update', subject('Campaign', { user_id: campaign.user_id }));
  const columns: Column<BlockedSource>[] = [
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
    {
      key: 'until',
      header: t('blocked_sources.until'),
      nowrap: true,
      cell: (b) => <UntilCell block={b} />,
    },
    {
      key: 'created_at',
      header: t('blocked_sources.blocked_on'),
      nowrap: true,
      cell: (b) => <Text fz="sm">{formatDateTime(b.created_at)}</Text>,
    },
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
    <Card padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={2} fz="lg">
            {title}
          </Title>
          {mayChange ? (
            <Button
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconBan size={14} aria-hidden />}
              onClick={() => setAdding(true)}
            >
              {t('blocked_sources.add')}
            </Button>
          ) : null}
        </Group>
        <Text fz="sm" c="dimmed">
          {t('blocked_sources.explain')}
        </Text>
        <DataTable
          minWidth={640}
          columns={mayChange ? [...columns, actions] : columns}
          rows={blocks.data?.items ?? []}
          rowKey={(b) => b._id}
          loading={blocks.isPending}
          error={blocks.error}
          empty={t('blocked_sources.empty')}
          page={page}
          total={blocks.data?.total}
          limit={LIMIT}
          onPage={setPage}
          caption={title}
        />
      </Stack>
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('blocked_sources.add_title')}>
        {adding ? <BlockDialog campaignId={campaign._id} onClose={() => setAdding(false)} /> : null}
      </Modal>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={t('blocked_sources.edit_title')}
      >
        {editing ? (
          <EditDialog block={editing} campaignId={campaign._id} onClose={() => setEditing(null)} />
        ) : null}
      </Modal>
      <ConfirmDialog
        opened={unblocking !== null}
        title={t('blocked_sources.unblock_title')}
        message={t('blocked_sources.unblock_message')}
        confirmLabel={t('blocked_sources.unblock')}
        color="green"
        loading={unblock.isPending}
        onClose={() => setUnblocking(null)}
        onConfirm={async () => {
          if (!unblocking) return;
          await unblock.mutateAsync(unblocking._id).catch(() => null);
          setUnblocking(null);
          notifySuccess(t('blocked_sources.unblocked'));
        }}
      />
    </Card>
  );
}
