import type { MemberAgency } from '@adp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';
import { getAuthSnapshot, saveAbility } from './auth-storage.ts';
import { useAuth } from './use-auth.ts';

/**
 * The signed-in user (GET /api/auth/me): the account, its rights and, for an agency member, its agency.
 * Used across features (the header, the user page), so it lives here rather than in features/auth.
 */
export const meQuery = () =>
  queryOptions({
    queryKey: ['auth', 'me', getAuthSnapshot().userId],
    queryFn: async () => {
      const me = await apiRequest('/auth/me', { schema: (await import('@adp/contract')).meResponse });
      saveAbility(me.ability);
      return me;
    },
  });

export const useMe = (enabled: boolean) => useQuery({ ...meQuery(), enabled });

/** The signed-in agency member's agency as its dashboard shows it; null for everyone else. */
export function useMemberAgency(): MemberAgency | null {
  const auth = useAuth();
  return useMe(Boolean(auth.accessToken)).data?.agency ?? null;
}

/**
 * Whether this screen keeps `userId`'s balance out of sight: the signed-in user is that agency member and
 * its agency turned `showamount` off. While the member's session is still loading it is kept out too, so
 * the figure never flashes before it is hidden.
 */
export function useHidesOwnBalance(userId: string | null | undefined): boolean {
  const auth = useAuth();
  const me = useMe(Boolean(auth.accessToken) && auth.role === 'agencymember');
  if (auth.role !== 'agencymember' || !userId || auth.userId !== userId) return false;
  return !me.data || me.data.agency?.showamount === false;
}
