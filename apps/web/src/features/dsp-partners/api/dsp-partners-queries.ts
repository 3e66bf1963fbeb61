import {
  type DspStatsQuery,
  dspPartner,
  dspPartnerBlacklistItem,
  type dspPartnerInput,
  type dspPartnerUpdate,
  dspStatsAnswer,
  paged,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const partnersPage = paged(dspPartner);
const blacklistPage = paged(dspPartnerBlacklistItem);
const partnerPath = (id: string) => `/dsppartners/${encodeURIComponent(id)}`;
const itemPath = (id: string) => `/dsppartnerblacklist/${encodeURIComponent(id)}`;
export const LIMIT = 20;

export type DspPartnerCreate = z.input<typeof dspPartnerInput>;
export type DspPartnerUpdate = z.input<typeof dspPartnerUpdate>;

export const useDspPartners = (q: { page: number; q: string; status: string }) =>
  useQuery({
    queryKey: ['dsppartners', 'list', q],
    queryFn: () =>
      apiRequest('/dsppartners', {
        schema: partnersPage,
        query: {
          page: q.page,
          limit: LIMIT,
          ...(q.q ? { q: q.q } : {}),
          ...(q.status ? { status: q.status } : {}),
        },
      }),
    placeholderData: keepPreviousData,
  });

export const dspPartnerQuery = (id: string) =>
  queryOptions({
    queryKey: ['dsppartners', id],
    queryFn: () => apiRequest(partnerPath(id), { schema: dspPartner }),
    enabled: Boolean(id),
  });
export const useDspPartner = (id: string) => useQuery(dspPartnerQuery(id));

export const useDspBlacklist = (partnerId: string, page: number) =>
  useQuery({
    queryKey: ['dsppartnerblacklist', 'list', { partnerId, page }],
    queryFn: () =>
      apiRequest('/dsppartnerblacklist', {
        schema: blacklistPage,
        query: { dsp_partner_id: partnerId, page, limit: LIMIT },
      }),
    placeholderData: keepPreviousData,
  });

export const useDspStats = (id: string, q: Partial<DspStatsQuery>) =>
  useQuery({
    queryKey: ['dsppartners', id, 'stats', q],
    queryFn: () =>
      apiRequest(`${partnerPath(id)}/stats`, {
        schema: dspStatsAnswer,
        query: Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '')) as Record<
          string,
          string
        >,
      }),
    placeholderData: keepPreviousData,
  });

function useInvalidate(key: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [key] });
}

export function useCreateDspPartner() {
  const invalidate = useInvalidate('dsppartners');
  return useMutation({
    mutationFn: (input: DspPartnerCreate) =>
      apiRequest('/dsppartners', { method: 'POST', json: { dsppartner: input }, schema: dspPartner }),
    onSuccess: invalidate,
  });
}

export function useUpdateDspPartner(id: string) {
  const invalidate = useInvalidate('dsppartners');
  return useMutation({
    mutationFn: (input: DspPartnerUpdate) =>
      apiRequest(partnerPath(id), { method: 'PUT', json: { dsppartner: input }, schema: dspPartner }),
    onSuccess: invalidate,
  });
}

export function useDeleteDspPartner(id: string) {
  const invalidate = useInvalidate('dsppartners');
  return useMutation({
    mutationFn: () => apiRequest(partnerPath(id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useSaveBlacklistItem() {
  const invalidate = useInvalidate('dsppartnerblacklist');
  return useMutation({
    mutationFn: (v: { id?: string; dsp_partner_id: string; source: string; comment: string }) =>
      v.id
        ? apiRequest(itemPath(v.id), {
            method: 'PUT',
            json: { dsppartnerblacklist: { source: v.source, comment: v.comment } },
            schema: dspPartnerBlacklistItem,
          })
        : apiRequest('/dsppartnerblacklist', {
            method: 'POST',
            json: {
              dsppartnerblacklist: { dsp_partner_id: v.dsp_partner_id, source: v.source, comment: v.comment },
            },
            schema: dspPartnerBlacklistItem,
          }),
    onSuccess: invalidate,
  });
}

export function useDeleteBlacklistItem() {
  const invalidate = useInvalidate('dsppartnerblacklist');
  return useMutation({
    mutationFn: (id: string) => apiRequest(itemPath(id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
