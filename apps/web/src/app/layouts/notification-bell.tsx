import type { Notification } from '@adp/contract';
import { ActionIcon, Anchor, Divider, Group, Indicator, Popover, Skeleton, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  useLatestNotifications,
  useMarkRead,
  useUnreadCount,
} from '../../features/notifications/api/notifications-queries.ts';
import { notificationLink, notificationText } from '../../features/notifications/notification-text.ts';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDateTime } from '../../lib/format.ts';

function LatestItem({ n, close }: { n: Notification; close: () => void }) {
  const { t } = useTranslation('notifications');
  const markRead = useMarkRead();
  // a readonly role opens its notifications without marking them (it never writes)
  const mayMark = useAppAbility().can('update', 'Notification');
  const link = notificationLink(n);
  const unread = n.read_at === null;
  return (
    <Stack gap={2} data-testid="bell-notification" data-unread={unread || undefined}>
      <Text size="sm" fw={unread ? 600 : 400} lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
        {notificationText(n, t)}
      </Text>
      <Group gap="sm">
        <Text size="xs" c="dimmed">
          {formatDateTime(n.created_at)}
        </Text>
        {link ? (
          <Anchor
            component={Link}
            to={link}
            size="xs"
            onClick={() => {
              if (unread && mayMark) markRead.mutate({ id: n._id, read: true });
              close();
            }}
          >
            {t('open')}
          </Anchor>
        ) : null}
      </Group>
    </Stack>
  );
}

/** The dropdown's content: its own component, so the notifications texts load only once it opens. */
function LatestNotifications({ close }: { close: () => void }) {
  const { t } = useTranslation('notifications');
  const latest = useLatestNotifications();
  const items = latest.data?.items ?? [];
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm">
        {t('title')}
      </Text>
      {latest.isPending ? (
        <>
          <Skeleton h={36} />
          <Skeleton h={36} />
        </>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : (
        items.map((n, i) => (
          <Stack key={n._id} gap="xs">
            {i > 0 ? <Divider /> : null}
            <LatestItem n={n} close={close} />
          </Stack>
        ))
      )}
      <Divider />
      <Anchor component={Link} to="/notifications" size="sm" onClick={close}>
        {t('all')}
      </Anchor>
    </Stack>
  );
}

/**
 * The header's bell (every role that may read notifications): the unread count, refreshed every minute
 * and when the window regains focus; it opens the newest notifications, each with a link to what it is
 * about, and the way to all of them.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const allowed = useAppAbility().can('read', 'Notification');
  const unread = useUnreadCount(allowed);
  const [opened, setOpened] = useState(false);
  if (!allowed) return null;
  const count = unread.data?.count ?? 0;
  const label = count > 0 ? t('header.notifications_unread', { count }) : t('header.notifications');
  const close = () => setOpened(false);
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={340}
      shadow="md"
      withArrow
      // roles set here: the dropdown is named "Notifications", not after the bell's count
      withRoles={false}
    >
      <Popover.Target>
        <Indicator
          label={count > 99 ? '99+' : count}
          size={16}
          offset={4}
          disabled={count === 0}
          color="red"
          data-testid="notification-count"
        >
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={label}
            title={label}
            aria-expanded={opened}
            aria-haspopup="dialog"
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={20} aria-hidden />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={t('header.notifications')} p="sm">
        {opened ? (
          <Suspense fallback={<Skeleton h={72} />}>
            <LatestNotifications close={close} />
          </Suspense>
        ) : null}
      </Popover.Dropdown>
    </Popover>
  );
}
