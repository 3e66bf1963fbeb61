import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUser, IconUsers } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { logout, useMe } from '../../features/auth/api/auth-api.ts';
import { Can, useAuth } from '../../lib/ability.tsx';

export function UserMenu() {
  const { t } = useTranslation();
  const auth = useAuth();
  const me = useMe(Boolean(auth.accessToken));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const name = me.data?.account.name ?? '';
  const initials =
    name
      .split(/\s+/)
      .map((part) => part[0] ?? '')
      .join('')
      .slice(0, 2)
      .toUpperCase() || '?';

  const onLogout = async () => {
    await logout();
    queryClient.clear();
    navigate('/login', { replace: true });
  };

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* Named by its content, the visible name then "Account menu" (WCAG 2.5.3, label in name). */}
        <UnstyledButton p={4} style={{ borderRadius: 8 }}>
          <Group gap={6} wrap="nowrap">
            <Avatar radius="xl" size={32} color="indigo" aria-hidden>
              {initials}
            </Avatar>
            <Text fz="sm" fw={500} visibleFrom="md" maw={160} truncate>
              {name}
            </Text>
            <VisuallyHidden>{t('user_menu.label')}</VisuallyHidden>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {name ? <Menu.Label>{name}</Menu.Label> : null}
        {auth.userId ? (
          <Menu.Item
            component={Link}
            to={`/users/${auth.userId}`}
            leftSection={<IconUser size={16} aria-hidden />}
          >
            {t('user_menu.profile')}
          </Menu.Item>
        ) : null}
        <Can I="manage" a="ACL">
          <Menu.Item component={Link} to="/users" leftSection={<IconUsers size={16} aria-hidden />}>
            {t('nav.users')}
          </Menu.Item>
        </Can>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void onLogout()}
        >
          {t('user_menu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
