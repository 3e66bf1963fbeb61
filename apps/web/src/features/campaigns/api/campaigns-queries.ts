import {
  account,
  banner,
  type CampaignPaymentsKind,
  campaign,
  type campaignInput,
  campaignIpRanges,
  campaignPayment,
  type campaignsQuery,
  type campaignUpdate,
  ipImportResult,
  paged,
  targetCtrStatus,
  withOwnerName,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const campaignRow = withOwnerName(campaign);
const campaignsPage = paged(campaignRow);
const paymentsPage = paged(campaignPayment);
const bannersPage = paged(withOwnerName(banner));
const checkResult = z.object({
  campaign,
  impressions: z.number().int(),
  clicks: z.number().int(),
  ctr: z.number(),
  passed: z.boolean(),
  status: targetCtrStatus,
  min_impressions: z.number().int(),
  message: z.string().nullable(),
});
const namedPage = paged(z.object({ _id: z.string(), title: z.string() }).loose());

const path = (campaignId: string) => `/campaigns/${encodeURIComponent(campaignId)}`;

export type CampaignsFilters = Partial<z.output<typeof campaignsQuery>> & { owner?: string | undefined };
/** A row of the campaigns list: the campaign and its owner's name. */
export type CampaignRow = z.infer<typeof campaignRow>;
export type CampaignCreate = z.input<typeof campaignInput>;
export type CampaignUpdate = z.input<typeof campaignUpdate>;

export const campaignsListQuery = (filters: CampaignsFilters) =>
  queryOptions({
    queryKey: ['campaigns', 'list', filters],
    queryFn: () => apiRequest('/campaigns', { schema: campaignsPage, query: { ...filters } }),
    placeholderData: keepPreviousData,
  });
export const useCampaignsList = (filters: CampaignsFilters) => useQuery(campaignsListQuery(filters));

export const campaignQuery = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaigns', campaignId],
    queryFn: () => apiRequest(path(campaignId), { schema: campaign }),
  });
export const useCampaign = (campaignId: string) => useQuery(campaignQuery(campaignId));

export const campaignPaymentsQuery = (
  campaignId: string,
  page: number,
  limit = 20,
  kind: CampaignPaymentsKind = 'all',
) =>
  queryOptions({
    queryKey: ['campaigns', campaignId, 'payments', { page, limit, kind }],
    queryFn: () =>
      apiRequest(`${path(campaignId)}/payments`, { schema: paymentsPage, query: { page, limit, kind } }),
    placeholderData: keepPreviousData,
  });
export const useCampaignPayments = (
  campaignId: string,
  page: number,
  limit = 20,
  kind: CampaignPaymentsKind = 'all',
) => useQuery(campaignPaymentsQuery(campaignId, page, limit, kind));

/** The creatives of a campaign, for its overview. */
export const campaignBannersQuery = (campaignId: string, page: number, limit = 10) =>
  queryOptions({
    queryKey: ['banners', 'list', { campaign_id: campaignId, page, limit }],
    queryFn: () =>
      apiRequest('/banners', { schema: bannersPage, query: { campaign_id: campaignId, page, limit } }),
    placeholderData: keepPreviousData,
  });
export const useCampaignBanners = (campaignId: string, page: number) =>
  useQuery(campaignBannersQuery(campaignId, page));

/** The owner's sites and widgets, to pick a campaign's site and widgets by name. */
export const ownerSitesQuery = (userId: string) =>
  queryOptions({
    queryKey: ['sites', 'list', { account: userId, limit: 500 }],
    queryFn: () => apiRequest('/sites', { schema: namedPage, query: { account: userId, limit: 500 } }),
    meta: { silent: true },
  });
export const siteWidgetsQuery = (siteId: string | null) =>
  queryOptions({
    queryKey: ['widgets', 'list', { site_id: siteId, limit: 500 }],
    queryFn: () =>
      apiRequest('/widgets', { schema: namedPage, query: { site_id: siteId ?? undefined, limit: 500 } }),
    enabled: Boolean(siteId),
    meta: { silent: true },
  });

function useInvalidateCampaigns() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['campaigns'] });
}

export function useCreateCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (input: CampaignCreate) =>
      apiRequest('/campaigns', { method: 'POST', json: { campaign: input }, schema: campaign }),
    onSuccess: invalidate,
  });
}

/**
 * `silent`: the caller shows the failure itself (the status switch explains a refused activation
 * with a top-up link instead of a bare toast).
 */
export function useUpdateCampaign(campaignId: string, silent = false) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (input: CampaignUpdate) =>
      apiRequest(path(campaignId), { method: 'PUT', json: { campaign: input }, schema: campaign }),
    onSuccess: invalidate,
    meta: { silent },
  });
}

export function useDeleteCampaign(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(path(campaignId), { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['campaigns', campaignId] });
      void queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
}

export function useCopyCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (campaignId: string) =>
      apiRequest(`/campaigns/copy/${encodeURIComponent(campaignId)}`, { method: 'POST', schema: campaign }),
    onSuccess: invalidate,
  });
}

/** Moves money between the owner's balance and the campaign: a negative sum returns it. */
export function useFundCampaign(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sum: number) =>
      apiRequest(`${path(campaignId)}/payments`, {
        method: 'POST',
        json: { payment: { sum } },
        schema: campaignPayment,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['campaigns'] });
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
}

export function useImportCampaignIps(campaignId: string) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return apiRequest(`${path(campaignId)}/import-ips`, { multipart: body, schema: ipImportResult });
    },
    onSuccess: invalidate,
  });
}

/** The campaign's IP list, read when the owner opens it. */
export function useCampaignIpRanges(campaignId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['campaigns', campaignId, 'ip-ranges'],
    queryFn: () => apiRequest(`${path(campaignId)}/ip-ranges`, { schema: campaignIpRanges }),
    enabled,
  });
}

export function useClearCampaignIps(campaignId: string) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: () => apiRequest(`${path(campaignId)}/ip-ranges`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useModerateCampaign(campaignId: string) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (decision: { decision: 'approve' } | { decision: 'reject'; reason: string }) =>
      apiRequest(`${path(campaignId)}/moderate`, { method: 'POST', json: decision, schema: campaign }),
    onSuccess: invalidate,
  });
}

export function useCheckTargetCtr(campaignId: string) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: () =>
      apiRequest(`${path(campaignId)}/check-target-ctr`, { method: 'POST', schema: checkResult }),
    onSuccess: invalidate,
  });
}

/** The owner: balance and currency for the balance card and the fund dialog. */
export const ownerQuery = (userId: string) =>
  queryOptions({
    queryKey: ['users', userId],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(userId)}`, { schema: account }),
    enabled: Boolean(userId),
  });
