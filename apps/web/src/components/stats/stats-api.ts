import { account, type StatsGroup, statsAnswer } from '@adp/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useAuth } from '../../lib/ability.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { browserTimeZone } from '../stats-panel.tsx';

/**
 * A statistics answer; `available_at` (an ISO instant) says the owner is in its first 24 hours and when
 * statistics appear (the rows are empty and the total zero until then).
 */
export const statsScreenAnswer = statsAnswer.extend({ available_at: z.string().optional() });
export type StatsScreenAnswer = z.infer<typeof statsScreenAnswer>;

export interface StatsCall {
  from: string;
  to: string;
  group: StatsGroup;
  tz: string;
  sort?: string | undefined;
  order?: string | undefined;
  /** Further query parameters of the call (e.g. `as` of a user's statistics). */
  extra?: Record<string, string> | undefined;
}

/** The query parameters of a statistics call. */
export function queryOf(call: StatsCall): Record<string, string> {
  const { extra, ...rest } = call;
  const query: Record<string, string> = { ...extra };
  for (const [key, value] of Object.entries(rest)) if (value) query[key] = value;
  return query;
}

/** GET `path` (an /api statistics call) with a range, breakdown, timezone and order. */
export function useStatsAnswer(path: string | null, call: StatsCall) {
  const query = queryOf(call);
  return useQuery({
    queryKey: ['stats', path, query],
    queryFn: () => apiRequest(path ?? '', { schema: statsScreenAnswer, query }),
    enabled: Boolean(path),
    meta: { silent: true },
    placeholderData: (previous) => previous,
  });
}

/**
 * The timezone whose days the statistics count: the user's setting (`account.timezone`), else the
 * browser's.
 */
export function useStatsTimeZone(): string {
  const { userId } = useAuth();
  const me = useQuery({
    queryKey: ['users', userId],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(userId ?? '')}`, { schema: account }),
    enabled: Boolean(userId),
    meta: { silent: true },
  });
  const setting = (me.data as { timezone?: string | null } | undefined)?.timezone;
  return setting || browserTimeZone();
}

/** The breakdowns of the second stats tree (/api/stats2/{subject}/{breakdown}) a screen's groups map to. */
const treeBreakdowns: Partial<Record<StatsGroup, string>> = {
  day: 'revenue',
  country: 'country',
  city: 'city',
  device: 'device',
  os: 'os',
  site: 'site',
};
/** The groups a v2 screen over the second stats tree offers (days only over time: the tree has no hours). */
export const treeGroups = (withSite: boolean): StatsGroup[] =>
  withSite ? ['day', 'country', 'city', 'device', 'os', 'site'] : ['day', 'country', 'city', 'device', 'os'];

/**
 * The v2 screens' calls (SPEC.md section 7, the second stats tree): a breakdown of one site, campaign or
 * creative is GET /api/stats2/{subject}/{breakdown}?id=…; StatsScreen's `pathOf` and `extra` for them.
 * @example <StatsScreen {...treeCalls('banners', '7')} overTime="day" … />
 */
export function treeCalls(subject: 'sites' | 'campaigns' | 'banners', id: string) {
  const pathOf = (group: StatsGroup) => {
    const breakdown = treeBreakdowns[group];
    return breakdown ? `/stats2/${subject}/${breakdown}` : null;
  };
  return { path: pathOf('day'), pathOf, extra: { id, limit: '500' } };
}
