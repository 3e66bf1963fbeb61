import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAuthSnapshot, saveAbility } from '../../../lib/auth-storage.ts';
import { fetchMe } from './session.ts';

/** The dashboard's own session queries; the login and password pages use session.ts alone. */
export { logout } from './session.ts';

export const meQuery = () =>
  queryOptions({
    queryKey: ['auth', 'me', getAuthSnapshot().userId],
    queryFn: async () => {
      const me = await fetchMe();
      saveAbility(me.ability);
      return me;
    },
  });

export const useMe = (enabled: boolean) => useQuery({ ...meQuery(), enabled });
