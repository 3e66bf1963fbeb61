import { Alert, Badge, Button, Skeleton, Text } from '@mantine/core';
import { IconChartBar, IconEdit, IconHistory, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * The pieces the partner screens (agency groups, DSP, Prebid and RTB partners) share: the list's search
 * parameters, the detail page's fields, actions and delete confirmation, the stats page's date range.
 */

/** The page of an id that does not exist or is not the caller's. */
export function EntityNotFound() {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t('errors:error_title')} role="alert">
      {t('errors:not_found')}
    </Alert>
  );
}

/** The skeleton of a detail or edit page while it loads. */
export function EntityLoading({ height = 320 }: { height?: number }) {
  return <Skeleton height={height} radius="md" aria-busy="true" />;
}

/** active / inactive, with the label of the feature's namespace. */
export function StatusBadge({ status, label }: { status: 'active' | 'inactive'; label: string }) {
  return (
    <Badge variant="light" color={status === 'active' ? 'teal' : 'gray'} miw="max-content">
      {label}
    </Badge>
  );
}

/** One labelled value of a detail card. */
export function DetailItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * A list page's URL state: `set(key, value)` sets or clears one parameter and goes back to the first page
 * unless the page itself changes.
 */
export function useListParams() {
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const set = (key: string, value: string) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'page') next.delete('page');
      return next;
    });
  return { search, page, set };
}

/** The stats / logs / edit buttons of a detail page's header (`base` is the entity's path). */
export function EntityActions({
  base,
  canEdit,
  labels,
}: {
  base: string;
  canEdit: boolean;
  labels: { stats: string; logs: string; edit: string };
}) {
  return (
    <>
      <Button
        component={Link}
        to={`${base}/stats`}
        variant="default"
        leftSection={<IconChartBar size={16} aria-hidden />}
      >
        {labels.stats}
      </Button>
      <Button
        component={Link}
        to={`${base}/logs`}
        variant="default"
        leftSection={<IconHistory size={16} aria-hidden />}
      >
        {labels.logs}
      </Button>
      {canEdit ? (
        <Button component={Link} to={`${base}/edit`} leftSection={<IconEdit size={16} aria-hidden />}>
          {labels.edit}
        </Button>
      ) : null}
    </>
  );
}

/** A delete button and its confirmation; `onDelete` runs when confirmed. */
export function DeleteEntityButton({
  label,
  title,
  message,
  onDelete,
}: {
  label: string;
  title: string;
  message: string;
  onDelete: () => Promise<void>;
}) {
  const [opened, setOpened] = useState(false);
  const [loading, setLoading] = useState(false);
  return (
    <>
      <Button
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {label}
      </Button>
      <ConfirmDialog
        opened={opened}
        title={title}
        message={message}
        confirmLabel={label}
        loading={loading}
        onClose={() => setOpened(false)}
        onConfirm={async () => {
          setLoading(true);
          try {
            await onDelete();
          } finally {
            setLoading(false);
          }
        }}
      />
    </>
  );
}
