import type { Notification } from '@adp/contract';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Indicator,
  Pagination,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Tooltip,
} from '@mantine/core';
import {
  IconBan,
  IconBell,
  IconCash,
  IconChecks,
  IconGavel,
  IconMail,
  IconMailOpened,
  IconTrendingDown,
  IconTrophy,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import {
  type NotificationsFilter,
  useMarkAllRead,
  useMarkRead,
  useNotifications,
} from './api/notifications-queries.ts';
import { notificationLink, notificationText } from './notification-text.ts';

const PER_PAGE = 20;

const icons: Record<string, { icon: typeof IconBell; color: string }> = {
  moderation: { icon: IconGavel, color: 'indigo' },
  low_balance: { icon: IconTrendingDown, color: 'orange' },
  low_account_balance: { icon: IconTrendingDown, color: 'orange' },
  withdrawal: { icon: IconCash, color: 'teal' },
  adsense_income: { icon: IconCash, color: 'teal' },
  source_blocked: { icon: IconBan, color: 'red' },
  nurl: { icon: IconTrophy, color: 'gray' },
  burl: { icon: IconTrophy, color: 'gray' },
};

function NotificationRow({ n }: { n: Notification }) {
  const { t } = useTranslation('notifications');
  const markRead = useMarkRead();
  // a readonly role reads its notifications but never writes, its read marks included
  const mayMark = useAppAbility().can('update', 'Notification');
  const unread = n.read_at === null;
  const base = icons[n.type] ?? { icon: IconBell, color: 'gray' };
  // a decision reads at a glance: approvals green, rejections red
  const look =
    n.type === 'moderation' || n.type === 'withdrawal'
      ? {
          ...base,
          color: n.payload.decision === 'rejected' || n.payload.status === 'rejected' ? 'red' : 'teal',
        }
      : base;
  const Icon = look.icon;
  const link = notificationLink(n);
  const text = notificationText(n, t);
  const toggle = () => markRead.mutate({ id: n._id, read: unread });
  const toggleLabel = unread ? t('mark_read') : t('mark_unread');
  return (
    <Card
      padding="sm"
      radius="md"
      withBorder
      data-testid="notification"
      data-unread={unread || undefined}
      style={unread ? { borderInlineStart: '3px solid var(--mantine-primary-color-filled)' } : undefined}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <Indicator disabled={!unread} size={9} offset={3} aria-hidden>
          <ThemeIcon variant="light" color={look.color} radius="xl" size="lg">
            <Icon size={18} aria-hidden />
          </ThemeIcon>
        </Indicator>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" color={look.color} size="sm">
              {t(`types.${n.type}`, { defaultValue: n.type })}
            </Badge>
            {unread ? (
              <Badge variant="filled" size="sm">
                {t('unread_badge')}
              </Badge>
            ) : null}
            <Text size="xs" c="dimmed">
              {formatDateTime(n.created_at)}
            </Text>
          </Group>
          <Text size="sm" fw={unread ? 600 : 400} style={{ overflowWrap: 'anywhere' }}>
            {text}
          </Text>
          {link ? (
            <Anchor
              component={Link}
              to={link}
              size="sm"
              w="fit-content"
              onClick={unread && mayMark ? toggle : undefined}
            >
              {t('open')}
            </Anchor>
          ) : null}
        </Stack>
        {/* an icon with its name as tooltip: the row keeps one line for it in every language and width */}
        {mayMark ? (
          <Tooltip label={toggleLabel} withArrow position="left">
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={toggleLabel}
              loading={markRead.isPending}
              onClick={toggle}
            >
              {unread ? <IconMailOpened size={18} aria-hidden /> : <IconMail size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
    </Card>
  );
}

/**
 * The signed-in user's notifications, newest first (SPEC.md section 2: /notifications): each one's type,
 * text in the reader's language, date and read state; one or all marked read; all or only unread, and the
 * exchange's win and billing notices on their own.
 */
export function NotificationsPage() {
  const { t } = useTranslation('notifications');
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<NotificationsFilter>('all');
  const list = useNotifications(page, PER_PAGE, filter);
  const markAll = useMarkAllRead();
  const mayMark = useAppAbility().can('update', 'Notification');
  usePageTitle(t('title'));
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        actions={
          mayMark ? (
            <Button
              variant="light"
              leftSection={<IconChecks size={16} aria-hidden />}
              loading={markAll.isPending}
              onClick={() => markAll.mutate()}
            >
              {t('mark_all_read')}
            </Button>
          ) : undefined
        }
      />
      <SegmentedControl
        w="fit-content"
        value={filter}
        onChange={(v) => {
          setFilter(v as NotificationsFilter);
          setPage(1);
        }}
        data={[
          { value: 'all', label: t('filter.all') },
          { value: 'unread', label: t('filter.unread') },
          { value: 'exchange', label: t('filter.exchange') },
        ]}
        aria-label={t('filter.label')}
      />
      {list.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={84} radius="md" />
          ))}
        </Stack>
      ) : list.data && list.data.items.length > 0 ? (
        <Stack gap="xs" component="section" aria-label={t('title')}>
          {list.data.items.map((n) => (
            <NotificationRow key={n._id} n={n} />
          ))}
        </Stack>
      ) : (
        <Card padding="xl" radius="md">
          <Center>
            <Text c="dimmed" ta="center">
              {filter === 'all' ? t('empty') : filter === 'unread' ? t('empty_unread') : t('empty_exchange')}
            </Text>
          </Center>
        </Card>
      )}
      {pages > 1 ? (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} size="sm" />
        </Group>
      ) : null}
    </Stack>
  );
}
