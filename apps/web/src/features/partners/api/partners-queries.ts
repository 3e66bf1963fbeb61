import {
  type PartnerStatsBreakdown,
  paged,
  partner,
  type partnerInput,
  partnerPreview,
  type partnerUpdate,
  statsTreeAnswer,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const partnersPage = paged(partner);
const path = (id: string) => `/partners/${encodeURIComponent(id)}`;
export const LIMIT = 20;

export type PartnerCreate = z.input<typeof partnerInput>;
export type PartnerChange = z.input<typeof partnerUpdate>;

export const usePartners = (q: { page: number; q: string }) =>
  useQuery({
    queryKey: ['partners', 'list', q],
    queryFn: () =>
      apiRequest('/partners', {
        schema: partnersPage,
        query: { page: q.page, limit: LIMIT, ...(q.q ? { q: q.q } : {}) },
      }),
    placeholderData: keepPreviousData,
  });

export const partnerQuery = (id: string) =>
  queryOptions({
    queryKey: ['partners', id],
    queryFn: () => apiRequest(path(id), { schema: partner }),
    enabled: Boolean(id),
  });
export const usePartner = (id: string) => useQuery(partnerQuery(id));

export const usePartnerPreview = (id: string, draft: { showlogo: boolean; showamount: boolean }) =>
  useQuery({
    queryKey: ['partners', id, 'preview', draft],
    queryFn: () =>
      apiRequest(`${path(id)}/preview`, { method: 'POST', json: { partner: draft }, schema: partnerPreview }),
    placeholderData: keepPreviousData,
  });

export const usePartnerStats = (
  id: string,
  breakdown: PartnerStatsBreakdown,
  q: { from: string; to: string; page: number },
) =>
  useQuery({
    queryKey: ['partners', id, 'stats', breakdown, q],
    queryFn: () =>
      apiRequest(`${path(id)}/stats/${breakdown}`, {
        schema: statsTreeAnswer,
        query: { from: q.from, to: q.to, page: q.page, limit: LIMIT },
      }),
    placeholderData: keepPreviousData,
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['partners'] });
}

export function useCreatePartner() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (input: PartnerCreate) =>
      apiRequest('/partners', { method: 'POST', json: { partner: input }, schema: partner }),
    onSuccess,
  });
}

export function useUpdatePartner(id: string) {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (input: PartnerChange) =>
      apiRequest(path(id), { method: 'PUT', json: { partner: input }, schema: partner }),
    onSuccess,
  });
}

export function useDeletePartner(id: string) {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: () => apiRequest(path(id), { method: 'DELETE' }), onSuccess });
}

export function useUploadPartnerLogo(id: string) {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return apiRequest(`${path(id)}/logo`, { method: 'POST', multipart: body, schema: partner });
    },
    onSuccess,
  });
}
