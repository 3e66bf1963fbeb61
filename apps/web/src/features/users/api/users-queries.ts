import { account } from '@adp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export const fetchUser = (userId: string) =>
  apiRequest(`/users/${encodeURIComponent(userId)}`, { schema: account });

export const userQuery = (userId: string) =>
  queryOptions({ queryKey: ['users', userId], queryFn: () => fetchUser(userId) });

export const useUser = (userId: string) => useQuery(userQuery(userId));
