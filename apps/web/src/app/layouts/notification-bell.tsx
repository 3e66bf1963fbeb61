import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUnreadCount } from '../../features/notifications/api/notifications-queries.ts';
import { useAppAbility } from '../../lib/ability.tsx';

/**
 * The header's bell (every role that may read notifications): the unread count, refreshed every minute
 * and when the window regains focus, linking to the notifications page.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const allowed = useAppAbility().can('read', 'Notification');
  const unread = useUnreadCount(allowed);
  if (!allowed) return null;
  const count = unread.data?.count ?? 0;
  const label = count > 0 ? t('header.notifications_unread', { count }) : t('header.notifications');
  return (
    <Indicator
      label={count > 99 ? '99+' : count}
      size={16}
      offset={4}
      disabled={count === 0}
      color="red"
      data-testid="notification-count"
    >
      <ActionIcon
        component={Link}
        to="/notifications"
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        title={label}
      >
        <IconBell size={20} aria-hidden />
      </ActionIcon>
    </Indicator>
  );
}
