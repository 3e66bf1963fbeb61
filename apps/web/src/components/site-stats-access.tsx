import { Alert } from '@mantine/core';
import { IconEyeOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAppAbility } from '../lib/ability.tsx';
import { ApiError } from '../lib/api-client.ts';

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

/** The server's refusals of statistics a site's access settings keep from the caller. */
const accessCodes = ['stats_hidden', 'advanced_stats_off'] as const;
type AccessCode = (typeof accessCodes)[number];

/** The access setting a failed statistics call ran into, or null (any other failure). */
export function statsAccessCode(error: unknown): AccessCode | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  return (accessCodes as readonly string[]).includes(error.code) ? (error.code as AccessCode) : null;
}

/**
 * In place of a site's (or widget's) statistics an administrator hid from its owner (`stats_hidden`), or of
 * its advanced statistics while they are off (`advanced_stats_off`).
 */
export function StatsHiddenNotice({ code = 'stats_hidden' }: { code?: AccessCode }) {
  const { t } = useTranslation('errors');
  return (
    // a standing fact of the page, not news: a status, not an alert a screen reader breaks in with
    <Alert color="gray" variant="light" role="status" icon={<IconEyeOff size={18} aria-hidden />}>
      {t(code)}
    </Alert>
  );
}
