import { Alert } from '@mantine/core';
import { IconEyeOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAppAbility } from '../lib/ability.tsx';

/**
 * What the caller sees of a site's statistics, as the server decides it (assertSiteStats); `pending` while
 * the site loads.
 */
export type SiteStatsAccess = 'pending' | 'hidden' | 'basic' | 'advanced';

/**
 * Administrators see every site's statistics; everyone else those of a site with `stats_visible`, and its
 * advanced ones (the click lists, what ran on it) with `advanced_stats`.
 */
export function useSiteStatsAccess(
  site: { stats_visible: boolean; advanced_stats: boolean } | undefined,
): SiteStatsAccess {
  const admin = useAppAbility().can('manage', 'ACL');
  if (admin) return 'advanced';
  if (!site) return 'pending';
  if (!site.stats_visible) return 'hidden';
  return site.advanced_stats ? 'advanced' : 'basic';
}

/** In place of a site's (or widget's) statistics an administrator hid from its owner. */
export function StatsHiddenNotice() {
  const { t } = useTranslation('errors');
  return (
    // a standing fact of the page, not news: a status, not an alert a screen reader breaks in with
    <Alert color="gray" variant="light" role="status" icon={<IconEyeOff size={18} aria-hidden />}>
      {t('stats_hidden')}
    </Alert>
  );
}
