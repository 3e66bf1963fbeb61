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

/** GET `path` (an /api statistics call) with a range, breakdown, timezone and order. */
export function useStatsAnswer(path: string | null, call: StatsCall) {
  const { extra, ...rest } = call;
  const query: Record<string, string> = { ...extra };
  for (const [key, value] of Object.entries(rest)) if (value) query[key] = value;
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
