import type { Widget } from '@adp/contract';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const moderationColor = { pending: 'yellow', approved: 'teal', rejected: 'red' } as const;

export function WidgetModerationBadge({ moderation }: { moderation: Widget['moderation'] }) {
  const { t } = useTranslation('widgets');
  return (
    <Badge variant="light" color={moderationColor[moderation]}>
      {t(`moderation.${moderation}`)}
    </Badge>
  );
}

export function WidgetStatusBadge({ status }: { status: Widget['status'] }) {
  const { t } = useTranslation('widgets');
  return (
    <Badge variant="light" color={status === 'active' ? 'teal' : 'gray'}>
      {t(`status.${status}`)}
    </Badge>
  );
}
