import {
  type adminBlockedSourceInput,
  blockedSource,
  type blockedSourceInput,
  type blockedSourceUpdate,
  paged,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const blockedPage = paged(blockedSource);
const key = (campaignId: string) => ['campaigns', campaignId, 'blocked-sources'] as const;
/** The admin's list of every block (/sources). */
const allKey = ['blocked-sources'] as const;

/** Every campaign's blocks (admins and readonly admins): GET /api/blocked-sources. */
export const allBlockedSourcesQuery = (page: number, limit: number) =>
  queryOptions({
    queryKey: [...allKey, { page, limit }],
    queryFn: () => apiRequest('/blocked-sources', { schema: blockedPage, query: { page, limit } }),
    placeholderData: keepPreviousData,
  });
export const useAllBlockedSources = (page: number, limit: number) =>
  useQuery(allBlockedSourcesQuery(page, limit));

/** After a change: the campaign's list and the admin's list of every block. */
const refresh = (queryClient: ReturnType<typeof useQueryClient>, campaignId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: key(campaignId) }),
    queryClient.invalidateQueries({ queryKey: allKey }),
  ]);

/** A campaign's blocked traffic sources (sites and widgets where it does not serve). */
export const blockedSourcesQuery = (campaignId: string, page: number, limit = 10) =>
  queryOptions({
    queryKey: [...key(campaignId), { page, limit }],
    queryFn: () =>
      apiRequest(`/campaigns/${encodeURIComponent(campaignId)}/blocked-sources`, {
        schema: blockedPage,
        query: { page, limit },
      }),
    placeholderData: keepPreviousData,
  });
export const useBlockedSources = (campaignId: string, page: number) =>
  useQuery(blockedSourcesQuery(campaignId, page));

export function useBlockSource(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof blockedSourceInput>) =>
      apiRequest(`/campaigns/${encodeURIComponent(campaignId)}/blocked-sources`, {
        method: 'POST',
        json: { blocked_source: input },
        schema: blockedSource,
      }),
    onSuccess: () => refresh(queryClient, campaignId),
  });
}

/** An admin's block (/sources): for one campaign (`campaign_id`) or every campaign (null). */
export function useAdminBlockSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof adminBlockedSourceInput>) =>
      apiRequest('/blocked-sources', {
        method: 'POST',
        json: { blocked_source: input },
        schema: blockedSource,
      }),
    onSuccess: (block) => refresh(queryClient, block.campaign_id ?? 'none'),
  });
}

export function useEditBlockedSource(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: z.input<typeof blockedSourceUpdate> }) =>
      apiRequest(`/blocked-sources/${encodeURIComponent(id)}`, {
        method: 'PUT',
        json: { blocked_source: input },
        schema: blockedSource,
      }),
    onSuccess: () => refresh(queryClient, campaignId),
  });
}

/** The amnesty: the source serves the campaign again. */
export function useUnblockSource(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/blocked-sources/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => refresh(queryClient, campaignId),
  });
}
