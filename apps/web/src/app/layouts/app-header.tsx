import { Burger, Group, Text, UnstyledButton } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CustomizerButton } from './customizer.tsx';
import { LocaleMenu } from './locale-menu.tsx';
import { NotificationBell } from './notification-bell.tsx';
import { UserMenu } from './user-menu.tsx';

export function AppHeader({
  drawerOpened,
  onBurger,
  children,
}: {
  drawerOpened: boolean;
  onBurger: () => void;
  /** The horizontal layout's menu. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
        <Burger
          opened={drawerOpened}
          onClick={onBurger}
          hiddenFrom="sm"
          size="sm"
          aria-label={t('header.open_menu')}
        />
        <UnstyledButton component={Link} to="/" aria-label={t('app_name')}>
          <Group gap={6} wrap="nowrap">
            <IconSpeakerphone size={26} color="var(--mantine-primary-color-filled)" aria-hidden />
            <Text fw={700} fz="lg" visibleFrom="xs">
              {t('app_name')}
            </Text>
          </Group>
        </UnstyledButton>
        {children}
      </Group>
      <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
        <NotificationBell />
        <LocaleMenu />
        <CustomizerButton />
        <UserMenu />
      </Group>
    </Group>
  );
}
