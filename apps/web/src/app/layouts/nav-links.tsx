import { Button, Group, NavLink, Stack } from '@mantine/core';
import {
  IconArrowsExchange,
  IconBrowser,
  IconBuildingSkyscraper,
  IconCash,
  IconCoin,
  IconFocus2,
  IconGavel,
  IconGift,
  IconSettings,
  IconSpeakerphone,
  IconUser,
  IconUsers,
  IconWorldWww,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAppAbility, useAuth } from '../../lib/ability.tsx';
import type { NavMeta } from '../../lib/route-meta.ts';
import { navItemsFor } from '../navigation.ts';

const icons: Record<NavMeta['icon'], typeof IconUser> = {
  user: IconUser,
  users: IconUsers,
  transactions: IconArrowsExchange,
  referrals: IconGift,
  withdrawals: IconCash,
  agencies: IconBuildingSkyscraper,
  currencies: IconCoin,
  system: IconSettings,
  sites: IconWorldWww,
  moderation: IconGavel,
  campaigns: IconSpeakerphone,
  pixels: IconFocus2,
  landings: IconBrowser,
};

function useNavItems() {
  const ability = useAppAbility();
  const { userId } = useAuth();
  const location = useLocation();
  const items = navItemsFor(ability, userId);
  // Only the most specific item is active: /users/7 belongs to "My account", not to "Users".
  const best = items
    .filter((item) => location.pathname === item.to || location.pathname.startsWith(`${item.to}/`))
    .sort((a, b) => b.to.length - a.to.length)[0];
  return items.map((item) => ({ ...item, active: item === best }));
}

export function VerticalNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const items = useNavItems();
  return (
    <Stack component="nav" gap={4} aria-label={t('header.menu')}>
      {items.map((item) => {
        const Icon = icons[item.icon];
        return (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={t(item.label)}
            leftSection={<Icon size={18} aria-hidden />}
            active={item.active}
            onClick={onNavigate}
            aria-current={item.active ? 'page' : undefined}
            className="app-nav-link"
          />
        );
      })}
    </Stack>
  );
}

export function HorizontalNav() {
  const { t } = useTranslation();
  const items = useNavItems();
  return (
    <Group component="nav" gap={4} aria-label={t('header.menu')} wrap="nowrap">
      {items.map((item) => {
        const Icon = icons[item.icon];
        return (
          <Button
            key={item.to}
            component={Link}
            to={item.to}
            variant={item.active ? 'light' : 'subtle'}
            color={item.active ? undefined : 'gray'}
            leftSection={<Icon size={18} aria-hidden />}
            aria-current={item.active ? 'page' : undefined}
          >
            {t(item.label)}
          </Button>
        );
      })}
    </Group>
  );
}
