import type { Campaign } from '@adp/contract';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const moderationColor = { pending: 'yellow', approved: 'teal', rejected: 'red' } as const;
const ctrColor = { unchecked: 'gray', checked: 'teal', not_passed: 'red' } as const;

/** A campaign's status, or a creative's (`ns="banners"`: "Активен" where a campaign is "Активна"). */
export function StatusBadge({
  status,
  ns = 'campaigns',
}: {
  status: Campaign['status'];
  ns?: 'campaigns' | 'banners';
}) {
  const { t } = useTranslation(ns);
  return (
    <Badge variant="light" color={status === 'active' ? 'teal' : 'gray'}>
      {t(`status.${status}`)}
    </Badge>
  );
}

export function ModerationBadge({
  moderation,
  ns = 'campaigns',
}: {
  moderation: Campaign['moderation'];
  ns?: 'campaigns' | 'banners';
}) {
  const { t } = useTranslation(ns);
  return (
    <Badge variant="light" color={moderationColor[moderation]}>
      {t(`moderation.${moderation}`)}
    </Badge>
  );
}

export function TargetCtrBadge({ status }: { status: Campaign['target_ctr_status'] }) {
  const { t } = useTranslation('campaigns');
  return (
    <Badge variant="light" color={ctrColor[status]}>
      {t(`target_ctr.${status}`)}
    </Badge>
  );
}
