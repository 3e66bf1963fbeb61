import type { Site } from '@adp/contract';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const moderationColor = { pending: 'yellow', approved: 'teal', rejected: 'red' } as const;

export function SiteStatusBadge({ status }: { status: Site['status'] }) {
  const { t } = useTranslation('sites');
  return (
    <Badge variant="light" color={status === 'active' ? 'teal' : 'gray'}>
      {t(`status.${status}`)}
    </Badge>
  );
}

export function ModerationBadge({ moderation }: { moderation: Site['moderation'] }) {
  const { t } = useTranslation('sites');
  return (
    <Badge variant="light" color={moderationColor[moderation]}>
      {t(`moderation.${moderation}`)}
    </Badge>
  );
}
