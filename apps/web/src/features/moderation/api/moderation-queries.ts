import { paged, site, widget } from '@adp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type Decision = { decision: 'approve' } | { decision: 'reject'; reason: string };
export type ModerationKind = 'sites' | 'widgets';

const sitesPage = paged(site);
const widgetsPage = paged(widget);

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

export function useModerate(kind: ModerationKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: Decision }) =>
      apiRequest(`/${kind}/${encodeURIComponent(id)}/moderate`, { method: 'POST', json: decision }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [kind] }),
  });
}
