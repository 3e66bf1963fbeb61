import {
  paged,
  platformSettings,
  type WithdrawalInput,
  withdrawal,
  type withdrawalStatus,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const withdrawalsPage = paged(withdrawal);
type Status = z.infer<typeof withdrawalStatus>;

export const settingsQuery = () =>
  queryOptions({
    queryKey: ['settings'],
    queryFn: () => apiRequest('/settings', { schema: platformSettings }),
  });

export const useSettings = () => useQuery(settingsQuery());

export const userWithdrawalsQuery = (userId: string, page: number, limit: number) =>
  queryOptions({
    queryKey: ['withdrawals', 'user', userId, { page, limit }],
    queryFn: () =>
      apiRequest(`/users/${encodeURIComponent(userId)}/withdrawals`, {
        schema: withdrawalsPage,
        query: { page, limit },
      }),
    placeholderData: keepPreviousData,
  });

export const useUserWithdrawals = (userId: string, page: number, limit = 20) =>
  useQuery(userWithdrawalsQuery(userId, page, limit));

export const withdrawalsQueueQuery = (status: Status | undefined, page: number, limit: number) =>
  queryOptions({
    queryKey: ['withdrawals', 'queue', { status, page, limit }],
    queryFn: () => apiRequest('/withdrawals', { schema: withdrawalsPage, query: { status, page, limit } }),
    placeholderData: keepPreviousData,
  });

export const useWithdrawalsQueue = (status: Status | undefined, page: number, limit = 20) =>
  useQuery(withdrawalsQueueQuery(status, page, limit));

/** A decision or a request changes balances too: accounts are refetched with the lists. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ['withdrawals'] });
    await queryClient.invalidateQueries({ queryKey: ['users'] });
  };
}

export function useRequestWithdrawal(userId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: WithdrawalInput) =>
      apiRequest(`/users/${encodeURIComponent(userId)}/withdrawals`, {
        method: 'POST',
        json: { withdrawal: body },
        schema: withdrawal,
      }),
    onSuccess: invalidate,
  });
}

export function useDecideWithdrawal() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (
      decision:
        | { id: string; action: 'approve'; reference: string }
        | { id: string; action: 'reject'; reason: string },
    ) => {
      const body =
        decision.action === 'approve' ? { reference: decision.reference } : { reason: decision.reason };
      return apiRequest(`/withdrawals/${encodeURIComponent(decision.id)}/${decision.action}`, {
        method: 'POST',
        json: body,
        schema: withdrawal,
      });
    },
    onSuccess: invalidate,
  });
}
