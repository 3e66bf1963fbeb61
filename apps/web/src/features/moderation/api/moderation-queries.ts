import { banner, campaign, paged, site, widget, withOwnerName } from '@adp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type Decision = { decision: 'approve' } | { decision: 'reject'; reason: string };
export type ModerationKind = 'sites' | 'widgets' | 'campaigns' | 'banners';

const sitesPage = paged(withOwnerName(site));
const widgetsPage = paged(withOwnerName(widget));
const campaignsPage = paged(withOwnerName(campaign));
const bannersPage = paged(withOwnerName(banner));

export const pendingSitesQuery = (page: number) =>
  queryOptions({
    queryKey: ['sites', 'list', { moderation: 'pending', page }],
    queryFn: () =>
      apiRequest('/sites', { schema: sitesPage, query: { moderation: 'pending', page, limit: 20 } }),
  });
export const usePendingSites = (page: number) => useQuery(pendingSitesQuery(page));

export const pendingWidgetsQuery = (page: number) =>
  queryOptions({
    queryKey: ['widgets', 'list', { moderation: 'pending', page }],
    queryFn: () =>
      apiRequest('/widgets', { schema: widgetsPage, query: { moderation: 'pending', page, limit: 20 } }),
  });
export const usePendingWidgets = (page: number) => useQuery(pendingWidgetsQuery(page));

export const pendingCampaignsQuery = (page: number) =>
  queryOptions({
    queryKey: ['campaigns', 'list', { moderation: 'pending', page }],
    queryFn: () =>
      apiRequest('/campaigns', { schema: campaignsPage, query: { moderation: 'pending', page, limit: 20 } }),
  });
export const usePendingCampaigns = (page: number) => useQuery(pendingCampaignsQuery(page));

export const pendingBannersQuery = (page: number) =>
  queryOptions({
    queryKey: ['banners', 'list', { moderation: 'pending', page }],
    queryFn: () =>
      apiRequest('/banners', { schema: bannersPage, query: { moderation: 'pending', page, limit: 20 } }),
  });
export const usePendingBanners = (page: number) => useQuery(pendingBannersQuery(page));

export function useModerate(kind: ModerationKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: Decision }) =>
      apiRequest(`/${kind}/${encodeURIComponent(id)}/moderate`, { method: 'POST', json: decision }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [kind] }),
  });
}
