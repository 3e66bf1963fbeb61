import {
  type PartnerStatsBreakdown,
  type PartnerStatsSource,
  paged,
  partner,
  type partnerInput,
  partnerPreview,
  type partnerUpdate,
  statsTreeAnswer,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
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
  route: { breakdown: PartnerStatsBreakdown; source: PartnerStatsSource; key?: string; partnerId?: string },
  q: { from: string; to: string; tz: string; page: number },
) =>
  useQuery({
    queryKey: ['partners', id, 'stats', route, q],
    queryFn: () =>
      apiRequest(`${path(id)}/stats/${route.breakdown}`, {
        schema: statsTreeAnswer,
        query: {
          from: q.from,
          to: q.to,
          tz: q.tz,
          page: q.page,
          limit: LIMIT,
          ...(route.source === 'dsp' ? { source: 'dsp' } : {}),
          ...(route.key ? { key: route.key } : {}),
          ...(route.partnerId ? { partner_id: route.partnerId } : {}),
        },
      }),
    placeholderData: keepPreviousData,
  });

/** A DSP partner's name for a drill-down's heading (admins read DSP partners; others see the id). */
export const useDspPartnerName = (dspId: string | undefined) =>
  useQuery({
    queryKey: ['dsppartners', dspId, 'name'],
    queryFn: () =>
      apiRequest(`/dsppartners/${encodeURIComponent(dspId ?? '')}`, {
        schema: z.object({ name: z.string() }).loose(),
      }),
    enabled: Boolean(dspId),
    meta: { silent: true },
    retry: false,
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
