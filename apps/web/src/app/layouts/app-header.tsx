import { Burger, Divider, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMemberAgency } from '../../lib/me-query.ts';
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
        <MemberAgencyBadge />
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

/** An agency member works under its agency's name: the group's logo (when it shows one) and title. */
function MemberAgencyBadge() {
  const { t } = useTranslation();
  const agency = useMemberAgency();
  if (!agency) return null;
  return (
    // a phone shows the logo only (the header's room goes to its buttons); no logo, nothing there
    <Group
      gap={8}
      wrap="nowrap"
      style={{ minWidth: 0 }}
      data-testid="member-agency"
      visibleFrom={agency.logo ? undefined : 'sm'}
    >
      <Divider orientation="vertical" />
      {agency.logo ? (
        <Image
          src={agency.logo}
          alt={t('header.agency_logo', { title: agency.title })}
          h={28}
          w="auto"
          maw={{ base: 72, sm: 160 }}
          fit="contain"
        />
      ) : null}
      {/* the logo's text alternative names the agency already */}
      <Text
        fz="sm"
        fw={600}
        c="dimmed"
        truncate
        visibleFrom="sm"
        maw={220}
        aria-hidden={agency.logo ? true : undefined}
      >
        {agency.title}
      </Text>
    </Group>
  );
}
