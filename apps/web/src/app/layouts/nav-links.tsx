import { Box, Button, Group, Menu, NavLink, Stack } from '@mantine/core';
import {
  IconAddressBook,
  IconArrowsExchange,
  IconBan,
  IconBell,
  IconBrowser,
  IconBuildingSkyscraper,
  IconCash,
  IconChartLine,
  IconChevronDown,
  IconCoin,
  IconCurrencyDollar,
  IconFocus2,
  IconGavel,
  IconGift,
  IconHelp,
  IconLink,
  IconPlugConnected,
  IconReportAnalytics,
  IconSettings,
  IconSpeakerphone,
  IconUser,
  IconUsers,
  IconWorldWww,
} from '@tabler/icons-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAppAbility, useAuth } from '../../lib/ability.tsx';
import type { NavMeta } from '../../lib/route-meta.ts';
import { navItemsFor } from '../navigation.ts';

const icons: Record<NavMeta['icon'], typeof IconUser> = {
  decode: IconLink,
  faq: IconHelp,
  contacts: IconAddressBook,
  adsense: IconCurrencyDollar,
  notifications: IconBell,
  user: IconUser,
  users: IconUsers,
  rtbpartners: IconPlugConnected,
  transactions: IconArrowsExchange,
  referrals: IconGift,
  withdrawals: IconCash,
  agencies: IconBuildingSkyscraper,
  currencies: IconCoin,
  reports: IconReportAnalytics,
  system: IconSettings,
  sites: IconWorldWww,
  moderation: IconGavel,
  campaigns: IconSpeakerphone,
  pixels: IconFocus2,
  landings: IconBrowser,
  statistics: IconChartLine,
  sources: IconBan,
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

const NAV_GAP = 4;

/**
 * How many entries fit beside the More button, from the widths of a hidden copy of the row.
 * @example fittingCount([100, 100, 100], 60, 260) // 1: two entries and More would need 268 px
 */
export function fittingCount(widths: number[], moreWidth: number, available: number): number {
  const all = widths.reduce((sum, width) => sum + width, 0) + NAV_GAP * Math.max(widths.length - 1, 0);
  if (all <= available) return widths.length;
  let used = moreWidth;
  let count = 0;
  for (const width of widths) {
    if (used + NAV_GAP + width > available) break;
    used += NAV_GAP + width;
    count += 1;
  }
  return count;
}

/**
 * The horizontal layout's menu: the entries that fit the space left by the header controls, the rest
 * under "More", so no entry runs under the controls and every one stays reachable.
 */
export function HorizontalNav() {
  const { t, i18n } = useTranslation();
  const items = useNavItems();
  const rowRef = useRef<HTMLDivElement>(null);
  const measureRef = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(items.length);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the widths change with the entries and the language
  useLayoutEffect(() => {
    const row = rowRef.current;
    const measure = measureRef.current;
    if (!row || !measure) return;
    const update = () => {
      const widths = [...measure.children].map((child) => (child as HTMLElement).offsetWidth);
      const moreWidth = widths.pop() ?? 0;
      setVisible(fittingCount(widths, moreWidth, row.clientWidth));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(row);
    return () => observer.disconnect();
  }, [items.length, i18n.language]);

  const button = (item: (typeof items)[number], hidden = false) => {
    const Icon = icons[item.icon];
    return (
      <Button
        key={item.to}
        component={Link}
        to={item.to}
        variant={item.active ? 'light' : 'subtle'}
        color={item.active ? undefined : 'gray'}
        leftSection={<Icon size={18} aria-hidden />}
        aria-current={item.active && !hidden ? 'page' : undefined}
        tabIndex={hidden ? -1 : undefined}
        style={{ flexShrink: 0 }}
      >
        {t(item.label)}
      </Button>
    );
  };
  const shown = items.slice(0, visible);
  const overflow = items.slice(visible);
  const moreActive = overflow.some((item) => item.active);

  return (
    <Box ref={rowRef} pos="relative" style={{ flex: 1, minWidth: 0, overflow: 'hidden' }}>
      <Group component="nav" gap={NAV_GAP} aria-label={t('header.menu')} wrap="nowrap">
        {shown.map((item) => button(item))}
        {overflow.length > 0 ? (
          <Menu position="bottom-start" withinPortal>
            <Menu.Target>
              <Button
                variant={moreActive ? 'light' : 'subtle'}
                color={moreActive ? undefined : 'gray'}
                rightSection={<IconChevronDown size={16} aria-hidden />}
                style={{ flexShrink: 0 }}
              >
                {t('header.more')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {overflow.map((item) => {
                const Icon = icons[item.icon];
                return (
                  <Menu.Item
                    key={item.to}
                    component={Link}
                    to={item.to}
                    leftSection={<Icon size={16} aria-hidden />}
                    aria-current={item.active ? 'page' : undefined}
                  >
                    {t(item.label)}
                  </Menu.Item>
                );
              })}
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>
      {/* A hidden copy of the full row (and the More button) to measure the entries' widths. */}
      <Group
        ref={measureRef}
        gap={NAV_GAP}
        wrap="nowrap"
        aria-hidden
        style={{ position: 'absolute', top: 0, left: 0, visibility: 'hidden', pointerEvents: 'none' }}
      >
        {items.map((item) => button(item, true))}
        <Button variant="subtle" rightSection={<IconChevronDown size={16} aria-hidden />} tabIndex={-1}>
          {t('header.more')}
        </Button>
      </Group>
    </Box>
  );
}
