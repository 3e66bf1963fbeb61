import { account, type paymentProvider, paymentProviders, topup, topupStart } from '@adp/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

export const providersQuery = () =>
  queryOptions({
    queryKey: ['payments', 'providers'],
    queryFn: () => apiRequest('/payments/providers', { schema: paymentProviders }),
    staleTime: 10 * 60_000,
  });

export const useProviders = () => useQuery(providersQuery());

export const topupQuery = (topupId: string) =>
  queryOptions({
    queryKey: ['topups', topupId],
    queryFn: () => apiRequest(`/topups/${encodeURIComponent(topupId)}`, { schema: topup }),
  });

export const useTopup = (topupId: string | null, enabled: boolean) =>
  useQuery({ ...topupQuery(topupId ?? ''), enabled: enabled && Boolean(topupId) });

export const accountQuery = (userId: string) =>
  queryOptions({
    queryKey: ['users', userId],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(userId)}`, { schema: account }),
  });

export const useAccount = (userId: string | null | undefined) =>
  useQuery({ ...accountQuery(userId ?? ''), enabled: Boolean(userId) });

export function useStartTopup(userId: string) {
  return useMutation({
    mutationFn: (body: { sum: number; provider?: z.infer<typeof paymentProvider> }) =>
      apiRequest(`/users/${encodeURIComponent(userId)}/topups`, {
        method: 'POST',
        json: { topup: body },
        schema: topupStart,
      }),
  });
}
